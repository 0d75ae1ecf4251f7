package tests

import (
	"bufio"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// expiryKeys is how many keys with a 1-hour TTL surround the probe key; KVSERVER_EXPIRY_KEYS
// lowers it.
const expiryKeys = 1_000_000

// TestActiveExpiryAmongMillionKeys: a key with PX 100 among 1,000,000 keys with 1-hour TTLs,
// never read, must be counted in expired_keys within 2 s — the cron takes due keys off a TTL
// index in time order, so the other keys do not slow it down. Twenty probes, each SET at a
// random moment; the delay from the SET's reply to the first INFO that counts the key (polled
// every 2 ms) is logged: the target is 100 ms plus one cron tick at hz 10. Only the 2 s bound
// is asserted.
//
// Not run against redis-server: its active expiry samples keys with an expire at random and
// only promises that at most 10% of them are stale, so among 1,000,000 such keys one due key
// can wait for minutes.
func TestActiveExpiryAmongMillionKeys(t *testing.T) {
	requireKvserver(t, "Redis's sampled active expiry gives no bound for one key among 1,000,000")
	n := expiryKeys
	if s := os.Getenv("KVSERVER_EXPIRY_KEYS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n <= 0 {
			t.Fatalf("KVSERVER_EXPIRY_KEYS=%q", s)
		}
	}
	srv := startServer(t)

	start := time.Now()
	sendPipelined(t, srv.Addr, n, func(dst []byte, i int) []byte {
		return appendCommand(dst, "SET", "expiry:bg:"+strconv.Itoa(i), "v", "EX", "3600")
	})
	t.Logf("loaded %d keys with EX 3600 in %v", n, time.Since(start).Round(time.Millisecond))

	c := srv.RawConn(t)
	if r := c.Do("DBSIZE"); r.Kind != ':' || r.Int != int64(n) {
		t.Fatalf("DBSIZE = %s, want %d", formatReply(r, false), n)
	}
	expired := func() int64 {
		t.Helper()
		r := c.Do("INFO", "stats")
		for _, line := range strings.Split(r.Str, "\r\n") {
			if v, ok := strings.CutPrefix(line, "expired_keys:"); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatalf("expired_keys:%q", v)
				}
				return n
			}
		}
		t.Fatalf("INFO stats has no expired_keys: %s", formatReply(r, false))
		return 0
	}

	const (
		runs     = 20
		bound    = 2 * time.Second
		pollStep = 2 * time.Millisecond
	)
	base := expired()
	delays := make([]time.Duration, 0, runs)
	for i := range runs {
		// A random phase against the cron's ticks: right after the previous key's expiry the
		// next SET would always come just after a tick.
		time.Sleep(rand.N(100 * time.Millisecond))
		before := expired()
		if r := c.Do("SET", "expiry:probe:"+strconv.Itoa(i), "v", "PX", "100"); r.Kind != '+' {
			t.Fatalf("SET PX 100: %s", formatReply(r, false))
		}
		set := time.Now()
		for {
			time.Sleep(pollStep)
			if got := expired(); got > before {
				if got != before+1 {
					t.Fatalf("run %d: expired_keys went from %d to %d: keys with a 1-hour TTL expired", i, before, got)
				}
				delays = append(delays, time.Since(set))
				break
			}
			if time.Since(set) > bound {
				t.Fatalf("run %d: the PX 100 key was not counted in expired_keys within %v", i, bound)
			}
		}
	}
	slices.Sort(delays)
	median := (delays[runs/2-1] + delays[runs/2]) / 2
	t.Logf("expiry of a PX 100 key among %d keys, over %d runs: median %v after the SET (%v past its time), min %v, max %v; target ≤ 100 ms + one cron tick (hz 10) = 200 ms",
		n, runs, median.Round(100*time.Microsecond), (median - 100*time.Millisecond).Round(100*time.Microsecond),
		delays[0].Round(100*time.Microsecond), delays[runs-1].Round(100*time.Microsecond))

	if got := expired() - base; got != runs {
		t.Errorf("expired_keys grew by %d, want %d", got, runs)
	}
	if r := c.Do("DBSIZE"); r.Kind != ':' || r.Int != int64(n) {
		t.Errorf("DBSIZE = %s after the runs, want %d", formatReply(r, false), n)
	}
}

// sendPipelined sends n commands made by gen over a new connection, writing and reading at
// once, and fails the test on an error reply. Every reply must be one line (+OK, :1).
func sendPipelined(t testing.TB, addr string, n int, gen func(dst []byte, i int) []byte) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, ioTimeout)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute))
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(conn, 1<<20)
		var buf []byte
		for i := range n {
			buf = gen(buf[:0], i)
			if _, err := w.Write(buf); err != nil {
				werr <- err
				return
			}
		}
		werr <- w.Flush()
	}()
	r := bufio.NewReaderSize(conn, 1<<20)
	for i := range n {
		line, err := r.ReadSlice('\n')
		if err != nil {
			t.Fatalf("reply %d of %d: %v", i, n, err)
		}
		if line[0] == '-' || line[0] == '$' || line[0] == '*' {
			t.Fatalf("reply %d of %d: %q", i, n, line)
		}
	}
	if err := <-werr; err != nil {
		t.Fatalf("writing the pipeline: %v", err)
	}
}

// appendCommand appends args to dst as a RESP multibulk request.
func appendCommand(dst []byte, args ...string) []byte {
	dst = append(dst, '*')
	dst = strconv.AppendInt(dst, int64(len(args)), 10)
	dst = append(dst, "\r\n"...)
	for _, a := range args {
		dst = append(dst, '$')
		dst = strconv.AppendInt(dst, int64(len(a)), 10)
		dst = append(dst, "\r\n"...)
		dst = append(dst, a...)
		dst = append(dst, "\r\n"...)
	}
	return dst
}
