package tests

import (
	"strings"
	"testing"
)

// TestNotifyZsetEvents: every sorted-set command raises Redis's events, in Redis's order
// (written from redis-server 7.0.15's, KVSERVER_TARGET=redis): zadd, zincr for ZINCRBY and ZADD
// INCR, zrem, zremrangebyrank/score/lex, zpopmin/zpopmax (once for a count; also for ZMPOP,
// BZPOPMIN/BZPOPMAX and BZMPOP that find a member), then del when the set is emptied;
// zunionstore, zinterstore, zdiffstore and zrangestore on the destination (after `new` when
// they create it, del instead when the result is empty and the destination existed); `new`
// when a write creates the key, keymiss for reads of a missing key, nothing for a failed or
// no-op write.
func TestNotifyZsetEvents(t *testing.T) {
	s := zsetServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	steps := []struct {
		line []any
		want string // events, ";"-separated
	}{
		{[]any{"zadd", "z", "1", "a", "2", "b", "3", "c"}, "new@0 z;zadd@0 z"},
		{[]any{"zadd", "z", "1", "a"}, ""},
		{[]any{"zadd", "z", "5", "a"}, "zadd@0 z"},
		{[]any{"zadd", "z", "nx", "1", "a"}, ""},
		{[]any{"zadd", "z", "xx", "1", "nosuch"}, ""},
		{[]any{"zadd", "z", "xx", "ch", "9", "a"}, "zadd@0 z"},
		{[]any{"zadd", "z", "gt", "1", "a"}, ""},
		{[]any{"zadd", "z", "incr", "1", "a"}, "zincr@0 z"},
		{[]any{"zadd", "z", "nx", "incr", "1", "a"}, ""},
		{[]any{"zadd", "z2", "incr", "1", "a"}, "new@0 z2;zincr@0 z2"},
		{[]any{"zincrby", "z", "2", "b"}, "zincr@0 z"},
		{[]any{"zincrby", "z3", "2", "b"}, "new@0 z3;zincr@0 z3"},
		{[]any{"zincrby", "z", "inf", "x"}, "zincr@0 z"},
		{[]any{"zincrby", "z", "-inf", "x"}, ""},
		{[]any{"zadd", "z", "x", "a"}, ""},
		{[]any{"zrem", "z", "nosuch"}, ""},
		{[]any{"zrem", "z", "a"}, "zrem@0 z"},
		{[]any{"zrem", "nosuch", "a"}, ""},
		{[]any{"zcard", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"zscore", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"zmscore", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"zrank", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"zrevrank", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"zcount", "nosuch", "0", "1"}, "keymiss@0 nosuch"},
		{[]any{"zlexcount", "nosuch", "-", "+"}, "keymiss@0 nosuch"},
		{[]any{"zrange", "nosuch", "0", "-1"}, "keymiss@0 nosuch"},
		{[]any{"zrange", "z", "0", "-1"}, ""},
		{[]any{"zrevrange", "nosuch", "0", "-1"}, "keymiss@0 nosuch"},
		{[]any{"zrangebyscore", "nosuch", "0", "1"}, "keymiss@0 nosuch"},
		{[]any{"zrevrangebyscore", "nosuch", "1", "0"}, "keymiss@0 nosuch"},
		{[]any{"zrangebylex", "nosuch", "-", "+"}, "keymiss@0 nosuch"},
		{[]any{"zrevrangebylex", "nosuch", "+", "-"}, "keymiss@0 nosuch"},
		{[]any{"zrandmember", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"zrandmember", "nosuch", "2"}, "keymiss@0 nosuch"},
		{[]any{"zscan", "nosuch", "0"}, "keymiss@0 nosuch"},
		{[]any{"zunion", "2", "nosuch", "z"}, "keymiss@0 nosuch"},
		{[]any{"zinter", "2", "z", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"zdiff", "2", "nosuch", "z"}, "keymiss@0 nosuch"},
		{[]any{"zintercard", "2", "z", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"zscore", "z", "b"}, ""},
		{[]any{"zadd", "r", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e", "6", "f"}, "new@0 r;zadd@0 r"},
		{[]any{"zremrangebyrank", "r", "0", "0"}, "zremrangebyrank@0 r"},
		{[]any{"zremrangebyrank", "r", "10", "20"}, ""},
		{[]any{"zremrangebyscore", "r", "2", "2"}, "zremrangebyscore@0 r"},
		{[]any{"zremrangebyscore", "r", "100", "200"}, ""},
		{[]any{"zremrangebylex", "r", "[x", "+"}, ""},
		{[]any{"zadd", "rl", "0", "a", "0", "b"}, "new@0 rl;zadd@0 rl"},
		{[]any{"zremrangebylex", "rl", "[a", "[a"}, "zremrangebylex@0 rl"},
		{[]any{"zremrangebylex", "rl", "-", "+"}, "zremrangebylex@0 rl;del@0 rl"},
		{[]any{"zremrangebyrank", "r", "0", "-1"}, "zremrangebyrank@0 r;del@0 r"},
		{[]any{"zadd", "p", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"}, "new@0 p;zadd@0 p"},
		{[]any{"zpopmin", "p"}, "zpopmin@0 p"},
		{[]any{"zpopmax", "p", "2"}, "zpopmax@0 p"},
		{[]any{"zpopmin", "p", "0"}, ""},
		{[]any{"zpopmin", "nosuch"}, ""},
		{[]any{"zmpop", "2", "nosuch", "p", "min"}, "zpopmin@0 p"},
		{[]any{"zmpop", "1", "p", "max", "count", "1"}, "zpopmax@0 p;del@0 p"},
		{[]any{"zadd", "p", "1", "a", "2", "b", "3", "c"}, "new@0 p;zadd@0 p"},
		{[]any{"bzpopmin", "nosuch", "p", "0"}, "zpopmin@0 p"},
		{[]any{"bzpopmax", "p", "0"}, "zpopmax@0 p"},
		{[]any{"zadd", "p", "1", "a"}, "zadd@0 p"},
		{[]any{"bzmpop", "0", "1", "p", "min", "count", "5"}, "zpopmin@0 p;del@0 p"},
		{[]any{"bzmpop", "0.01", "1", "p", "min"}, ""},
		{[]any{"zpopmin", "p"}, ""},
		{[]any{"zadd", "u1", "1", "a", "2", "b"}, "new@0 u1;zadd@0 u1"},
		{[]any{"zadd", "u2", "3", "b", "4", "c"}, "new@0 u2;zadd@0 u2"},
		{[]any{"zunionstore", "dst", "2", "u1", "u2"}, "new@0 dst;zunionstore@0 dst"},
		{[]any{"zunionstore", "dst", "2", "u1", "u2"}, "zunionstore@0 dst"},
		{[]any{"zinterstore", "dst", "2", "u1", "u2"}, "zinterstore@0 dst"},
		{[]any{"zdiffstore", "dst", "2", "u1", "u2"}, "zdiffstore@0 dst"},
		{[]any{"zinterstore", "dst", "2", "u1", "nosuch"}, "keymiss@0 nosuch;del@0 dst"},
		{[]any{"zinterstore", "dst", "2", "u1", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"zunionstore", "dst", "1", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"zdiffstore", "dst", "1", "u1"}, "new@0 dst;zdiffstore@0 dst"},
		{[]any{"zdiffstore", "dst", "2", "u1", "u1"}, "del@0 dst"},
		{[]any{"zrangestore", "dst", "u1", "0", "0"}, "new@0 dst;zrangestore@0 dst"},
		{[]any{"zrangestore", "dst", "u1", "0", "-1", "rev"}, "zrangestore@0 dst"},
		{[]any{"zrangestore", "dst", "u1", "5", "10"}, "del@0 dst"},
		{[]any{"zrangestore", "dst", "u1", "5", "10"}, ""},
		{[]any{"zrangestore", "dst", "nosuch", "0", "-1"}, "keymiss@0 nosuch"},
		{[]any{"zunionstore", "u1", "2", "u1", "u2"}, "zunionstore@0 u1"},
		{[]any{"set", "s", "v"}, "new@0 s;set@0 s"},
		{[]any{"zadd", "s", "1", "a"}, ""},
		{[]any{"zincrby", "s", "1", "a"}, ""},
		{[]any{"zunionstore", "s", "1", "u2"}, "zunionstore@0 s"},
		{[]any{"zrangestore", "s", "u2", "0", "-1"}, "zrangestore@0 s"},
		{[]any{"zunionstore", "dst", "1", "s"}, "new@0 dst;zunionstore@0 dst"},
		{[]any{"set", "s2", "v"}, "new@0 s2;set@0 s2"},
		{[]any{"zunionstore", "dst", "2", "u1", "s2"}, ""},
		{[]any{"zrangestore", "dst", "s2", "0", "-1"}, ""},
		{[]any{"zrem", "s2", "a"}, ""},
		{[]any{"zpopmin", "s2"}, ""},
		{[]any{"zrange", "s2", "0", "-1"}, ""},
		{[]any{"zcard", "dst"}, ""},
		{[]any{"flushdb"}, ""},
	}
	for _, st := range steps {
		got := strings.Join(doMarked(t, c, sub, st.line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line, got, st.want)
		}
	}
}

// TestNotifyZsetServedWaiter: a ZADD that serves a blocked BZPOPMIN raises the add's events
// and then the served pop's, all before the adder's next command runs.
func TestNotifyZsetServedWaiter(t *testing.T) {
	s := zsetServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	ctl := s.RawConn(t)
	w := blBlock(t, s, ctl, 0, 0, "BZPOPMIN", "q", "0")
	if got, want := strings.Join(doMarked(t, c, sub, "zadd", "q", "1", "a"), ";"), "new@0 q;zadd@0 q;zpopmin@0 q;del@0 q"; got != want {
		t.Errorf("ZADD serving a BZPOPMIN:\n got %s\nwant %s", got, want)
	}
	blExpect(t, w, "BZPOPMIN", "1) \"q\"\n2) \"a\"\n3) \"1\"\n")
	w = blBlock(t, s, ctl, 0, 0, "BZMPOP", "0", "1", "q", "MAX", "COUNT", "1")
	if got, want := strings.Join(doMarked(t, c, sub, "zadd", "q", "1", "a", "2", "b"), ";"), "new@0 q;zadd@0 q;zpopmax@0 q"; got != want {
		t.Errorf("ZADD serving a BZMPOP:\n got %s\nwant %s", got, want)
	}
	blExpect(t, w, "BZMPOP", "1) \"q\"\n2) 1) 1) \"b\"\n      2) \"2\"\n")
}

// TestNotifyGeoEvents: the geo commands raise their sorted set's events (written from
// redis-server 7.0.15's): GEOADD is a ZADD (zadd, after `new`), the STORE forms name
// themselves (georadiusstore for GEORADIUS and GEORADIUSBYMEMBER, geosearchstore), an empty
// result deletes the destination; reads of a missing key are keymiss. Skipped on a server
// without GEOADD.
func TestNotifyGeoEvents(t *testing.T) {
	s := zsetServer(t)
	if r := s.RawConn(t).Do("GEOADD"); r.Kind == '-' && strings.HasPrefix(r.Str, "ERR unknown command") {
		t.Skip("GEOADD: " + r.Str)
	}
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	steps := []struct {
		line []any
		want string // events, ";"-separated
	}{
		{[]any{"geoadd", "g", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"}, "new@0 g;zadd@0 g"},
		{[]any{"geoadd", "g", "13.361389", "38.115556", "Palermo"}, ""},
		{[]any{"geoadd", "g", "XX", "1", "1", "Palermo"}, "zadd@0 g"},
		{[]any{"geoadd", "g", "NX", "1", "1", "Palermo"}, ""},
		{[]any{"geoadd", "g", "CH", "13.361389", "38.115556", "Palermo", "2", "2", "Other"}, "zadd@0 g"},
		{[]any{"geoadd", "g", "200", "100", "bad"}, ""},
		{[]any{"geopos", "g", "Palermo"}, ""},
		{[]any{"geopos", "nosuch", "Palermo"}, "keymiss@0 nosuch"},
		{[]any{"geodist", "nosuch", "a", "b"}, "keymiss@0 nosuch"},
		{[]any{"geohash", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"geodist", "g", "Palermo", "Catania"}, ""},
		{[]any{"georadius", "g", "15", "37", "200", "km"}, ""},
		{[]any{"georadius", "nosuch", "15", "37", "200", "km"}, "keymiss@0 nosuch"},
		{[]any{"georadius", "g", "15", "37", "200", "km", "STORE", "dst"}, "new@0 dst;georadiusstore@0 dst"},
		{[]any{"georadius", "g", "15", "37", "200", "km", "STOREDIST", "dst"}, "georadiusstore@0 dst"},
		{[]any{"georadiusbymember", "g", "Palermo", "300", "km", "STORE", "dst"}, "georadiusstore@0 dst"},
		{[]any{"georadius_ro", "g", "15", "37", "200", "km"}, ""},
		{[]any{"georadiusbymember_ro", "nosuch", "Palermo", "100", "km"}, "keymiss@0 nosuch"},
		{[]any{"geosearch", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, ""},
		{[]any{"geosearch", "nosuch", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, "keymiss@0 nosuch"},
		{[]any{"geosearchstore", "dst2", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, "new@0 dst2;geosearchstore@0 dst2"},
		{[]any{"geosearchstore", "dst2", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "STOREDIST"}, "geosearchstore@0 dst2"},
		{[]any{"geosearchstore", "dst2", "g", "FROMLONLAT", "100", "10", "BYRADIUS", "1", "km"}, "del@0 dst2"},
		{[]any{"geosearchstore", "dst2", "g", "FROMLONLAT", "100", "10", "BYRADIUS", "1", "km"}, ""},
		{[]any{"georadius", "g", "100", "10", "1", "km", "STORE", "dst"}, "del@0 dst"},
		{[]any{"geosearchstore", "dst3", "nosuch", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, "keymiss@0 nosuch"},
		{[]any{"geosearchstore", "dst2", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, "new@0 dst2;geosearchstore@0 dst2"},
		{[]any{"geosearchstore", "dst2", "nosuch", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, "keymiss@0 nosuch;del@0 dst2"},
		{[]any{"georadiusbymember", "g", "Palermo", "300", "km", "STORE", "dst"}, "new@0 dst;georadiusstore@0 dst"},
		{[]any{"georadiusbymember", "nosuch", "Palermo", "300", "km", "STORE", "dst"}, "keymiss@0 nosuch;del@0 dst"},
		{[]any{"zrem", "g", "Other"}, "zrem@0 g"},
		{[]any{"flushdb"}, ""},
	}
	for _, st := range steps {
		got := strings.Join(doMarked(t, c, sub, st.line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line, got, st.want)
		}
	}
}
