package tests

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Blocking sorted-set pops (issue 22) end to end: BZPOPMIN, BZPOPMAX and BZMPOP parked on
// empty keys and woken by another client's write — ZADD, ZINCRBY, transactions, the STORE
// commands, RENAME, COPY, RESTORE, MOVE, SWAPDB —, served first blocked first served, timed
// out, unblocked by CLIENT UNBLOCK; inside MULTI they answer at once. Modelled on
// blocking_test.go (its helpers blBlock, blExpect, blDo …) and run against redis-server 7.0.15
// too (KVSERVER_TARGET=redis); where 7.2 differs the test says so. No upper bound on time is
// asserted but blockWait.

// zsetServer starts a server and skips the test when it has no sorted-set commands.
func zsetServer(t *testing.T, args ...string) *server {
	t.Helper()
	s := startServer(t, args...)
	c := s.RawConn(t)
	for _, probe := range [][]string{{"ZADD", "probe:zset", "1", "x"}, {"BZMPOP", "0", "1", "probe:zset", "MIN"}} {
		if r := c.Do(probe...); r.Kind == '-' {
			t.Skipf("%s: %s (issue 22)", probe[0], r.Str)
		}
	}
	c.Do("DEL", "probe:zset")
	c.Close()
	return s
}

// TestZsetBlockingWokenByZadd: each blocking pop, parked on an empty key, is served by another
// client's ZADD of three members; the adder's reply counts all three, the waiter takes the
// lowest (highest) first.
func TestZsetBlockingWokenByZadd(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	cases := []struct {
		cmd  []string
		want string // the blocked client's reply
		rest string // ZRANGE of the key after, WITHSCORES
	}{
		{[]string{"BZPOPMIN", "bz:k", "0"}, "1) \"bz:k\"\n2) \"a\"\n3) \"1\"\n", "1) \"b\"\n2) \"2\"\n3) \"c\"\n4) \"3\"\n"},
		{[]string{"BZPOPMAX", "bz:other", "bz:k", "0"}, "1) \"bz:k\"\n2) \"c\"\n3) \"3\"\n", "1) \"a\"\n2) \"1\"\n3) \"b\"\n4) \"2\"\n"},
		{[]string{"BZMPOP", "0", "2", "bz:other", "bz:k", "MIN", "COUNT", "2"},
			"1) \"bz:k\"\n2) 1) 1) \"a\"\n      2) \"1\"\n   2) 1) \"b\"\n      2) \"2\"\n", "1) \"c\"\n2) \"3\"\n"},
		{[]string{"BZMPOP", "0", "1", "bz:k", "MAX"}, "1) \"bz:k\"\n2) 1) 1) \"c\"\n      2) \"3\"\n", "1) \"a\"\n2) \"1\"\n3) \"b\"\n4) \"2\"\n"},
		{[]string{"BZMPOP", "0", "1", "bz:k", "max", "count", "10"},
			"1) \"bz:k\"\n2) 1) 1) \"c\"\n      2) \"3\"\n   2) 1) \"b\"\n      2) \"2\"\n   3) 1) \"a\"\n      2) \"1\"\n", "(empty array)\n"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.cmd, " "), func(t *testing.T) {
			blDo(t, ctl, "OK\n", "FLUSHALL")
			c := blBlock(t, s, ctl, 0, 0, tc.cmd...)
			blDo(t, ctl, "(integer) 3\n", "ZADD", "bz:k", "3", "c", "1", "a", "2", "b")
			blExpect(t, c, tc.cmd[0], tc.want)
			blWaitBlocked(t, ctl, 0)
			blDo(t, ctl, tc.rest, "ZRANGE", "bz:k", "0", "-1", "WITHSCORES")
			blDo(t, c, "PONG\n", "PING")
		})
	}
}

// TestZsetBlockingFairness: clients blocked on one key are served in the order they blocked:
// one ZADD of three members gives the first blocked the lowest; a BZPOPMAX among BZPOPMINs
// takes the highest at its turn; three ZADDs of one member serve one client each.
func TestZsetBlockingFairness(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)

	var cs []*rawConn
	for i := 0; i < 3; i++ {
		cs = append(cs, blBlock(t, s, ctl, i, 0, "BZPOPMIN", "zf:k", "0"))
	}
	blDo(t, ctl, "(integer) 3\n", "ZADD", "zf:k", "30", "c", "10", "a", "20", "b")
	for i, want := range []string{"a\"\n3) \"10", "b\"\n3) \"20", "c\"\n3) \"30"} {
		blExpect(t, cs[i], "client "+strconv.Itoa(i+1), "1) \"zf:k\"\n2) \""+want+"\"\n")
	}
	blWaitBlocked(t, ctl, 0)
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "zf:k")

	first := blBlock(t, s, ctl, 0, 0, "BZPOPMAX", "zf:k", "0")
	second := blBlock(t, s, ctl, 1, 0, "BZPOPMIN", "zf:k", "0")
	third := blBlock(t, s, ctl, 2, 0, "BZMPOP", "0", "1", "zf:k", "MAX", "COUNT", "5")
	blDo(t, ctl, "(integer) 4\n", "ZADD", "zf:k", "1", "a", "2", "b", "3", "c", "4", "d")
	blExpect(t, first, "BZPOPMAX", "1) \"zf:k\"\n2) \"d\"\n3) \"4\"\n")
	blExpect(t, second, "BZPOPMIN", "1) \"zf:k\"\n2) \"a\"\n3) \"1\"\n")
	blExpect(t, third, "BZMPOP", "1) \"zf:k\"\n2) 1) 1) \"c\"\n      2) \"3\"\n   2) 1) \"b\"\n      2) \"2\"\n")
	blWaitBlocked(t, ctl, 0)
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "zf:k")

	cs = cs[:0]
	for i := 0; i < 3; i++ {
		cs = append(cs, blBlock(t, s, ctl, i, 0, "BZPOPMIN", "zf:k", "0"))
	}
	for i, m := range []string{"x", "y", "z"} {
		blDo(t, ctl, "(integer) 1\n", "ZADD", "zf:k", strconv.Itoa(i), m)
		blExpect(t, cs[i], "client "+strconv.Itoa(i+1), "1) \"zf:k\"\n2) \""+m+"\"\n3) \""+strconv.Itoa(i)+"\"\n")
		blWaitBlocked(t, ctl, 2-i)
	}

	// Two members for three waiters: the third stays blocked until a third member comes.
	for i := 0; i < 3; i++ {
		cs[i] = blBlock(t, s, ctl, i, 0, "BZPOPMAX", "zf:k", "0")
	}
	blDo(t, ctl, "(integer) 2\n", "ZADD", "zf:k", "1", "p", "2", "q")
	blExpect(t, cs[0], "client 1", "1) \"zf:k\"\n2) \"q\"\n3) \"2\"\n")
	blExpect(t, cs[1], "client 2", "1) \"zf:k\"\n2) \"p\"\n3) \"1\"\n")
	cs[2].ExpectNothing(stillBlocked)
	blWaitBlocked(t, ctl, 1)
	blDo(t, ctl, "(integer) 1\n", "ZADD", "zf:k", "5", "r")
	blExpect(t, cs[2], "client 3", "1) \"zf:k\"\n2) \"r\"\n3) \"5\"\n")
}

// TestZsetBlockingSeveralKeys: a client blocked on several keys is served once, by whichever
// gets a member; the server counts its keys while it waits, none after.
func TestZsetBlockingSeveralKeys(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	for _, cmd := range [][]string{
		{"BZPOPMIN", "zm:1", "zm:2", "zm:3", "0"},
		{"BZMPOP", "0", "3", "zm:1", "zm:2", "zm:3", "MIN"},
	} {
		t.Run(cmd[0], func(t *testing.T) {
			blDo(t, ctl, "OK\n", "FLUSHALL")
			c := blBlock(t, s, ctl, 0, 0, cmd...)
			blWaitClients(t, ctl, map[string]string{"blocked_clients": "1", "total_blocking_keys": "3"})
			blDo(t, ctl, "(integer) 1\n", "ZADD", "zm:2", "7", "x")
			want := "1) \"zm:2\"\n2) \"x\"\n3) \"7\"\n"
			if cmd[0] == "BZMPOP" {
				want = "1) \"zm:2\"\n2) 1) 1) \"x\"\n      2) \"7\"\n"
			}
			blExpect(t, c, cmd[0], want)
			blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "total_blocking_keys": "0"})
			blDo(t, ctl, "(integer) 1\n", "ZADD", "zm:1", "1", "y")
			blDo(t, ctl, "(integer) 1\n", "ZCARD", "zm:1")
			c.ExpectNothing(stillBlocked)
		})
	}

	// The same key twice is one wait, served once.
	t.Run("same key twice", func(t *testing.T) {
		blDo(t, ctl, "OK\n", "FLUSHALL")
		c := blBlock(t, s, ctl, 0, 0, "BZPOPMIN", "zm:k", "zm:k", "0")
		blDo(t, ctl, "(integer) 2\n", "ZADD", "zm:k", "1", "a", "2", "b")
		blExpect(t, c, "BZPOPMIN", "1) \"zm:k\"\n2) \"a\"\n3) \"1\"\n")
		blDo(t, ctl, "1) \"b\"\n", "ZRANGE", "zm:k", "0", "-1")
		c.ExpectNothing(stillBlocked)
	})
}

// TestZsetBlockingSeveralKeysReadyTogether: a transaction fills the third then the first of a
// client's keys. Redis 7.2 runs the blocked command again once a key is ready and takes from
// its first non-empty key, zr:1; 7.0.15 serves from the key that became ready first, zr:3.
func TestZsetBlockingSeveralKeysReadyTogether(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	c := blBlock(t, s, ctl, 0, 0, "BZPOPMAX", "zr:1", "zr:2", "zr:3", "0")
	blDo(t, ctl, "OK\n", "MULTI")
	blDo(t, ctl, "QUEUED\n", "ZADD", "zr:3", "3", "z")
	blDo(t, ctl, "QUEUED\n", "ZADD", "zr:1", "1", "a")
	blDo(t, ctl, "1) (integer) 1\n2) (integer) 1\n", "EXEC")
	want, left := "1) \"zr:1\"\n2) \"a\"\n3) \"1\"\n", "zr:3"
	if targetRedis {
		want, left = "1) \"zr:3\"\n2) \"z\"\n3) \"3\"\n", "zr:1"
	}
	blExpect(t, c, "BZPOPMAX", want)
	blDo(t, ctl, "(integer) 1\n", "ZCARD", left)
}

// TestZsetBlockingTimeout: a timeout of 0.1 s answers the null array (RESP2 *-1, RESP3 _), not
// before its time; the key stays missing. Timeout 0 waits until a ZADD.
func TestZsetBlockingTimeout(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	for _, cmd := range [][]string{
		{"BZPOPMIN", "zt:a", "zt:b", "0.1"},
		{"BZPOPMAX", "zt:a", "0.1"},
		{"BZMPOP", "0.1", "2", "zt:a", "zt:b", "MIN"},
		{"BZMPOP", "0.1", "1", "zt:a", "MAX", "COUNT", "3"},
	} {
		for _, proto := range []int{2, 3} {
			t.Run(strings.Join(cmd, " ")+"/RESP"+strconv.Itoa(proto), func(t *testing.T) {
				c := s.RawConn(t)
				want := "*-1\r\n"
				if proto == 3 {
					if r := c.Do("HELLO", "3"); r.Kind != '%' {
						t.Fatalf("HELLO 3: %s", formatReply(r, false))
					}
					want = "_\r\n"
				}
				start := time.Now()
				c.Send(encodeCommand(cmd...))
				blExpectLine(t, c, strings.Join(cmd, " "), want)
				if d := time.Since(start); d < 99*time.Millisecond {
					t.Fatalf("answered after %v, before its 0.1 s", d)
				}
				blDo(t, c, "(integer) 0\n", "EXISTS", "zt:a", "zt:b")
			})
		}
	}

	t.Run("0 waits", func(t *testing.T) {
		c := blBlock(t, s, ctl, 0, 0, "BZPOPMIN", "zt:z", "0")
		c.ExpectNothing(stillBlocked)
		blDo(t, ctl, "(integer) 1\n", "ZADD", "zt:z", "1.5", "v")
		blExpect(t, c, "BZPOPMIN", "1) \"zt:z\"\n2) \"v\"\n3) \"1.5\"\n")
	})
}

// TestZsetBlockingRESP3: a RESP3 client is served with the score as a double: BZPOPMIN a flat
// [key, member, score], BZMPOP [key, [[member, score]…]].
func TestZsetBlockingRESP3(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	for _, tc := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"BZPOPMIN", "z3:k", "0"}, "*3\r\n$4\r\nz3:k\r\n$1\r\na\r\n,1.5\r\n"},
		{[]string{"BZPOPMAX", "z3:k", "0"}, "*3\r\n$4\r\nz3:k\r\n$1\r\nb\r\n,inf\r\n"},
		{[]string{"BZMPOP", "0", "1", "z3:k", "MIN", "COUNT", "2"}, "*2\r\n$4\r\nz3:k\r\n*2\r\n*2\r\n$1\r\na\r\n,1.5\r\n*2\r\n$1\r\nb\r\n,inf\r\n"},
	} {
		t.Run(tc.cmd[0], func(t *testing.T) {
			blDo(t, ctl, "OK\n", "FLUSHALL")
			c := s.RawConn(t)
			if r := c.Do("HELLO", "3"); r.Kind != '%' {
				t.Fatalf("HELLO 3: %s", formatReply(r, false))
			}
			c.Send(encodeCommand(tc.cmd...))
			blWaitBlocked(t, ctl, 1)
			blDo(t, ctl, "(integer) 2\n", "ZADD", "z3:k", "1.5", "a", "inf", "b")
			if got := string(c.ReadN(len(tc.want))); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			blWaitBlocked(t, ctl, 0)
		})
	}
}

// TestZsetBlockingInMulti: inside MULTI the blocking pops do not block: on empty keys they
// answer the null array at once, on a sorted set they pop as their non-blocking forms do.
func TestZsetBlockingInMulti(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	c := s.RawConn(t)
	blDo(t, c, "OK\n", "MULTI")
	cmds := []struct {
		cmd  []string
		want string
	}{
		{[]string{"BZPOPMIN", "zmu:e", "0"}, "*-1\r\n"},
		{[]string{"BZPOPMAX", "zmu:e", "zmu:f", "0"}, "*-1\r\n"},
		{[]string{"BZMPOP", "0", "1", "zmu:e", "MIN"}, "*-1\r\n"},
		{[]string{"ZMPOP", "1", "zmu:e", "MIN"}, "*-1\r\n"},
		{[]string{"ZPOPMIN", "zmu:e"}, "*0\r\n"},
		{[]string{"ZADD", "zmu:e", "1", "a", "2", "b"}, ":2\r\n"},
		{[]string{"BZPOPMAX", "zmu:e", "0"}, "*3\r\n$5\r\nzmu:e\r\n$1\r\nb\r\n$1\r\n2\r\n"},
		{[]string{"BZMPOP", "0", "1", "zmu:e", "MIN", "COUNT", "5"}, "*2\r\n$5\r\nzmu:e\r\n*1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n"},
		{[]string{"BZPOPMIN", "zmu:e", "0"}, "*-1\r\n"},
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
	blDo(t, c, "(integer) 0\n", "EXISTS", "zmu:e")
}

// TestZsetBlockingWakeups: besides ZADD, every write that makes the awaited key a sorted set
// serves the blocked client: ZINCRBY, ZADD INCR, a transaction (served after EXEC, not at the
// queued ZADD), ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE, ZRANGESTORE, RENAME, COPY, RESTORE,
// MOVE, SWAPDB. A transaction that adds and pops again leaves the client blocked.
func TestZsetBlockingWakeups(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	blDo(t, ctl, "OK\n", "FLUSHALL")
	blDo(t, ctl, "(integer) 2\n", "ZADD", "zw:proto", "1", "p", "2", "q")
	dump := ctl.Do("DUMP", "zw:proto")
	src := [][]string{{"ZADD", "zw:src", "5", "m", "6", "n"}}
	cases := []struct {
		name  string
		db    int
		setup [][]string
		wake  [][]string
		want  string
	}{
		{"ZINCRBY", 0, nil, [][]string{{"ZINCRBY", "zw:k", "2.5", "i"}}, "1) \"zw:k\"\n2) \"i\"\n3) \"2.5\"\n"},
		{"ZADD INCR", 0, nil, [][]string{{"ZADD", "zw:k", "INCR", "3", "i"}}, "1) \"zw:k\"\n2) \"i\"\n3) \"3\"\n"},
		{"MULTI", 0, nil, [][]string{{"MULTI"}, {"ZADD", "zw:k", "2", "b"}, {"ZADD", "zw:k", "1", "a"}, {"EXEC"}}, "1) \"zw:k\"\n2) \"a\"\n3) \"1\"\n"},
		{"ZUNIONSTORE", 0, src, [][]string{{"ZUNIONSTORE", "zw:k", "1", "zw:src"}}, "1) \"zw:k\"\n2) \"m\"\n3) \"5\"\n"},
		{"ZINTERSTORE", 0, src, [][]string{{"ZINTERSTORE", "zw:k", "2", "zw:src", "zw:src"}}, "1) \"zw:k\"\n2) \"m\"\n3) \"10\"\n"},
		{"ZDIFFSTORE", 0, src, [][]string{{"ZDIFFSTORE", "zw:k", "1", "zw:src"}}, "1) \"zw:k\"\n2) \"m\"\n3) \"5\"\n"},
		{"ZRANGESTORE", 0, src, [][]string{{"ZRANGESTORE", "zw:k", "zw:src", "1", "1"}}, "1) \"zw:k\"\n2) \"n\"\n3) \"6\"\n"},
		{"RENAME", 0, src, [][]string{{"RENAME", "zw:src", "zw:k"}}, "1) \"zw:k\"\n2) \"m\"\n3) \"5\"\n"},
		{"COPY", 0, nil, [][]string{{"COPY", "zw:proto", "zw:k"}}, "1) \"zw:k\"\n2) \"p\"\n3) \"1\"\n"},
		{"COPY DB", 3, nil, [][]string{{"COPY", "zw:proto", "zw:k", "DB", "3"}}, "1) \"zw:k\"\n2) \"p\"\n3) \"1\"\n"},
		{"RESTORE", 0, nil, [][]string{{"RESTORE", "zw:k", "0", dump.Str}}, "1) \"zw:k\"\n2) \"p\"\n3) \"1\"\n"},
		{"MOVE", 0, [][]string{{"SELECT", "1"}, {"ZADD", "zw:k", "9", "v"}, {"MOVE", "zw:k", "0"}}, nil, "1) \"zw:k\"\n2) \"v\"\n3) \"9\"\n"},
		{"SWAPDB", 0, [][]string{{"SELECT", "1"}, {"ZADD", "zw:k", "8", "s"}, {"SELECT", "0"}}, [][]string{{"SWAPDB", "0", "1"}}, "1) \"zw:k\"\n2) \"s\"\n3) \"8\"\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, db := range []string{"1", "3", "0"} {
				ctl.Do("SELECT", db)
				ctl.Do("DEL", "zw:k", "zw:src")
			}
			if tc.name == "RESTORE" && dump.Kind != '$' {
				// DUMP and RESTORE of sorted sets come with their RDB encoding (issue 22's zrdb
				// part); a server without them skips this case only.
				t.Skipf("DUMP of a sorted set: %s", formatReply(dump, false))
			}
			c := blBlock(t, s, ctl, 0, tc.db, "BZPOPMIN", "zw:k", "0")
			for _, cmd := range append(append([][]string{}, tc.setup...), tc.wake...) {
				if r := ctl.Do(cmd...); r.Kind == '-' {
					t.Fatalf("%s: %s", strings.Join(cmd, " "), r.Str)
				}
			}
			blExpect(t, c, "BZPOPMIN", tc.want)
			blWaitBlocked(t, ctl, 0)
			ctl.Do("SELECT", "0")
		})
	}

	t.Run("MULTI add and pop", func(t *testing.T) {
		blDo(t, ctl, "OK\n", "SELECT", "0")
		c := blBlock(t, s, ctl, 0, 0, "BZPOPMAX", "zw:t", "0")
		blDo(t, ctl, "OK\n", "MULTI")
		blDo(t, ctl, "QUEUED\n", "ZADD", "zw:t", "1", "a")
		blDo(t, ctl, "QUEUED\n", "ZPOPMIN", "zw:t")
		blDo(t, ctl, "1) (integer) 1\n2) 1) \"a\"\n   2) \"1\"\n", "EXEC")
		c.ExpectNothing(stillBlocked)
		blWaitBlocked(t, ctl, 1)
		blDo(t, ctl, "(integer) 1\n", "ZADD", "zw:t", "2", "b")
		blExpect(t, c, "BZPOPMAX", "1) \"zw:t\"\n2) \"b\"\n3) \"2\"\n")
	})
}

// TestZsetBlockingWrongType: a string, a list or a set stored at the awaited key leaves the
// client blocked (only a sorted set serves it). A client waiting on two keys, whose first
// became a string, is woken by a ZADD to the second: Redis 7.2 runs BZPOPMIN again, which meets
// the string first and answers WRONGTYPE; 7.0.15 pops from the key that became ready.
func TestZsetBlockingWrongType(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	c := blBlock(t, s, ctl, 0, 0, "BZPOPMIN", "zwt:k", "0")
	blDo(t, ctl, "OK\n", "SET", "zwt:k", "v")
	blDo(t, ctl, "(integer) 1\n", "DEL", "zwt:k")
	blDo(t, ctl, "(integer) 1\n", "RPUSH", "zwt:k", "x")
	blDo(t, ctl, "(integer) 1\n", "DEL", "zwt:k")
	blDo(t, ctl, "(integer) 1\n", "SADD", "zwt:k", "x")
	c.ExpectNothing(stillBlocked)
	blWaitBlocked(t, ctl, 1)
	blDo(t, ctl, "(integer) 1\n", "DEL", "zwt:k")
	blDo(t, ctl, "(integer) 1\n", "ZADD", "zwt:k", "4", "z")
	blExpect(t, c, "BZPOPMIN", "1) \"zwt:k\"\n2) \"z\"\n3) \"4\"\n")
	blWaitBlocked(t, ctl, 0)

	// Blocking on a key that holds a string answers WRONGTYPE at once.
	blDo(t, ctl, "OK\n", "SET", "zwt:s", "v")
	blDo(t, ctl, "(error) WRONGTYPE Operation against a key holding the wrong kind of value\n", "BZPOPMIN", "zwt:s", "0")
	blDo(t, ctl, "(error) WRONGTYPE Operation against a key holding the wrong kind of value\n", "BZMPOP", "0", "2", "zwt:missing", "zwt:s", "MIN")

	for _, cmd := range [][]string{
		{"BZPOPMIN", "zwt:a", "zwt:b", "0"},
		{"BZMPOP", "0", "2", "zwt:a", "zwt:b", "MAX"},
	} {
		t.Run(cmd[0], func(t *testing.T) {
			ctl.Do("DEL", "zwt:a", "zwt:b")
			c := blBlock(t, s, ctl, 0, 0, cmd...)
			blDo(t, ctl, "OK\n", "SET", "zwt:a", "v")
			c.ExpectNothing(stillBlocked)
			blDo(t, ctl, "(integer) 1\n", "ZADD", "zwt:b", "1", "m")
			want, card := "(error) WRONGTYPE Operation against a key holding the wrong kind of value\n", "(integer) 1\n"
			if targetRedis {
				want, card = "1) \"zwt:b\"\n2) \"m\"\n3) \"1\"\n", "(integer) 0\n"
				if cmd[0] == "BZMPOP" {
					want = "1) \"zwt:b\"\n2) 1) 1) \"m\"\n      2) \"1\"\n"
				}
			}
			blExpect(t, c, cmd[0], want)
			blWaitBlocked(t, ctl, 0)
			blDo(t, ctl, card, "ZCARD", "zwt:b")
			blDo(t, c, "PONG\n", "PING")
		})
	}
}

// TestZsetBlockingClientUnblock: CLIENT UNBLOCK id [TIMEOUT] answers the null array, ERROR
// the UNBLOCKED error; nothing is popped.
func TestZsetBlockingClientUnblock(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)

	c, id := blBlockID(t, s, ctl, 0, "BZPOPMIN", "zu:k", "0")
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "UNBLOCK", id)
	blExpectLine(t, c, "BZPOPMIN after CLIENT UNBLOCK", "*-1\r\n")
	blWaitBlocked(t, ctl, 0)

	c, id = blBlockID(t, s, ctl, 0, "BZMPOP", "0", "2", "zu:k", "zu:j", "MAX", "COUNT", "2")
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "UNBLOCK", id, "TIMEOUT")
	blExpectLine(t, c, "BZMPOP after CLIENT UNBLOCK TIMEOUT", "*-1\r\n")
	blWaitBlocked(t, ctl, 0)

	c, id = blBlockID(t, s, ctl, 0, "BZPOPMAX", "zu:k", "zu:j", "0")
	blDo(t, ctl, "(integer) 1\n", "CLIENT", "UNBLOCK", id, "ERROR")
	blExpect(t, c, "BZPOPMAX after CLIENT UNBLOCK ERROR", "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK\n")
	blWaitClients(t, ctl, map[string]string{"blocked_clients": "0", "total_blocking_keys": "0"})
	blDo(t, c, "PONG\n", "PING")
	blDo(t, ctl, "(integer) 0\n", "CLIENT", "UNBLOCK", id)
	blDo(t, ctl, "(integer) 0\n", "EXISTS", "zu:k", "zu:j")

	// A ZADD after the unblock is left for later readers.
	blDo(t, ctl, "(integer) 1\n", "ZADD", "zu:k", "1", "a")
	blDo(t, ctl, "(integer) 1\n", "ZCARD", "zu:k")
}

// TestZsetBlockingServedBeforeNextCommand: the waiter a ZADD readies is served before the
// adder's next command, even pipelined behind it.
func TestZsetBlockingServedBeforeNextCommand(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	w := blBlock(t, s, ctl, 0, 0, "BZPOPMIN", "zn:k", "0")
	adder := s.RawConn(t)
	adder.Send(append(encodeCommand("ZADD", "zn:k", "1", "a", "2", "b"), encodeCommand("ZRANGE", "zn:k", "0", "-1")...))
	blExpect(t, adder, "ZADD", "(integer) 2\n")
	blExpect(t, adder, "ZRANGE right after the ZADD", "1) \"b\"\n")
	blExpect(t, w, "BZPOPMIN", "1) \"zn:k\"\n2) \"a\"\n3) \"1\"\n")
}

// TestZsetBlockingGoRedis: go-redis's BZPopMin, BZPopMax and BZMPop, each in a goroutine,
// return what another client's ZADD gives them.
func TestZsetBlockingGoRedis(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	ctl := s.RawConn(t)
	ctx := context.Background()
	adder := s.Client(t)
	type result struct {
		val string
		err error
	}
	run := func(name string, call func(c *redis.Client) (string, error), want string) {
		t.Run(name, func(t *testing.T) {
			blDo(t, ctl, "OK\n", "FLUSHALL")
			c := s.Client(t)
			done := make(chan result, 1)
			go func() {
				v, err := call(c)
				done <- result{v, err}
			}()
			blWaitBlocked(t, ctl, 1)
			if err := adder.ZAdd(ctx, "zg:b", redis.Z{Score: 1, Member: "x"}, redis.Z{Score: 2.5, Member: "y"}).Err(); err != nil {
				t.Fatal(err)
			}
			select {
			case r := <-done:
				if r.err != nil || r.val != want {
					t.Fatalf("got %q, %v; want %q", r.val, r.err, want)
				}
			case <-time.After(blockWait):
				t.Fatalf("not served within %v", blockWait)
			}
		})
	}
	run("BZPOPMIN", func(c *redis.Client) (string, error) {
		z, err := c.BZPopMin(ctx, 0, "zg:a", "zg:b").Result()
		if err != nil {
			return "", err
		}
		return z.Key + " " + z.Member.(string) + " " + strconv.FormatFloat(z.Score, 'g', -1, 64), nil
	}, "zg:b x 1")
	run("BZPOPMAX", func(c *redis.Client) (string, error) {
		z, err := c.BZPopMax(ctx, 0, "zg:b").Result()
		if err != nil {
			return "", err
		}
		return z.Key + " " + z.Member.(string) + " " + strconv.FormatFloat(z.Score, 'g', -1, 64), nil
	}, "zg:b y 2.5")
	run("BZMPOP", func(c *redis.Client) (string, error) {
		k, zs, err := c.BZMPop(ctx, 0, "max", 5, "zg:a", "zg:b").Result()
		out := k
		for _, z := range zs {
			out += " " + z.Member.(string) + " " + strconv.FormatFloat(z.Score, 'g', -1, 64)
		}
		return out, err
	}, "zg:b y 2.5 x 1")
}
