package tests

import (
	"fmt"
	"testing"
)

// TestScanCursorAllOnes: SCAN -1 is SCAN 18446744073709551615 (the cursor is unsigned, as
// strtoul reads it), the last place a scan visits: it answers cursor 0 and the keys there,
// which the last call of a whole scan (COUNT 1) returns too. Which keys are there depends on
// the hash seed, so the test refills the database until the place holds some (a server that
// answered nothing for every such cursor would fail).
func TestScanCursorAllOnes(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	keys := func(r *Reply) (string, map[string]bool) {
		t.Helper()
		if r.Kind != '*' || len(r.Elems) != 2 || r.Elems[1].Kind != '*' {
			t.Fatalf("SCAN: %s", formatReply(r, false))
		}
		m := map[string]bool{}
		for _, e := range r.Elems[1].Elems {
			m[e.Str] = true
		}
		return r.Elems[0].Str, m
	}
	for round := range 30 {
		if r := c.Do("FLUSHALL"); r.Str != "OK" {
			t.Fatal(formatReply(r, false))
		}
		sendPipelined(t, srv.Addr, 1000, func(dst []byte, i int) []byte {
			return appendCommand(dst, "SET", fmt.Sprintf("r%d:k%d", round, i), "v")
		})
		next, last := keys(c.Do("SCAN", "-1", "COUNT", "1"))
		if next != "0" {
			t.Fatalf("SCAN -1: cursor %s, want 0", next)
		}
		next2, last2 := keys(c.Do("SCAN", "18446744073709551615", "COUNT", "1"))
		if next2 != "0" || fmt.Sprint(last2) != fmt.Sprint(last) {
			t.Fatalf("SCAN 18446744073709551615: %s %v, SCAN -1: 0 %v", next2, last2, last)
		}
		// The whole scan's last call.
		var final map[string]bool
		for cursor, calls := "0", 0; ; calls++ {
			if calls > 100_000 {
				t.Fatal("scan does not end")
			}
			cursor, final = keys(c.Do("SCAN", cursor, "COUNT", "1"))
			if cursor == "0" {
				break
			}
		}
		for k := range last {
			if !final[k] {
				t.Fatalf("SCAN -1 returned %q, which the last call of a whole scan (%v) did not", k, final)
			}
		}
		if len(last) > 0 {
			return
		}
	}
	t.Fatal("SCAN -1 returned no key in 30 databases of 1,000 keys")
}
