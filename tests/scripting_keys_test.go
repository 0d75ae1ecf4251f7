package tests

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
)

// The keys a script touches (issue 23): writes inside a script raise keyspace events as the
// same commands outside one do, and a script may touch keys it did not declare (BullMQ builds
// its job keys inside its scripts) and still runs as one atomic step. These run against
// redis-server too.

// TestScriptKeyspaceEvents: each write of a script raises its command's events, in order; a
// write before the script's error raises its events too; a read-only script raises none.
func TestScriptKeyspaceEvents(t *testing.T) {
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "KEA")
	steps := []struct {
		line []any
		want string // events, ";"-separated
	}{
		{[]any{"eval", "redis.call('set', KEYS[1], 'v') redis.call('incr', 'undeclared') redis.call('expire', KEYS[1], 100) return redis.call('del', KEYS[1])", "1", "k"},
			"k@0: set;set@0 k;undeclared@0: incrby;incrby@0 undeclared;k@0: expire;expire@0 k;k@0: del;del@0 k"},
		{[]any{"eval", "redis.call('rpush', KEYS[1], 'a', 'b') redis.call('lpop', KEYS[1]) error('after the writes')", "1", "l"},
			"l@0: rpush;rpush@0 l;l@0: lpop;lpop@0 l"},
		{[]any{"eval", "return redis.call('get', KEYS[1])", "1", "undeclared"}, ""},
		{[]any{"eval_ro", "return redis.call('lrange', KEYS[1], 0, -1)", "1", "l"}, ""},
		{[]any{"eval", "return redis.call('hset', KEYS[1], 'f', 'v')", "1", "h"}, "h@0: hset;hset@0 h"},
	}
	for _, st := range steps {
		got := strings.Join(doMarked(t, c, sub, st.line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line, got, st.want)
		}
	}
}

// bumpUndeclared increments {prefix}:a, then copies it into {prefix}:b, with a read-modify-write
// of a shared counter between: a reader seeing a != b, or a lost count, is a broken run. It
// uses no declared key: BullMQ-style, it builds its key names from ARGV.
const bumpUndeclared = `
local p = ARGV[1]
local n = redis.call('INCR', p .. ':a')
local c = tonumber(redis.call('GET', 'shared:counter') or '0')
redis.call('SET', 'shared:counter', c + 1)
redis.call('SET', p .. ':b', n)
return n`

// bumpAfterWrite does the same after writing the key it declares (Redis allows it).
const bumpAfterWrite = `
redis.call('INCR', KEYS[1])` + bumpUndeclared

// TestScriptUndeclaredKeysAtomic: scripts that build their key names from ARGV — declaring none,
// or writing their declared key first — run concurrently with MULTI/EXEC readers and plain
// INCRs of the same keys. Every run succeeds, none is seen half done (the readers always find a
// and b equal), and no increment is lost. Each script runs once alone first
// (TestScriptUndeclaredKeysFirstRun runs them without that).
func TestScriptUndeclaredKeysAtomic(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	c := s.Client(t)
	for _, script := range []string{bumpUndeclared, bumpAfterWrite} {
		if err := redis.NewScript(script).Run(context.Background(), c, []string{"declared:warmup"}, "warmup").Err(); err != nil {
			t.Fatalf("the first run, alone: %v", err)
		}
	}
	if err := c.Del(context.Background(), "shared:counter").Err(); err != nil {
		t.Fatal(err)
	}
	runUndeclared(t, s)
}

// TestScriptUndeclaredKeysFirstRun: the same without the runs alone first, so that the scripts'
// first runs meet contention on keys they did not declare (kvserver runs a script's first run
// holding every shard: family/scriptfamily's vetting).
func TestScriptUndeclaredKeysFirstRun(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	runUndeclared(t, s)
}

// runUndeclared runs bumpUndeclared (even writers) and bumpAfterWrite (odd ones) from several
// clients at once, with readers and INCRs beside, and checks the outcome.
func runUndeclared(t *testing.T, s *server) {
	ctx := context.Background()
	scripts := []*redis.Script{redis.NewScript(bumpUndeclared), redis.NewScript(bumpAfterWrite)}
	const (
		writers  = 4
		runs     = 150
		prefixes = 3
	)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	report := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	done := make(chan struct{})
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := s.Client(t)
			keys := []string{fmt.Sprintf("declared:%d", w)} // unused by bumpUndeclared
			for i := 0; i < runs; i++ {
				p := fmt.Sprintf("bull:%d", (w+i)%prefixes)
				if err := scripts[w%2].Run(ctx, c, keys, p).Err(); err != nil {
					report(fmt.Errorf("writer %d run %d: %v", w, i, err))
					return
				}
			}
		}(w)
	}
	// Plain INCRs of the shared counter interleave with the scripts.
	wg.Add(1)
	go func() {
		defer wg.Done()
		c := s.Client(t)
		for i := 0; i < runs; i++ {
			if err := c.Incr(ctx, "shared:counter").Err(); err != nil {
				report(fmt.Errorf("INCR: %v", err))
				return
			}
		}
	}()
	// Readers: a and b of a prefix are always equal between scripts.
	var readers sync.WaitGroup
	for r := 0; r < 2; r++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			c := s.Client(t)
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				p := fmt.Sprintf("bull:%d", i%prefixes)
				var a, b *redis.StringCmd
				if _, err := c.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
					a = pipe.Get(ctx, p+":a")
					b = pipe.Get(ctx, p+":b")
					return nil
				}); err != nil && err != redis.Nil {
					report(fmt.Errorf("reader: %v", err))
					return
				}
				if a.Val() != b.Val() {
					report(fmt.Errorf("reader saw a script half done: %s:a=%q, %s:b=%q", p, a.Val(), p, b.Val()))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	c := s.Client(t)
	if got, err := c.Get(ctx, "shared:counter").Int(); err != nil || got != writers*runs+runs {
		t.Errorf("shared:counter = %d (%v), want %d: an increment was lost", got, err, writers*runs+runs)
	}
	total := 0
	for p := 0; p < prefixes; p++ {
		n, err := c.Get(ctx, fmt.Sprintf("bull:%d:a", p)).Int()
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if total != writers*runs {
		t.Errorf("the prefixes' a counters sum to %d, want %d", total, writers*runs)
	}
}

// TestScriptWakesBlockedClient: a client blocked in BLPOP is served after a script that pushed
// to its key ends, with what the list holds then: a script that pushes and pops the same
// element leaves it blocked (the next RPUSH serves it), one that pushes serves it.
func TestScriptWakesBlockedClient(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	blocked := s.RawConn(t)
	blocked.Send(encodeCommand("BLPOP", "l", "0"))
	c := s.RawConn(t)
	waitFor(t, ioTimeout, "the BLPOP client blocked", func() bool { return s.Info(t, "clients")["blocked_clients"] == "1" })
	if r := c.Do("EVAL", "redis.call('rpush', KEYS[1], 'x') return redis.call('lpop', KEYS[1])", "1", "l"); r.Kind != '$' || r.Str != "x" {
		t.Fatalf("EVAL of RPUSH then LPOP: %s", formatReply(r, false))
	}
	if r := c.Do("EVAL", "redis.call('rpush', KEYS[1], 'y', 'z') return redis.call('llen', KEYS[1])", "1", "l"); r.Kind != ':' || r.Int != 2 {
		t.Fatalf("EVAL of RPUSH y z: %s", formatReply(r, false))
	}
	if got, want := formatReply(blocked.ReadReply(), false), "1) \"l\"\n2) \"y\"\n"; got != want {
		t.Errorf("the blocked client got\n%swant\n%s", got, want)
	}
	if r := c.Do("LRANGE", "l", "0", "-1"); len(r.Elems) != 1 || r.Elems[0].Str != "z" {
		t.Errorf("the list after the wake-up: %s", formatReply(r, false))
	}
}

// TestScriptTouchesWatchedKey: a script's write of a key another client WATCHes makes that
// client's EXEC fail (a null reply); a script that only reads it does not.
func TestScriptTouchesWatchedKey(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	watcher, c := s.RawConn(t), s.RawConn(t)
	for _, tc := range []struct {
		script  string
		aborted bool
	}{
		{"return redis.call('get', 'w')", false},
		{"return redis.call('set', 'w', 'by script')", true},
		{"return redis.call('incr', 'other')", false},
	} {
		expectStatus(t, "WATCH", watcher.Do("WATCH", "w"), "+OK")
		c.Do("EVAL", tc.script, "0")
		expectStatus(t, "MULTI", watcher.Do("MULTI"), "+OK")
		expectStatus(t, "SET queued", watcher.Do("SET", "w", "by exec"), "+QUEUED")
		r := watcher.Do("EXEC")
		if aborted := r.Kind == '_'; aborted != tc.aborted {
			t.Errorf("EXEC after %q: %s (aborted %v, want %v)", tc.script, formatReply(r, false), aborted, tc.aborted)
		}
	}
}
