package tests

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestScanWhileGrowingAndShrinking checks SCAN's guarantee — every key present for the whole
// scan is returned at least once — while the keyspace grows from 1,000 keys to 1,000,000 and
// shrinks back, so that tables double and halve several times under the cursors. 1,000
// stable keys stay throughout; between rounds of SCAN calls another connection adds (then
// deletes) 10,000 churn keys with pipelined SETs (DELs). Several scans run side by side at
// different paces (COUNT 10 to 5000), some started at 1,000 keys and some at the peak; when
// the churn is over they are run to the end, and each must have returned every stable key,
// and nothing but keys that existed.
func TestScanWhileGrowingAndShrinking(t *testing.T) {
	const (
		stableKeys = 1000
		churnKeys  = 999_000
		batch      = 10_000
	)
	srv := startServer(t)
	stable := func(i int) string { return fmt.Sprintf("scan:stable:%06d", i) }
	churn := func(i int) string { return fmt.Sprintf("scan:churn:%07d", i) }
	sendPipelined(t, srv.Addr, stableKeys, func(dst []byte, i int) []byte {
		return appendCommand(dst, "SET", stable(i), "v")
	})

	c := srv.RawConn(t)
	type scan struct {
		name    string
		count   int
		perStep int // SCAN calls per round
		cursor  string
		calls   int
		done    bool
		seen    map[string]bool
	}
	var scans []*scan
	startScans := func(when string) {
		for _, p := range []struct{ count, perStep int }{{10, 1}, {100, 2}, {1000, 2}, {5000, 1}} {
			scans = append(scans, &scan{
				name:  fmt.Sprintf("COUNT %d ×%d started %s", p.count, p.perStep, when),
				count: p.count, perStep: p.perStep, cursor: "0", seen: map[string]bool{},
			})
		}
	}
	step := func(s *scan) {
		t.Helper()
		r := c.Do("SCAN", s.cursor, "COUNT", strconv.Itoa(s.count))
		if r.Kind != '*' || len(r.Elems) != 2 || r.Elems[0].Kind != '$' || r.Elems[1].Kind != '*' {
			t.Fatalf("%s: SCAN %s: %s", s.name, s.cursor, formatReply(r, false))
		}
		for _, k := range r.Elems[1].Elems {
			if !strings.HasPrefix(k.Str, "scan:stable:") && !strings.HasPrefix(k.Str, "scan:churn:") {
				t.Fatalf("%s: SCAN returned %q, which never existed", s.name, k.Str)
			}
			s.seen[k.Str] = true
		}
		s.cursor = r.Elems[0].Str
		s.calls++
		s.done = s.cursor == "0"
	}
	round := func() {
		for _, s := range scans {
			for i := 0; i < s.perStep && !s.done; i++ {
				step(s)
			}
		}
	}

	start := time.Now()
	startScans("at 1,000 keys")
	for from := 0; from < churnKeys; from += batch {
		n := min(batch, churnKeys-from)
		sendPipelined(t, srv.Addr, n, func(dst []byte, i int) []byte {
			return appendCommand(dst, "SET", churn(from+i), "v")
		})
		round()
	}
	if r := c.Do("DBSIZE"); r.Int != stableKeys+churnKeys {
		t.Fatalf("DBSIZE at the peak = %s, want %d", formatReply(r, false), stableKeys+churnKeys)
	}
	startScans("at 1,000,000 keys")
	const perDel = 100
	for from := 0; from < churnKeys; from += batch {
		n := min(batch, churnKeys-from)
		sendPipelined(t, srv.Addr, (n+perDel-1)/perDel, func(dst []byte, i int) []byte {
			args := []string{"DEL"}
			for j := from + i*perDel; j < from+min((i+1)*perDel, n); j++ {
				args = append(args, churn(j))
			}
			return appendCommand(dst, args...)
		})
		round()
	}
	if r := c.Do("DBSIZE"); r.Int != stableKeys {
		t.Fatalf("DBSIZE after the churn = %s, want %d", formatReply(r, false), stableKeys)
	}
	for _, s := range scans {
		for !s.done {
			if s.calls > 10*(stableKeys+churnKeys) {
				t.Fatalf("%s: no end after %d calls", s.name, s.calls)
			}
			step(s)
		}
		missing := 0
		for i := range stableKeys {
			if !s.seen[stable(i)] {
				missing++
			}
		}
		if missing > 0 {
			t.Errorf("%s: %d of the %d stable keys never returned (%d calls)", s.name, missing, stableKeys, s.calls)
		} else {
			t.Logf("%s: every stable key returned; %d calls, %d distinct keys", s.name, s.calls, len(s.seen))
		}
	}
	t.Logf("%s: %v", targetName(), time.Since(start).Round(time.Millisecond))
}
