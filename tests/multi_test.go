package tests

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Transactions (issue 19): MULTI, EXEC, DISCARD, WATCH, UNWATCH through real clients. The
// replies of each command are checked in testdata/commands/multi.txt (also against
// redis-server); here: go-redis's TxPipelined and Watch, WATCH's invalidation by every cause
// from another connection, EXEC's atomicity under concurrency, the OOM refusals, CLIENT LIST.

// TestMultiTxPipelined: go-redis's TxPipelined (MULTI … EXEC) in RESP2 and RESP3, the results
// of each command read back, a runtime error one element among the others.
func TestMultiTxPipelined(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	for _, proto := range []int{2, 3} {
		t.Run(fmt.Sprintf("resp%d", proto), func(t *testing.T) {
			ctx := context.Background()
			c := s.Client(t, withProtocol(proto))
			prefix := fmt.Sprintf("p%d:", proto)
			var set *redis.StatusCmd
			var incr, bad *redis.IntCmd
			var get, missing *redis.StringCmd
			cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
				set = p.Set(ctx, prefix+"a", "10", 0)
				incr = p.IncrBy(ctx, prefix+"a", 5)
				get = p.Get(ctx, prefix+"a")
				p.Set(ctx, prefix+"s", "text", 0)
				bad = p.Incr(ctx, prefix+"s")
				missing = p.Get(ctx, prefix+"missing")
				return nil
			})
			if err == nil || !strings.Contains(err.Error(), "not an integer") {
				t.Fatalf("TxPipelined: err %v, want the INCR's error", err)
			}
			if len(cmds) != 6 {
				t.Fatalf("%d results", len(cmds))
			}
			if set.Val() != "OK" || incr.Val() != 15 || get.Val() != "15" {
				t.Errorf("results: %q %d %q", set.Val(), incr.Val(), get.Val())
			}
			if bad.Err() == nil || !strings.HasPrefix(bad.Err().Error(), "ERR value is not an integer") {
				t.Errorf("INCR of a string: %v", bad.Err())
			}
			if !errors.Is(missing.Err(), redis.Nil) {
				t.Errorf("GET of a missing key: %v", missing.Err())
			}
			// The connection is clean afterwards: the next command reads its own reply.
			if v, err := c.Get(ctx, prefix+"a").Result(); err != nil || v != "15" {
				t.Fatalf("GET after the transaction: %q %v", v, err)
			}
		})
	}
}

// TestMultiWatchCounter: the optimistic counter of go-redis's documentation — WATCH, GET,
// MULTI, SET, EXEC, retried on TxFailedErr — incremented by 20 clients 50 times each: the total
// is exact.
func TestMultiWatchCounter(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	const clients, increments = 20, 50
	ctx := context.Background()
	var retries atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := s.Client(t)
			for range increments {
				for {
					err := c.Watch(ctx, func(tx *redis.Tx) error {
						n, err := tx.Get(ctx, "counter").Int()
						if err != nil && !errors.Is(err, redis.Nil) {
							return err
						}
						_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
							p.Set(ctx, "counter", n+1, 0)
							return nil
						})
						return err
					}, "counter")
					if errors.Is(err, redis.TxFailedErr) {
						retries.Add(1)
						continue
					}
					if err != nil {
						errs <- err
						return
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	n, err := s.Client(t).Get(ctx, "counter").Int()
	if err != nil || n != clients*increments {
		t.Fatalf("counter = %d (%v), want %d", n, err, clients*increments)
	}
	t.Logf("counter %d after %d clients × %d increments, %d retries", n, clients, increments, retries.Load())
}

// execNull runs MULTI, SET key x, EXEC on the watching connection and reports whether EXEC
// answered the null array (the WATCH failed).
func execNull(t *testing.T, c *rawConn, key string) bool {
	t.Helper()
	if r := formatReply(c.Do("MULTI"), false); r != "OK\n" {
		t.Fatalf("MULTI: %q", r)
	}
	if r := formatReply(c.Do("SET", key, "x"), false); r != "QUEUED\n" {
		t.Fatalf("SET in MULTI: %q", r)
	}
	switch r := formatReply(c.Do("EXEC"), false); r {
	case "(nil)\n":
		return true
	case "1) OK\n":
		return false
	default:
		t.Fatalf("EXEC: %q", r)
		return false
	}
}

// mustDo sends a command on a raw connection and checks its reply as redis-cli prints it.
func mustDo(t *testing.T, c *rawConn, want string, args ...string) {
	t.Helper()
	if got := formatReply(c.Do(args...), false); got != want {
		t.Fatalf("%s: %q, want %q", strings.Join(args, " "), got, want)
	}
}

// TestMultiWatchInvalidation: each way another connection can change a watched key between
// WATCH and EXEC fails the EXEC; a key left alone does not.
func TestMultiWatchInvalidation(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	causes := []struct {
		name  string
		setup []string // run by the other connection before WATCH
		cause func(t *testing.T, other *rawConn)
		fails bool
	}{
		{"untouched", nil, func(*testing.T, *rawConn) {}, false},
		{"another key written", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "OK\n", "SET", "elsewhere", "1") }, false},
		{"same value written", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "OK\n", "SET", "k", "v") }, true},
		{"write", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "OK\n", "SET", "k", "other") }, true},
		{"DEL", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "(integer) 1\n", "DEL", "k") }, true},
		{"APPEND in place", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "(integer) 2\n", "APPEND", "k", "w") }, true},
		{"SETRANGE in place", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "(integer) 1\n", "SETRANGE", "k", "0", "z") }, true},
		{"INCR in place", []string{"SET", "k", "41"}, func(t *testing.T, o *rawConn) { mustDo(t, o, "(integer) 42\n", "INCR", "k") }, true},
		{"EXPIRE", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "(integer) 1\n", "EXPIRE", "k", "100") }, true},
		{"PERSIST", []string{"SET", "k", "v", "EX", "100"}, func(t *testing.T, o *rawConn) { mustDo(t, o, "(integer) 1\n", "PERSIST", "k") }, true},
		{"RENAME onto it", []string{"SET", "src", "s"}, func(t *testing.T, o *rawConn) { mustDo(t, o, "OK\n", "RENAME", "src", "k") }, true},
		{"MOVE away", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "(integer) 1\n", "MOVE", "k", "1") }, true},
		{"FLUSHDB", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "OK\n", "FLUSHDB") }, true},
		{"FLUSHALL", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "OK\n", "FLUSHALL") }, true},
		{"FLUSHDB of another database", nil, func(t *testing.T, o *rawConn) {
			mustDo(t, o, "OK\n", "SELECT", "3")
			mustDo(t, o, "OK\n", "FLUSHDB")
		}, false},
		{"SWAPDB", nil, func(t *testing.T, o *rawConn) { mustDo(t, o, "OK\n", "SWAPDB", "0", "1") }, true},
		{"expiry, lazy", []string{"SET", "k", "v", "PX", "100"}, func(t *testing.T, o *rawConn) {
			waitFor(t, 10*time.Second, "the key to expire", func() bool { return formatReply(o.Do("EXISTS", "k"), false) == "(integer) 0\n" })
		}, true},
		{"expiry, active", []string{"SET", "k", "v", "PX", "100"}, func(t *testing.T, o *rawConn) {
			waitFor(t, 10*time.Second, "active expiry", func() bool { return formatReply(o.Do("DBSIZE"), false) == "(integer) 0\n" })
		}, true},
		{"expired but not yet deleted at EXEC", []string{"SET", "k", "v", "PX", "100"}, func(t *testing.T, o *rawConn) {
			// Active expiry is off (below): the key stays until read, logically expired.
			time.Sleep(150 * time.Millisecond) // the clock must pass the expire: nothing to poll
		}, true},
	}
	for _, tc := range causes {
		t.Run(tc.name, func(t *testing.T) {
			c, other := s.RawConn(t), s.RawConn(t)
			mustDo(t, other, "OK\n", "FLUSHALL")
			activeExpire := "1"
			if strings.HasPrefix(tc.name, "expired but") {
				activeExpire = "0"
			}
			mustDo(t, other, "OK\n", "DEBUG", "SET-ACTIVE-EXPIRE", activeExpire)
			mustDo(t, other, "OK\n", "SET", "k", "v")
			if tc.setup != nil {
				mustDo(t, other, "OK\n", tc.setup...)
			}
			mustDo(t, c, "OK\n", "WATCH", "k")
			if tc.setup != nil && tc.setup[len(tc.setup)-2] == "PX" {
				// The key must still be alive when watched (a loaded machine may take longer
				// than its 30 ms between SET and WATCH): else the case is not the one meant.
				if r := other.Do("PTTL", "k"); r.Kind != ':' || r.Int <= 0 {
					t.Skipf("the key expired before WATCH on this loaded machine (PTTL %v)", formatReply(r, false))
				}
			}
			tc.cause(t, other)
			if got := execNull(t, c, "k"); got != tc.fails {
				t.Fatalf("EXEC failed: %v, want %v", got, tc.fails)
			}
			mustDo(t, other, "OK\n", "DEBUG", "SET-ACTIVE-EXPIRE", "1")
		})
	}
}

// TestMultiWatchEviction: a watched key evicted under maxmemory (allkeys-random and
// allkeys-lru) fails the EXEC.
func TestMultiWatchEviction(t *testing.T) {
	t.Parallel()
	for _, policy := range []string{"allkeys-random", "allkeys-lru"} {
		t.Run(policy, func(t *testing.T) {
			t.Parallel()
			s := startServer(t)
			c, other := s.RawConn(t), s.RawConn(t)
			mustDo(t, other, "OK\n", "CONFIG", "SET", "maxmemory-policy", policy)
			mustDo(t, other, "OK\n", "SET", "k", "v")
			mustDo(t, c, "OK\n", "WATCH", "k")
			// A limit nothing can get under: every key is evicted, the watched one too.
			mustDo(t, other, "OK\n", "CONFIG", "SET", "maxmemory", "1")
			other.Do("SET", "trigger", "x") // evicts, then is refused (OOM) or stored and evicted
			waitFor(t, 10*time.Second, "the watched key's eviction", func() bool { return formatReply(other.Do("EXISTS", "k"), false) == "(integer) 0\n" })
			mustDo(t, other, "OK\n", "CONFIG", "SET", "maxmemory", "0")
			if infoInt(t, s, "stats", "evicted_keys") == 0 {
				t.Fatal("no key evicted")
			}
			if !execNull(t, c, "k") {
				t.Fatal("EXEC ran after the watched key was evicted")
			}
		})
	}
}

// TestMultiAtomicity: writers run MULTI; INCR; DECR on keys of different shards, readers MGET
// them: the sum is always 0 — no reader sees half a transaction. (Keys are spread over many
// pairs, so that some pair certainly spans two shards.)
func TestMultiAtomicity(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	const pairs, writers, readers, txPerWriter = 8, 4, 4, 300
	keys := func(p int) (string, string) { return fmt.Sprintf("up:%d", p), fmt.Sprintf("down:%d", p) }
	ctx := context.Background()
	var done atomic.Bool
	var wg, rg sync.WaitGroup
	errs := make(chan error, writers+readers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := s.Client(t)
			for i := range txPerWriter {
				up, down := keys((w + i) % pairs)
				_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
					p.Incr(ctx, up)
					p.Decr(ctx, down)
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var reads atomic.Int64
	for range readers {
		rg.Add(1)
		go func() {
			defer rg.Done()
			c := s.Client(t)
			for i := 0; !done.Load(); i++ {
				up, down := keys(i % pairs)
				vals, err := c.MGet(ctx, up, down).Result()
				if err != nil {
					errs <- err
					return
				}
				a, _ := strconv.Atoi(fmt.Sprint(orZero(vals[0])))
				b, _ := strconv.Atoi(fmt.Sprint(orZero(vals[1])))
				if a+b != 0 {
					errs <- fmt.Errorf("MGET %s %s = %v %v: half a transaction seen", up, down, vals[0], vals[1])
					return
				}
				reads.Add(1)
			}
		}()
	}
	wg.Wait()
	done.Store(true)
	rg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	c := s.Client(t)
	total := 0
	for p := range pairs {
		up, _ := keys(p)
		n, _ := c.Get(ctx, up).Int()
		total += n
	}
	if total != writers*txPerWriter {
		t.Fatalf("total %d, want %d", total, writers*txPerWriter)
	}
	t.Logf("%d transactions, %d consistent reads", total, reads.Load())
}

// orZero is v, or "0" for a missing key.
func orZero(v any) any {
	if v == nil {
		return "0"
	}
	return v
}

// TestMultiOOM: over maxmemory with nothing evictable (noeviction), queuing any command
// answers the OOM error and EXEC then answers EXECABORT; an EXEC whose queue holds a denyoom
// command is refused with EXECABORT naming OOM; a read-only transaction still runs, and
// DISCARD is always allowed.
func TestMultiOOM(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	c, admin := s.RawConn(t), s.RawConn(t)
	mustDo(t, c, "OK\n", "SET", "k", "v")

	// Queued before the limit, EXEC after it.
	mustDo(t, c, "OK\n", "MULTI")
	mustDo(t, c, "QUEUED\n", "SET", "k", "new")
	mustDo(t, admin, "OK\n", "CONFIG", "SET", "maxmemory", "1")
	mustDo(t, c, "(error) EXECABORT Transaction discarded because of: "+errOOM+"\n", "EXEC")
	mustDo(t, c, "(error) ERR EXEC without MULTI\n", "EXEC")

	// Queuing over the limit: every command is refused, EXEC aborts.
	mustDo(t, c, "OK\n", "MULTI")
	mustDo(t, c, "(error) "+errOOM+"\n", "SET", "k", "new")
	mustDo(t, c, "(error) "+errOOM+"\n", "GET", "k")
	mustDo(t, c, "(error) EXECABORT Transaction discarded because of previous errors.\n", "EXEC")

	// DISCARD is allowed over the limit.
	mustDo(t, c, "OK\n", "MULTI")
	mustDo(t, c, "(error) "+errOOM+"\n", "GET", "k")
	mustDo(t, c, "OK\n", "DISCARD")

	// A read-only transaction queued under the limit runs over it.
	mustDo(t, admin, "OK\n", "CONFIG", "SET", "maxmemory", "0")
	mustDo(t, c, "OK\n", "MULTI")
	mustDo(t, c, "QUEUED\n", "GET", "k")
	mustDo(t, admin, "OK\n", "CONFIG", "SET", "maxmemory", "1")
	mustDo(t, c, "1) \"v\"\n", "EXEC")
	mustDo(t, admin, "OK\n", "CONFIG", "SET", "maxmemory", "0")
	mustDo(t, c, "\"v\"\n", "GET", "k")
}

// TestMultiClientList: CLIENT LIST and CLIENT INFO show multi= (-1 outside MULTI, else the
// number queued), watch= (keys watched), multi-mem= (queued arguments and watched keys), the
// x flag in MULTI and d once a watched key changed; RESET and EXEC end it all.
func TestMultiClientList(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	c, other := s.RawConn(t), s.RawConn(t)
	field := func(line, name string) string {
		m := regexp.MustCompile(`(?:^| )` + regexp.QuoteMeta(name) + `=(\S*)`).FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("no %s= in %q", name, line)
		}
		return m[1]
	}
	id := strings.TrimPrefix(strings.TrimSpace(formatReply(c.Do("CLIENT", "ID"), false)), "(integer) ")
	lineOf := func() string {
		for _, l := range strings.Split(other.Do("CLIENT", "LIST").Str, "\n") {
			if strings.HasPrefix(l, "id="+id+" ") {
				return strings.TrimSpace(l)
			}
		}
		t.Fatalf("client %s not in CLIENT LIST", id)
		return ""
	}
	line := lineOf()
	if field(line, "multi") != "-1" || field(line, "watch") != "0" || field(line, "multi-mem") != "0" || field(line, "flags") != "N" {
		t.Fatalf("idle: %q", line)
	}
	// Redis 7.2's order: … sub psub ssub multi watch qbuf … argv-mem multi-mem rbs …
	if !regexp.MustCompile(` ssub=\d+ multi=-1 watch=0 qbuf=.* argv-mem=\d+ multi-mem=0 rbs=`).MatchString(line) {
		t.Fatalf("field order: %q", line)
	}
	mustDo(t, c, "OK\n", "WATCH", "a", "b")
	mustDo(t, c, "OK\n", "MULTI")
	mustDo(t, c, "QUEUED\n", "SET", "key", strings.Repeat("v", 100))
	line = lineOf()
	if field(line, "multi") != "1" || field(line, "watch") != "2" || field(line, "flags") != "x" {
		t.Fatalf("in MULTI: %q", line)
	}
	mem1, _ := strconv.Atoi(field(line, "multi-mem"))
	if mem1 < 100 {
		t.Fatalf("multi-mem %d with 100 bytes queued: %q", mem1, line)
	}
	mustDo(t, c, "QUEUED\n", "SET", "key2", strings.Repeat("v", 1000))
	line = lineOf()
	mem2, _ := strconv.Atoi(field(line, "multi-mem"))
	if field(line, "multi") != "2" || mem2 < mem1+1000 {
		t.Fatalf("two queued: multi-mem %d after %d: %q", mem2, mem1, line)
	}
	mustDo(t, other, "OK\n", "SET", "a", "touched")
	line = lineOf()
	if field(line, "flags") != "xd" || field(line, "watch") != "0" {
		t.Fatalf("after a watched key changed (Redis then unwatches them all): %q", line)
	}
	mustDo(t, c, "(nil)\n", "EXEC")
	line = lineOf()
	if field(line, "multi") != "-1" || field(line, "watch") != "0" || field(line, "multi-mem") != "0" || field(line, "flags") != "N" {
		t.Fatalf("after EXEC: %q", line)
	}
	// CLIENT INFO of the connection itself; RESET ends the transaction and unwatches.
	mustDo(t, c, "OK\n", "WATCH", "a")
	mustDo(t, c, "OK\n", "MULTI")
	mustDo(t, c, "QUEUED\n", "CLIENT", "INFO")
	mustDo(t, c, "RESET\n", "RESET")
	self := strings.TrimSpace(c.Do("CLIENT", "INFO").Str)
	if field(self, "multi") != "-1" || field(self, "watch") != "0" {
		t.Fatalf("CLIENT INFO after RESET: %q", self)
	}
}

// TestMultiWireBytes: the exact bytes of a pipelined transaction — QUEUED, EXEC's array, and
// the null array of a failed WATCH, *-1 in RESP2 and _ in RESP3 — sent in one write, as
// clients pipeline MULTI … EXEC.
func TestMultiWireBytes(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	for _, tc := range []struct {
		proto int
		null  string
	}{{2, "*-1\r\n"}, {3, "_\r\n"}} {
		c, other := s.RawConn(t), s.RawConn(t)
		if tc.proto == 3 {
			c.Do("HELLO", "3")
		}
		c.Send(append(append(encodeCommand("MULTI"), encodeCommand("SET", "wire", "1")...), encodeCommand("INCR", "wire")...))
		c.Send(encodeCommand("EXEC"))
		want := "+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n+OK\r\n:2\r\n"
		if got := string(c.ReadN(len(want))); got != want {
			t.Fatalf("RESP%d transaction: %q, want %q", tc.proto, got, want)
		}
		c.Send(encodeCommand("WATCH", "wire"))
		c.ReadN(len("+OK\r\n"))
		mustDo(t, other, "(integer) 3\n", "INCR", "wire")
		c.Send(append(append(encodeCommand("MULTI"), encodeCommand("GET", "wire")...), encodeCommand("EXEC")...))
		want = "+OK\r\n+QUEUED\r\n" + tc.null
		if got := string(c.ReadN(len(want))); got != want {
			t.Fatalf("RESP%d failed WATCH: %q, want %q", tc.proto, got, want)
		}
	}
}
