package tests

import (
	"strings"
	"testing"
)

// TestZsetWatch: a sorted-set command run by another client between WATCH and EXEC aborts the
// transaction exactly when it changed the watched key, as Redis's signalModifiedKey calls say
// (t_zset.c): a ZADD or ZINCRBY that leaves every score as it was, a removal or pop that finds
// nothing, a store whose empty result meets no destination, and every read leave it alone;
// a change of score, a removal, a store (even of the same contents) abort it. Expectations
// written from redis-server 7.0.15.
func TestZsetWatch(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	a, b := s.RawConn(t), s.RawConn(t)
	cases := []struct {
		cmd     []string
		touches bool
	}{
		{[]string{"ZADD", "w", "1", "a"}, true},
		{[]string{"ZADD", "w", "1", "a"}, false},
		{[]string{"ZADD", "w", "2", "a"}, true},
		{[]string{"ZADD", "w", "1", "new"}, true},
		{[]string{"ZADD", "w", "NX", "5", "a"}, false},
		{[]string{"ZADD", "w", "XX", "1", "nosuch"}, false},
		{[]string{"ZADD", "w", "GT", "0", "a"}, false},
		{[]string{"ZADD", "w", "CH", "2", "a", "1", "new"}, false},
		{[]string{"ZADD", "w", "INCR", "0", "a"}, false},
		{[]string{"ZINCRBY", "w", "0", "a"}, false},
		{[]string{"ZINCRBY", "w", "1", "a"}, true},
		{[]string{"ZINCRBY", "w", "inf", "inf"}, true},
		{[]string{"ZINCRBY", "w", "-inf", "inf"}, false}, // NaN: refused
		{[]string{"ZADD", "w", "x", "a"}, false},
		{[]string{"ZREM", "w", "nosuch"}, false},
		{[]string{"ZREM", "w", "inf"}, true},
		{[]string{"ZREMRANGEBYSCORE", "w", "100", "200"}, false},
		{[]string{"ZREMRANGEBYRANK", "w", "50", "60"}, false},
		{[]string{"ZREMRANGEBYLEX", "w", "[x", "[y"}, false},
		{[]string{"ZREMRANGEBYRANK", "w", "0", "0"}, true},
		{[]string{"ZPOPMIN", "w", "0"}, false},
		{[]string{"ZPOPMAX", "w"}, true}, // the last member: deletes w
		{[]string{"ZPOPMAX", "w"}, false},
		{[]string{"ZADD", "w", "1", "a", "2", "b", "3", "c"}, true},
		{[]string{"ZMPOP", "1", "w", "MIN"}, true},
		{[]string{"ZADD", "w", "1", "a", "2", "b", "3", "c"}, true},
		{[]string{"ZRANGE", "w", "0", "-1"}, false},
		{[]string{"ZSCORE", "w", "a"}, false},
		{[]string{"ZUNIONSTORE", "w", "1", "w"}, true},
		{[]string{"ZRANGESTORE", "w", "w", "0", "-1"}, true},
		{[]string{"ZINTERSTORE", "other", "1", "w"}, false},
		{[]string{"ZINTERSTORE", "other", "1", "nosuch"}, false},
		{[]string{"ZRANGESTORE", "other", "w", "10", "20"}, false},
		{[]string{"ZUNIONSTORE", "w", "1", "w", "WEIGHTS", "2"}, true},
		{[]string{"BZPOPMIN", "w", "0"}, true},
		{[]string{"ZDIFFSTORE", "w", "2", "w", "w"}, true}, // empty: deletes w
		{[]string{"ZDIFFSTORE", "w", "2", "w", "w"}, false},
		{[]string{"ZREM", "w", "a"}, false},
		{[]string{"ZADD", "w", "XX", "1", "a"}, false},
		{[]string{"ZADD", "w", "1", "a"}, true},
	}
	for _, tc := range cases {
		name := strings.Join(tc.cmd, " ")
		blDo(t, a, "OK\n", "WATCH", "w")
		if r := b.Do(tc.cmd...); r.Kind == '-' && !strings.Contains(r.Str, "NaN") && !strings.Contains(r.Str, "float") {
			t.Fatalf("%s: %s", name, r.Str)
		}
		blDo(t, a, "OK\n", "MULTI")
		blDo(t, a, "QUEUED\n", "PING")
		want := "1) PONG\n"
		if tc.touches {
			want = "(nil)\n"
		}
		if got := formatReply(a.Do("EXEC"), false); got != want {
			t.Errorf("%s between WATCH and EXEC: EXEC = %q, want %q", name, got, want)
		}
	}
}
