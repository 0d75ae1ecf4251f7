package tests

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Blocking list commands (issue 21) end to end: BLPOP, BRPOP, BLMOVE, BRPOPLPUSH and BLMPOP
// parked on empty keys and woken by another client's write — pushes, transactions, RENAME,
// LMOVE, RESTORE, MOVE, COPY, SWAPDB, SORT … STORE —, served first blocked first served, timed
// out, unblocked by CLIENT UNBLOCK, killed, disconnected; INFO and CLIENT LIST while blocked.
// Every test runs against redis-server 7.0.15 too (KVSERVER_TARGET=redis); where 7.2 differs
// from 7.0.15 the test says so. Nothing asserts an upper bound on time but generous ones
// (blockWait), so a loaded machine does not break them; "still blocked" is checked by a short
// ExpectNothing, which a slow server can only make pass, never fail.

// blockWait bounds how long a test waits for the server to reach a state (a client blocked, a
// client served): far above what any server needs, only there to end a broken test.
const blockWait = 10 * time.Second

// stillBlocked is how long a client that must stay blocked is watched for a reply.
const stillBlocked = 200 * time.Millisecond

// listServer starts a server and skips the test when it has no list commands.
func listServer(t *testing.T, args ...string) *server {
	t.Helper()
	s := startServer(t, args...)
	c := s.RawConn(t)
	if r := c.Do("RPUSH", "probe:list", "x"); r.Kind == '-' {
		t.Skipf("RPUSH: %s (issue 21)", r.Str)
	}
	c.Do("DEL", "probe:list")
	c.Close()
	return s
}

// blWaitClients polls INFO clients on ctl until every field of want has its value, and fails
// the test after blockWait. A field redis-server 7.0.15 lacks (total_blocking_keys and
// total_blocking_keys_on_nokey are 7.2's) is not waited for there; kvserver must have it.
func blWaitClients(t *testing.T, ctl *rawConn, want map[string]string) {
	t.Helper()
	deadline := time.Now().Add(blockWait)
	var last map[string]string
	for {
		last = infoFields(t, ctl, "clients")
		ok := true
		for k, v := range want {
			got, present := last[k]
			if !present && targetRedis && strings.HasPrefix(k, "total_blocking_keys") {
				continue
			}
			ok = ok && got == v
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("INFO clients never reached %v; last: blocked_clients=%q total_blocking_keys=%q total_blocking_keys_on_nokey=%q",
				want, last["blocked_clients"], last["total_blocking_keys"], last["total_blocking_keys_on_nokey"])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// blWaitBlocked waits until n clients are blocked.
func blWaitBlocked(t *testing.T, ctl *rawConn, n int) {
	t.Helper()
	blWaitClients(t, ctl, map[string]string{"blocked_clients": strconv.Itoa(n)})
}

// blBlock opens a connection, selects db, sends a blocking command line without reading its
// reply, and waits until the server counts blocked+1 blocked clients.
func blBlock(t *testing.T, s *server, ctl *rawConn, blocked, db int, args ...string) *rawConn {
	t.Helper()
	c := s.RawConn(t)
	if db != 0 {
		if r := c.Do("SELECT", strconv.Itoa(db)); r.Kind != '+' {
			t.Fatalf("SELECT %d: %s", db, formatReply(r, false))
		}
	}
	c.Send(encodeCommand(args...))
	blWaitBlocked(t, ctl, blocked+1)
	return c
}

// blExpect reads c's next reply and compares it, formatted as redis-cli prints it.
func blExpect(t *testing.T, c *rawConn, what, want string) {
	t.Helper()
	r, err := c.TryReadReply(blockWait)
	if err != nil {
		t.Fatalf("%s: no reply: %v", what, err)
	}
	if got := formatReply(r, false); got != want {
		t.Fatalf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// blExpectLine reads c's next reply line as raw bytes (a null's whole reply: `*-1`, `$-1`, `_`).
func blExpectLine(t *testing.T, c *rawConn, what, want string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(blockWait))
	line, err := c.r.ReadString('\n')
	if err != nil {
		t.Fatalf("%s: no reply: %v (read %q)", what, err, line)
	}
	if line != want {
		t.Fatalf("%s: got %q, want %q", what, line, want)
	}
}

// blDo runs a command on ctl and checks its reply, formatted as redis-cli prints it.
func blDo(t *testing.T, ctl *rawConn, want string, args ...string) {
	t.Helper()
	if got := formatReply(ctl.Do(args...), false); got != want {
		t.Fatalf("%s:\n got %q\nwant %q", strings.Join(args, " "), got, want)
	}
}

// TestBlockingWokenByPush: each blocking command, parked on an empty key, is served by
// another client's RPUSH of three elements; the pusher's reply is the length before any
// waiter took one.
func TestBlockingWokenByPush(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	cases := []struct {
		cmd  []string
		want string // the blocked client's reply
		rest string // LRANGE of the key after
		dst  string // LRANGE of bl:dst after
	}{
		{[]string{"BLPOP", "bl:k", "0"}, "1) \"bl:k\"\n2) \"a\"\n", "1) \"b\"\n2) \"c\"\n", "(empty array)\n"},
		{[]string{"BRPOP", "bl:other", "bl:k", "0"}, "1) \"bl:k\"\n2) \"c\"\n", "1) \"a\"\n2) \"b\"\n", "(empty array)\n"},
		{[]string{"BLMOVE", "bl:k", "bl:dst", "RIGHT", "LEFT", "0"}, "\"c\"\n", "1) \"a\"\n2) \"b\"\n", "1) \"c\"\n"},
		{[]string{"BLMOVE", "bl:k", "bl:dst", "LEFT", "RIGHT", "0"}, "\"a\"\n", "1) \"b\"\n2) \"c\"\n", "1) \"a\"\n"},
		{[]string{"BRPOPLPUSH", "bl:k", "bl:dst", "0"}, "\"c\"\n", "1) \"a\"\n2) \"b\"\n", "1) \"c\"\n"},
		{[]string{"BLMOVE", "bl:k", "bl:k", "RIGHT", "LEFT", "0"}, "\"c\"\n", "1) \"c\"\n2) \"a\"\n3) \"b\"\n", "(empty array)\n"},
		{[]string{"BLMPOP", "0", "2", "bl:other", "bl:k", "LEFT", "COUNT", "2"}, "1) \"bl:k\"\n2) 1) \"a\"\n   2) \"b\"\n", "1) \"c\"\n", "(empty array)\n"},
		{[]string{"BLMPOP", "0", "1", "bl:k", "RIGHT"}, "1) \"bl:k\"\n2) 1) \"c\"\n", "1) \"a\"\n2) \"b\"\n", "(empty array)\n"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.cmd, " "), func(t *testing.T) {
			blDo(t, ctl, "OK\n", "FLUSHALL")
			c := blBlock(t, s, ctl, 0, 0, tc.cmd...)
			blDo(t, ctl, "(integer) 3\n", "RPUSH", "bl:k", "a", "b", "c")
			blExpect(t, c, tc.cmd[0], tc.want)
			blWaitBlocked(t, ctl, 0)
			blDo(t, ctl, tc.rest, "LRANGE", "bl:k", "0", "-1")
			blDo(t, ctl, tc.dst, "LRANGE", "bl:dst", "0", "-1")
			// The connection goes on as usual after being served.
			blDo(t, c, "PONG\n", "PING")
		})
	}
}

// TestBlockingGoRedis: go-redis's blocking calls, each in a goroutine, return what another
// client's push gives them.
func TestBlockingGoRedis(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	ctx := context.Background()
	pusher := s.Client(t)
	type result struct {
		val []string
		err error
	}
	run := func(name string, call func(c *redis.Client) ([]string, error), push []any, want []string) {
		t.Run(name, func(t *testing.T) {
			blDo(t, ctl, "OK\n", "FLUSHALL")
			c := s.Client(t)
			done := make(chan result, 1)
			go func() {
				v, err := call(c)
				done <- result{v, err}
			}()
			blWaitBlocked(t, ctl, 1)
			if err := pusher.Do(ctx, push...).Err(); err != nil {
				t.Fatalf("%v: %v", push, err)
			}
			select {
			case r := <-done:
				if r.err != nil || strings.Join(r.val, ",") != strings.Join(want, ",") {
					t.Fatalf("got %q, %v; want %q", r.val, r.err, want)
				}
			case <-time.After(blockWait):
				t.Fatalf("not served within %v", blockWait)
			}
		})
	}
	run("BLPOP", func(c *redis.Client) ([]string, error) { return c.BLPop(ctx, 0, "g:a", "g:b").Result() },
		[]any{"LPUSH", "g:b", "x", "y"}, []string{"g:b", "y"})
	run("BRPOP", func(c *redis.Client) ([]string, error) { return c.BRPop(ctx, 0, "g:a").Result() },
		[]any{"RPUSH", "g:a", "x", "y"}, []string{"g:a", "y"})
	run("BLMOVE", func(c *redis.Client) ([]string, error) {
		v, err := c.BLMove(ctx, "g:a", "g:b", "LEFT", "LEFT", 0).Result()
		return []string{v}, err
	}, []any{"RPUSH", "g:a", "x", "y"}, []string{"x"})
	run("BRPOPLPUSH", func(c *redis.Client) ([]string, error) {
		v, err := c.BRPopLPush(ctx, "g:a", "g:b", 0).Result()
		return []string{v}, err
	}, []any{"RPUSH", "g:a", "x", "y"}, []string{"y"})
	run("BLMPOP", func(c *redis.Client) ([]string, error) {
		k, v, err := c.BLMPop(ctx, 0, "right", 5, "g:a", "g:b").Result()
		return append([]string{k}, v...), err
	}, []any{"RPUSH", "g:b", "x", "y"}, []string{"g:b", "y", "x"})
}

// TestBlockingFairness: clients blocked on one key are served in the order they blocked,
// whether one LPUSH brings three elements (the first blocked takes the head) or three pushes
// bring one each; a BRPOP among BLPOPs takes from the tail at its turn.
func TestBlockingFairness(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)

	var cs []*rawConn
	for i := 0; i < 3; i++ {
		cs = append(cs, blBlock(t, s, ctl, i, 0, "BLPOP", "f:k", "0"))
	}
	blDo(t, ctl, "(integer) 3\n", "LPUSH", "f:k", "a", "b", "c") // the list is c b a
	for i, want := range []string{"c", "b", "a"} {
		blExpect(t, cs[i], "client "+strconv.Itoa(i+1), "1) \"f:k\"\n2) \""+want+"\"\n")
	}
	blWaitBlocked(t, ctl, 0)
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "f:k")

	cs = cs[:0]
	for i := 0; i < 3; i++ {
		cs = append(cs, blBlock(t, s, ctl, i, 0, "BLPOP", "f:k", "0"))
	}
	for i, v := range []string{"x", "y", "z"} {
		blDo(t, ctl, "(integer) 1\n", "RPUSH", "f:k", v)
		blExpect(t, cs[i], "client "+strconv.Itoa(i+1), "1) \"f:k\"\n2) \""+v+"\"\n")
		blWaitBlocked(t, ctl, 2-i)
	}

	first := blBlock(t, s, ctl, 0, 0, "BRPOP", "f:k", "0")
	second := blBlock(t, s, ctl, 1, 0, "BLPOP", "f:k", "0")
	blDo(t, ctl, "(integer) 3\n", "RPUSH", "f:k", "a", "b", "c")
	blExpect(t, first, "BRPOP", "1) \"f:k\"\n2) \"c\"\n")
	blExpect(t, second, "BLPOP", "1) \"f:k\"\n2) \"a\"\n")
	blDo(t, ctl, "1) \"b\"\n", "LRANGE", "f:k", "0", "-1")
}

// TestBlockingSeveralKeys: a client blocked on several keys is served by whichever gets an
// element, once; its other keys keep theirs; the server then counts no blocked client.
func TestBlockingSeveralKeys(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := blBlock(t, s, ctl, 0, 0, "BLPOP", "m:1", "m:2", "m:3", "0")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "1", "total_blocking_keys": "3"})
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "m:2", "x")
	blExpect(t, c, "BLPOP", "1) \"m:2\"\n2) \"x\"\n")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "total_blocking_keys": "0"})
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "m:1", "y")
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "m:3", "z")
	blDo(t, ctl, "(integer) 1\n", "LLEN", "m:1")
	c.ExpectNothing(stillBlocked)
}

// TestBlockingSeveralKeysReadyTogether: a transaction fills the third then the first of a
// client's keys. Redis 7.2 runs the blocked command again once a key is ready, and BLPOP takes
// from its first non-empty key, m:1; 7.0.15 serves from the key that became ready first, m:3.
func TestBlockingSeveralKeysReadyTogether(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := blBlock(t, s, ctl, 0, 0, "BLPOP", "m:1", "m:2", "m:3", "0")
	blDo(t, ctl, "OK\n", "MULTI")
	blDo(t, ctl, "QUEUED\n", "RPUSH", "m:3", "z")
	blDo(t, ctl, "QUEUED\n", "RPUSH", "m:1", "a")
	blDo(t, ctl, "1) (integer) 1\n2) (integer) 1\n", "EXEC")
	want, left := "1) \"m:1\"\n2) \"a\"\n", "m:3"
	if targetRedis {
		want, left = "1) \"m:3\"\n2) \"z\"\n", "m:1"
	}
	blExpect(t, c, "BLPOP", want)
	blDo(t, ctl, "(integer) 1\n", "LLEN", left)
}

// TestBlockingTimeout: a timeout of 0.1 s answers the null reply — not before 0.1 s (the upper
// bound is only blockWait) —: RESP2's null array *-1 for all five commands, BLMOVE and
// BRPOPLPUSH included (Redis's replyToBlockedClientTimedOut answers every list waiter so, 7.0.15
// and 7.2 alike; only their answer inside MULTI is the null bulk, TestBlockingInMulti); RESP3's
// _. Timeout 0 waits until a push.
func TestBlockingTimeout(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	cases := []struct {
		cmd        []string
		resp2, rs3 string
	}{
		{[]string{"BLPOP", "to:a", "to:b", "0.1"}, "*-1\r\n", "_\r\n"},
		{[]string{"BRPOP", "to:a", "0.1"}, "*-1\r\n", "_\r\n"},
		{[]string{"BLMPOP", "0.1", "1", "to:a", "LEFT"}, "*-1\r\n", "_\r\n"},
		{[]string{"BLMOVE", "to:a", "to:b", "LEFT", "LEFT", "0.1"}, "*-1\r\n", "_\r\n"},
		{[]string{"BRPOPLPUSH", "to:a", "to:b", "0.1"}, "*-1\r\n", "_\r\n"},
	}
	for _, tc := range cases {
		for _, proto := range []int{2, 3} {
			t.Run(tc.cmd[0]+"/RESP"+strconv.Itoa(proto), func(t *testing.T) {
				c := s.RawConn(t)
				want := tc.resp2
				if proto == 3 {
					if r := c.Do("HELLO", "3"); r.Kind != '%' {
						t.Fatalf("HELLO 3: %s", formatReply(r, false))
					}
					want = tc.rs3
				}
				start := time.Now()
				c.Send(encodeCommand(tc.cmd...))
				blExpectLine(t, c, strings.Join(tc.cmd, " "), want)
				// Deadlines are whole milliseconds of the wall clock (Redis's mstime, and
				// kvserver's): one taken at 12.9 ms is due at 112 ms, up to 1 ms early.
				if d := time.Since(start); d < 99*time.Millisecond {
					t.Fatalf("answered after %v, before its 0.1 s", d)
				}
				blDo(t, c, "(integer) 0\n", "EXISTS", "to:a", "to:b")
			})
		}
	}

	t.Run("0 waits", func(t *testing.T) {
		c := blBlock(t, s, ctl, 0, 0, "BLPOP", "to:z", "0")
		c.ExpectNothing(stillBlocked)
		blDo(t, ctl, "(integer) 1\n", "RPUSH", "to:z", "v")
		blExpect(t, c, "BLPOP", "1) \"to:z\"\n2) \"v\"\n")
	})
}

// TestBlockingWakeups: besides pushes, every write that makes the awaited key a list serves
// the blocked client: a transaction, RENAME, LMOVE, RESTORE, MOVE, COPY, SWAPDB, SORT … STORE
// (skipped where the server lacks the command). A transaction that pushes and pops again
// leaves the client blocked.
func TestBlockingWakeups(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	blDo(t, ctl, "OK\n", "FLUSHALL")
	blDo(t, ctl, "(integer) 2\n", "RPUSH", "w:proto", "p", "q")
	dump := ctl.Do("DUMP", "w:proto") // checked by the RESTORE case, so that the others run
	cases := []struct {
		name  string
		db    int // of the blocked client
		setup [][]string
		wake  [][]string // the commands of the waking client, in db 0
		want  string
	}{
		{"MULTI", 0, nil, [][]string{{"MULTI"}, {"LPUSH", "w:k", "a"}, {"RPUSH", "w:k", "b"}, {"EXEC"}}, "1) \"w:k\"\n2) \"a\"\n"},
		{"RENAME", 0, [][]string{{"RPUSH", "w:src", "r"}}, [][]string{{"RENAME", "w:src", "w:k"}}, "1) \"w:k\"\n2) \"r\"\n"},
		{"RENAMENX", 0, [][]string{{"RPUSH", "w:src", "r"}}, [][]string{{"RENAMENX", "w:src", "w:k"}}, "1) \"w:k\"\n2) \"r\"\n"},
		{"LMOVE", 0, [][]string{{"RPUSH", "w:src", "m", "n"}}, [][]string{{"LMOVE", "w:src", "w:k", "RIGHT", "LEFT"}}, "1) \"w:k\"\n2) \"n\"\n"},
		{"RPOPLPUSH", 0, [][]string{{"RPUSH", "w:src", "m", "n"}}, [][]string{{"RPOPLPUSH", "w:src", "w:k"}}, "1) \"w:k\"\n2) \"n\"\n"},
		{"RESTORE", 0, nil, [][]string{{"RESTORE", "w:k", "0", dump.Str}}, "1) \"w:k\"\n2) \"p\"\n"},
		{"MOVE", 0, [][]string{{"SELECT", "1"}, {"RPUSH", "w:k", "v"}, {"MOVE", "w:k", "0"}}, nil, "1) \"w:k\"\n2) \"v\"\n"},
		{"COPY", 0, nil, [][]string{{"COPY", "w:proto", "w:k"}}, "1) \"w:k\"\n2) \"p\"\n"},
		{"COPY DB", 3, nil, [][]string{{"COPY", "w:proto", "w:k", "DB", "3"}}, "1) \"w:k\"\n2) \"p\"\n"},
		{"SWAPDB", 0, [][]string{{"SELECT", "1"}, {"RPUSH", "w:k", "s"}, {"SELECT", "0"}}, [][]string{{"SWAPDB", "0", "1"}}, "1) \"w:k\"\n2) \"s\"\n"},
		{"SORT STORE", 0, [][]string{{"RPUSH", "w:src", "3", "1", "2"}}, [][]string{{"SORT", "w:src", "STORE", "w:k"}}, "1) \"w:k\"\n2) \"1\"\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			blDo(t, ctl, "OK\n", "SELECT", "0")
			for _, db := range []string{"1", "3"} {
				ctl.Do("SELECT", db)
				ctl.Do("FLUSHDB")
			}
			ctl.Do("SELECT", "0")
			ctl.Do("DEL", "w:k", "w:src")
			if tc.name == "RESTORE" && dump.Kind != '$' {
				t.Fatalf("DUMP of a list: %s", formatReply(dump, false))
			}
			if tc.name == "SORT STORE" {
				if r := ctl.Do("SORT"); r.Kind == '-' && strings.HasPrefix(r.Str, "ERR unknown command") {
					t.Skip("the server has no SORT")
				}
			}
			c := blBlock(t, s, ctl, 0, tc.db, "BLPOP", "w:k", "0")
			// The MOVE case's setup is its wake-up: MOVE runs from db 1.
			for _, cmd := range append(append([][]string{}, tc.setup...), tc.wake...) {
				if r := ctl.Do(cmd...); r.Kind == '-' {
					t.Fatalf("%s: %s", strings.Join(cmd, " "), r.Str)
				}
			}
			blExpect(t, c, "BLPOP", tc.want)
			blWaitBlocked(t, ctl, 0)
			ctl.Do("SELECT", "0")
		})
	}

	t.Run("MULTI push and pop", func(t *testing.T) {
		blDo(t, ctl, "OK\n", "SELECT", "0")
		c := blBlock(t, s, ctl, 0, 0, "BLPOP", "w:t", "0")
		blDo(t, ctl, "OK\n", "MULTI")
		blDo(t, ctl, "QUEUED\n", "RPUSH", "w:t", "a")
		blDo(t, ctl, "QUEUED\n", "LPOP", "w:t")
		blDo(t, ctl, "1) (integer) 1\n2) \"a\"\n", "EXEC")
		c.ExpectNothing(stillBlocked)
		blWaitBlocked(t, ctl, 1)
		blDo(t, ctl, "(integer) 1\n", "RPUSH", "w:t", "b")
		blExpect(t, c, "BLPOP", "1) \"w:t\"\n2) \"b\"\n")
	})
}

// TestBlockingWrongTypeDoesNotWake: a string stored at the awaited key leaves the client
// blocked; once the key is deleted and a list pushed there, it is served.
func TestBlockingWrongTypeDoesNotWake(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := blBlock(t, s, ctl, 0, 0, "BLPOP", "wt:k", "0")
	blDo(t, ctl, "OK\n", "SET", "wt:k", "v")
	c.ExpectNothing(stillBlocked)
	blDo(t, ctl, "(integer) 1\n", "HSET", "wt:h", "f", "v")
	blDo(t, ctl, "OK\n", "RENAME", "wt:h", "wt:k")
	c.ExpectNothing(stillBlocked)
	blWaitBlocked(t, ctl, 1)
	blDo(t, ctl, "(integer) 1\n", "DEL", "wt:k")
	blDo(t, ctl, "(integer) 1\n", "LPUSH", "wt:k", "x")
	blExpect(t, c, "BLPOP", "1) \"wt:k\"\n2) \"x\"\n")
}

// blClientID returns the id of c's connection.
func blClientID(t *testing.T, c *rawConn) string {
	t.Helper()
	r := c.Do("CLIENT", "ID")
	if r.Kind != ':' {
		t.Fatalf("CLIENT ID: %s", formatReply(r, false))
	}
	return strconv.FormatInt(r.Int, 10)
}

// blBlockID is blBlock for a connection whose id it returns as well.
func blBlockID(t *testing.T, s *server, ctl *rawConn, blocked int, args ...string) (*rawConn, string) {
	t.Helper()
	c := s.RawConn(t)
	id := blClientID(t, c)
	c.Send(encodeCommand(args...))
	blWaitBlocked(t, ctl, blocked+1)
	return c, id
}

// TestBlockingClientUnblock: CLIENT UNBLOCK id [TIMEOUT] answers the blocked command's timeout
// reply (the null array, for BLMOVE too), ERROR the UNBLOCKED error; both answer 1, and 0 for a
// client that is not blocked or does not exist.
func TestBlockingClientUnblock(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)

	c, id := blBlockID(t, s, ctl, 0, "BLPOP", "u:k", "0")
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "UNBLOCK", id)
	blExpectLine(t, c, "BLPOP after CLIENT UNBLOCK", "*-1\r\n")
	blWaitBlocked(t, ctl, 0)

	c, id = blBlockID(t, s, ctl, 0, "BLMOVE", "u:k", "u:d", "LEFT", "LEFT", "0")
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "UNBLOCK", id, "TIMEOUT")
	blExpectLine(t, c, "BLMOVE after CLIENT UNBLOCK TIMEOUT", "*-1\r\n")

	c, id = blBlockID(t, s, ctl, 0, "BRPOP", "u:k", "u:j", "0")
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "UNBLOCK", id, "error")
	blExpect(t, c, "BRPOP after CLIENT UNBLOCK ERROR", "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK\n")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "total_blocking_keys": "0"})
	blDo(t, c, "PONG\n", "PING")

	blDo(t, ctl, "(integer) 0\n", "CLIENT", "UNBLOCK", id)
	blDo(t, ctl, "(integer) 0\n", "CLIENT", "UNBLOCK", id, "ERROR")
	blDo(t, ctl, "(integer) 0\n", "CLIENT", "UNBLOCK", "999999")
	blDo(t, ctl, "(error) ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\n", "CLIENT", "UNBLOCK", id, "MAYBE")
	// An unblocked client's key stays as it was: nothing was pushed or popped.
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "u:k", "u:d")
}

// TestBlockingClientKill: CLIENT KILL of a blocked client closes its connection and it is no
// longer counted as blocked; a push afterwards stays in the list.
func TestBlockingClientKill(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c, id := blBlockID(t, s, ctl, 0, "BLPOP", "kk:a", "kk:b", "0")
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "KILL", "ID", id)
	if b := c.ReadUntilClose(); len(b) != 0 {
		t.Fatalf("the killed client read %q", b)
	}
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "total_blocking_keys": "0"})
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "kk:a", "x")
	blDo(t, ctl, "(integer) 1\n", "LLEN", "kk:a")
}

// TestBlockingDisconnect: a blocked client that closes its connection is forgotten: INFO's
// blocked_clients and total_blocking_keys go back to 0, and a push afterwards stays in the list.
func TestBlockingDisconnect(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	a := blBlock(t, s, ctl, 0, 0, "BLPOP", "dc:a", "dc:b", "0")
	b := blBlock(t, s, ctl, 1, 0, "BLMOVE", "dc:b", "dc:c", "LEFT", "LEFT", "0")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "2", "total_blocking_keys": "2"})
	a.Close()
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "1", "total_blocking_keys": "1"})
	b.Close()
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "total_blocking_keys": "0"})
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "dc:b", "x")
	blDo(t, ctl, "1) \"x\"\n", "LRANGE", "dc:b", "0", "-1")
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "dc:c")
}

// TestBlockingInfoAndClientList: while clients are blocked INFO counts them
// (blocked_clients), the distinct keys they wait on (total_blocking_keys, 7.2) and those of
// commands that would also wake on the key's deletion (total_blocking_keys_on_nokey: none for
// lists); CLIENT LIST shows a blocked client with flags=b and cmd=blpop, an idle one with N.
func TestBlockingInfoAndClientList(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	a, ida := blBlockID(t, s, ctl, 0, "BLPOP", "in:1", "in:2", "0")
	_, idb := blBlockID(t, s, ctl, 1, "BRPOP", "in:2", "in:3", "0")
	_, idc := blBlockID(t, s, ctl, 2, "BLMOVE", "in:3", "in:x", "LEFT", "LEFT", "0")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "3", "total_blocking_keys": "3", "total_blocking_keys_on_nokey": "0"})
	fields := infoFields(t, ctl, "clients")
	if !targetRedis {
		for _, f := range []string{"total_blocking_keys", "total_blocking_keys_on_nokey"} {
			if _, ok := fields[f]; !ok {
				t.Errorf("INFO clients has no %s", f)
			}
		}
	}
	r := ctl.Do("CLIENT", "LIST")
	if r.Kind != '$' && r.Kind != '=' {
		t.Fatalf("CLIENT LIST: %s", formatReply(r, false))
	}
	wantCmd := map[string]string{ida: "blpop", idb: "brpop", idc: "blmove"}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(r.Str), "\n") {
		f := map[string]string{}
		for _, kv := range strings.Fields(line) {
			if k, v, ok := strings.Cut(kv, "="); ok {
				f[k] = v
			}
		}
		cmd, blocked := wantCmd[f["id"]]
		switch {
		case blocked:
			seen++
			if f["flags"] != "b" || f["cmd"] != cmd {
				t.Errorf("CLIENT LIST of a blocked client: flags=%s cmd=%s, want flags=b cmd=%s\n%s", f["flags"], f["cmd"], cmd, line)
			}
		case f["cmd"] == "client|list":
			if f["flags"] != "N" {
				t.Errorf("CLIENT LIST of the caller: flags=%s, want N\n%s", f["flags"], line)
			}
		}
	}
	if seen != 3 {
		t.Fatalf("CLIENT LIST shows %d of the 3 blocked clients:\n%s", seen, r.Str)
	}
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "in:2", "v")
	blExpect(t, a, "BLPOP", "1) \"in:2\"\n2) \"v\"\n")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "2", "total_blocking_keys": "2"})
}

// TestBlockingPipelined: commands a blocked client pipelined after its BLPOP wait their turn:
// they run, in order, after the BLPOP is served.
func TestBlockingPipelined(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := s.RawConn(t)
	var req []byte
	for _, cmd := range [][]string{{"BLPOP", "pl:k", "0"}, {"PING"}, {"LLEN", "pl:k"}, {"RPUSH", "pl:k", "mine"}, {"ECHO", "done"}} {
		req = append(req, encodeCommand(cmd...)...)
	}
	c.Send(req)
	blWaitBlocked(t, ctl, 1)
	c.ExpectNothing(stillBlocked)
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "pl:k") // the RPUSH behind the BLPOP has not run
	blDo(t, ctl, "(integer) 2\n", "RPUSH", "pl:k", "a", "b")
	blExpect(t, c, "BLPOP", "1) \"pl:k\"\n2) \"a\"\n")
	blExpect(t, c, "PING", "PONG\n")
	blExpect(t, c, "LLEN", "(integer) 1\n")
	blExpect(t, c, "RPUSH", "(integer) 2\n")
	blExpect(t, c, "ECHO", "\"done\"\n")
	blDo(t, ctl, "1) \"b\"\n2) \"mine\"\n", "LRANGE", "pl:k", "0", "-1")
}

// TestBlockingRESP3: a RESP3 client's BLPOP is served with an array and times out with `_`;
// BLMPOP's reply is [key, [elements]].
func TestBlockingRESP3(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := s.RawConn(t)
	if r := c.Do("HELLO", "3"); r.Kind != '%' {
		t.Fatalf("HELLO 3: %s", formatReply(r, false))
	}
	c.Send(encodeCommand("BLPOP", "r3:k", "0.05"))
	blExpectLine(t, c, "BLPOP timing out", "_\r\n")
	c.Send(encodeCommand("BLMPOP", "0", "1", "r3:k", "RIGHT", "COUNT", "2"))
	blWaitBlocked(t, ctl, 1)
	blDo(t, ctl, "(integer) 3\n", "RPUSH", "r3:k", "a", "b", "c")
	blExpect(t, c, "BLMPOP", "1) \"r3:k\"\n2) 1) \"c\"\n   2) \"b\"\n")
}

// TestBlockingChainedMove: a BLMOVE served by a push moves its element into a key another
// client waits on, which is served in turn; so does a chain of two BLMOVEs.
func TestBlockingChainedMove(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	mover := blBlock(t, s, ctl, 0, 0, "BLMOVE", "ch:src", "ch:mid", "RIGHT", "LEFT", "0")
	mover2 := blBlock(t, s, ctl, 1, 0, "BRPOPLPUSH", "ch:mid", "ch:dst", "0")
	popper := blBlock(t, s, ctl, 2, 0, "BLPOP", "ch:dst", "0")
	blDo(t, ctl, "(integer) 2\n", "RPUSH", "ch:src", "a", "b")
	blExpect(t, mover, "BLMOVE", "\"b\"\n")
	blExpect(t, mover2, "BRPOPLPUSH", "\"b\"\n")
	blExpect(t, popper, "BLPOP", "1) \"ch:dst\"\n2) \"b\"\n")
	blWaitBlocked(t, ctl, 0)
	blDo(t, ctl, "1) \"a\"\n", "LRANGE", "ch:src", "0", "-1")
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "ch:mid", "ch:dst")
}

// TestBlockingInMulti: inside MULTI the blocking commands do not block; on empty keys they
// answer as their non-blocking forms do, in RESP2's bytes: BLPOP, BRPOP and BLMPOP the null
// array (as LPOP with a count and LMPOP), BLMOVE and BRPOPLPUSH the null bulk (as LMOVE, RPOPLPUSH
// and LPOP without a count) — t_list.c's deny-blocking branches, addReplyNullArray and
// addReplyNull.
func TestBlockingInMulti(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	c := s.RawConn(t)
	blDo(t, c, "OK\n", "MULTI")
	cmds := []struct {
		cmd  []string
		want string
	}{
		{[]string{"BLPOP", "mu:e", "0"}, "*-1\r\n"},
		{[]string{"BLMOVE", "mu:e", "mu:f", "LEFT", "LEFT", "0"}, "$-1\r\n"},
		{[]string{"BRPOPLPUSH", "mu:e", "mu:f", "0"}, "$-1\r\n"},
		{[]string{"BLMPOP", "0", "1", "mu:e", "LEFT"}, "*-1\r\n"},
		{[]string{"BRPOP", "mu:e", "0"}, "*-1\r\n"},
		{[]string{"LPOP", "mu:e"}, "$-1\r\n"},
		{[]string{"RPOP", "mu:e", "1"}, "*-1\r\n"},
		{[]string{"LMPOP", "1", "mu:e", "LEFT"}, "*-1\r\n"},
		{[]string{"LMOVE", "mu:e", "mu:f", "LEFT", "LEFT"}, "$-1\r\n"},
		{[]string{"RPOPLPUSH", "mu:e", "mu:f"}, "$-1\r\n"},
		{[]string{"LINDEX", "mu:e", "0"}, "$-1\r\n"},
		{[]string{"LPOS", "mu:e", "x"}, "$-1\r\n"},
		{[]string{"LPOS", "mu:e", "x", "COUNT", "1"}, "*0\r\n"},
	}
	want := "*" + strconv.Itoa(len(cmds)) + "\r\n"
	for _, tc := range cmds {
		blDo(t, c, "QUEUED\n", tc.cmd...)
		want += tc.want
	}
	c.Send(encodeCommand("EXEC"))
	if got := string(c.ReadN(len(want))); got != want {
		t.Fatalf("EXEC: got %q, want %q", got, want)
	}
	blDo(t, c, "PONG\n", "PING")
}

// TestBlockingServedBeforeNextCommand: the waiters a push readies are served before the
// pusher's next command runs, even pipelined behind the push: LLEN sees the list already
// emptied by the waiter (Redis handles ready keys right after each command).
func TestBlockingServedBeforeNextCommand(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	w := blBlock(t, s, ctl, 0, 0, "BLPOP", "nx:k", "0")
	pusher := s.RawConn(t)
	pusher.Send(append(encodeCommand("RPUSH", "nx:k", "a", "b"), encodeCommand("LRANGE", "nx:k", "0", "-1")...))
	blExpect(t, pusher, "RPUSH", "(integer) 2\n")
	blExpect(t, pusher, "LRANGE right after the RPUSH", "1) \"b\"\n")
	blExpect(t, w, "BLPOP", "1) \"nx:k\"\n2) \"a\"\n")
}

// TestBlockingPerDatabase: a client waits on a key of its own database: a push to the same
// name in another database, and FLUSHALL, leave it blocked; a push in its database serves it.
func TestBlockingPerDatabase(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := blBlock(t, s, ctl, 0, 2, "BLPOP", "db:k", "0")
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "db:k", "zero")
	c.ExpectNothing(stillBlocked)
	blDo(t, ctl, "OK\n", "FLUSHALL")
	c.ExpectNothing(stillBlocked)
	blWaitBlocked(t, ctl, 1)
	blDo(t, ctl, "OK\n", "SELECT", "2")
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "db:k", "two")
	blExpect(t, c, "BLPOP", "1) \"db:k\"\n2) \"two\"\n")
}

// TestBlockingServedThenNoTimeout: a client served before its timeout gets no second reply when
// the timeout's time comes, nor does one unblocked by CLIENT UNBLOCK.
func TestBlockingServedThenNoTimeout(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c, id := blBlockID(t, s, ctl, 0, "BLPOP", "st:k", "0.2")
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "st:k", "v")
	blExpect(t, c, "BLPOP", "1) \"st:k\"\n2) \"v\"\n")
	c.ExpectNothing(400 * time.Millisecond)
	blDo(t, c, "PONG\n", "PING")

	c.Send(encodeCommand("BRPOP", "st:k", "0.2"))
	blWaitBlocked(t, ctl, 1)
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "UNBLOCK", id, "ERROR")
	blExpect(t, c, "BRPOP", "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK\n")
	c.ExpectNothing(400 * time.Millisecond)
	blDo(t, c, "PONG\n", "PING")
}

// TestBlockingMoveWrongDestination: a BLMOVE whose destination became a string meanwhile is
// answered WRONGTYPE when its source gets an element, and the element stays in the source.
func TestBlockingMoveWrongDestination(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := blBlock(t, s, ctl, 0, 0, "BLMOVE", "wd:src", "wd:dst", "LEFT", "LEFT", "0")
	blDo(t, ctl, "OK\n", "SET", "wd:dst", "v")
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "wd:src", "x")
	blExpect(t, c, "BLMOVE", "(error) "+wrongTypeErr+"\n")
	blWaitBlocked(t, ctl, 0)
	blDo(t, ctl, "1) \"x\"\n", "LRANGE", "wd:src", "0", "-1")
	blDo(t, ctl, "\"v\"\n", "GET", "wd:dst")
}

// TestBlockingFewerElementsThanWaiters: a push of two elements serves the first two of three
// waiters; the third stays blocked until the next push.
func TestBlockingFewerElementsThanWaiters(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	var cs []*rawConn
	for i := 0; i < 3; i++ {
		cs = append(cs, blBlock(t, s, ctl, i, 0, "BRPOP", "fe:k", "0"))
	}
	blDo(t, ctl, "(integer) 2\n", "RPUSH", "fe:k", "a", "b")
	blExpect(t, cs[0], "first BRPOP", "1) \"fe:k\"\n2) \"b\"\n")
	blExpect(t, cs[1], "second BRPOP", "1) \"fe:k\"\n2) \"a\"\n")
	cs[2].ExpectNothing(stillBlocked)
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "1", "total_blocking_keys": "1"})
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "fe:k")
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "fe:k", "c")
	blExpect(t, cs[2], "third BRPOP", "1) \"fe:k\"\n2) \"c\"\n")
}

// TestBlockingServedOnce: one transaction readies two keys; a client waiting on both is served
// once (from the first), and the other client waiting on the second key gets its element.
func TestBlockingServedOnce(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	a := blBlock(t, s, ctl, 0, 0, "BLPOP", "so:1", "so:2", "0")
	b := blBlock(t, s, ctl, 1, 0, "BLPOP", "so:2", "0")
	blDo(t, ctl, "OK\n", "MULTI")
	blDo(t, ctl, "QUEUED\n", "RPUSH", "so:1", "a")
	blDo(t, ctl, "QUEUED\n", "RPUSH", "so:2", "b")
	blDo(t, ctl, "1) (integer) 1\n2) (integer) 1\n", "EXEC")
	blExpect(t, a, "BLPOP so:1 so:2", "1) \"so:1\"\n2) \"a\"\n")
	blExpect(t, b, "BLPOP so:2", "1) \"so:2\"\n2) \"b\"\n")
	blWaitBlocked(t, ctl, 0)
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "so:1", "so:2")
	a.ExpectNothing(stillBlocked)
}

// TestBlockingKeysPerDatabase: total_blocking_keys counts a key name once per database it is
// waited on in (7.2: the size of each database's blocking_keys, summed).
func TestBlockingKeysPerDatabase(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	blBlock(t, s, ctl, 0, 0, "BLPOP", "kd:k", "0")
	blBlock(t, s, ctl, 1, 1, "BLPOP", "kd:k", "0")
	blBlock(t, s, ctl, 2, 1, "BLPOP", "kd:k", "kd:j", "0")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "3", "total_blocking_keys": "3"})
}

// TestBlockingManyTimeouts: twenty clients with timeouts from 0.01 to 0.2 s all answer the
// null array; while they wait, clients_in_timeout_table counts those with a timeout (not the
// one waiting forever), and afterwards no client is blocked.
func TestBlockingManyTimeouts(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	forever := blBlock(t, s, ctl, 0, 0, "BLPOP", "mt:k", "0")
	var cs []*rawConn
	for i := 1; i <= 20; i++ {
		c := s.RawConn(t)
		c.Send(encodeCommand("BRPOP", "mt:k", "mt:"+strconv.Itoa(i), strconv.FormatFloat(float64(i)/100, 'f', 2, 64)))
		cs = append(cs, c)
	}
	for i, c := range cs {
		blExpectLine(t, c, "BRPOP with timeout 0."+strconv.Itoa(i+1), "*-1\r\n")
	}
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "1", "total_blocking_keys": "1", "clients_in_timeout_table": "0"})
	c := blBlock(t, s, ctl, 1, 0, "BLPOP", "mt:k", "100")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "2", "clients_in_timeout_table": "1"})
	blDo(t, ctl, "(integer) 2\n", "RPUSH", "mt:k", "a", "b")
	blExpect(t, forever, "BLPOP 0", "1) \"mt:k\"\n2) \"a\"\n")
	blExpect(t, c, "BLPOP 100", "1) \"mt:k\"\n2) \"b\"\n")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "clients_in_timeout_table": "0"})
}

// TestBlockingManyKeys: a BLPOP on a thousand keys is registered on each (total_blocking_keys)
// and served by a push to the last one; the registrations all go.
func TestBlockingManyKeys(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	args := []string{"BLPOP"}
	for i := 0; i < 1000; i++ {
		args = append(args, "mk:"+strconv.Itoa(i))
	}
	c := blBlock(t, s, ctl, 0, 0, append(args, "0")...)
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "1", "total_blocking_keys": "1000"})
	blDo(t, ctl, "(integer) 1\n", "LPUSH", "mk:999", "v")
	blExpect(t, c, "BLPOP", "1) \"mk:999\"\n2) \"v\"\n")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "total_blocking_keys": "0"})
}

// TestBlockingQuitPipelined: a QUIT pipelined behind a BLPOP runs after it is served: the
// client reads the BLPOP's reply, then +OK, then the server closes the connection.
func TestBlockingQuitPipelined(t *testing.T) {
	t.Parallel()
	s := listServer(t)
	ctl := s.RawConn(t)
	c := s.RawConn(t)
	c.Send(append(encodeCommand("BLPOP", "qp:k", "0"), encodeCommand("QUIT")...))
	blWaitBlocked(t, ctl, 1)
	c.ExpectNothing(stillBlocked)
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "qp:k", "v")
	want := "*2\r\n$4\r\nqp:k\r\n$1\r\nv\r\n+OK\r\n"
	if got := string(c.ReadUntilClose()); got != want {
		t.Fatalf("after the push: read %q, want %q", got, want)
	}
}
