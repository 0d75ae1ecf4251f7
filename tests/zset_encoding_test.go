package tests

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// Sorted-set encodings (issue 22): OBJECT ENCODING listpack up to zset-max-listpack-entries
// (128) members of at most zset-max-listpack-value (64) bytes, skiplist past them, at Redis
// 7.2's points (t_zset.c: zsetTypeCreate, zsetTypeMaybeConvert, zsetAdd's conversion,
// zsetConvertToListpackIfNeeded for the STORE results; rdb.c's conversions after a load). The
// tests run on redis-server 7.0.15 too, which follows the same points but for ZADD's early
// conversion (zsetTypeMaybeConvert is 7.2's): that case says so.

// zencConn is a connection with helpers for the encoding tests.
type zencConn struct {
	t *testing.T
	c *rawConn
}

func (z zencConn) do(args ...string) *Reply {
	z.t.Helper()
	r := z.c.Do(args...)
	if r.Kind == '-' {
		z.t.Fatalf("%s: %s", strings.Join(args, " "), r.Str)
	}
	return r
}

// enc checks key's OBJECT ENCODING.
func (z zencConn) enc(key, want, what string) {
	z.t.Helper()
	if got := z.do("OBJECT", "ENCODING", key).Str; got != want {
		z.t.Fatalf("%s: OBJECT ENCODING %s = %s, want %s", what, key, got, want)
	}
}

// members returns ZRANGE key 0 -1 WITHSCORES as "m s m s …".
func (z zencConn) members(key string) string {
	z.t.Helper()
	return strings.Join(replyStrings(z.do("ZRANGE", key, "0", "-1", "WITHSCORES")), " ")
}

// zaddN adds members m0…m(n-1) (as fmt's pattern, with scores i) to key in one ZADD.
func (z zencConn) zaddN(key, pattern string, from, n int) {
	z.t.Helper()
	args := []string{"ZADD", key}
	for i := from; i < from+n; i++ {
		args = append(args, strconv.Itoa(i), fmt.Sprintf(pattern, i))
	}
	z.do(args...)
}

// TestZsetEncodingDefaultLimits: 128 members stay a listpack, the 129th converts (one at a
// time or in one ZADD); a 64-byte member fits, a 65-byte one converts (ZADD, ZINCRBY, ZADD
// INCR, into a new key or an existing one); removals never convert back.
func TestZsetEncodingDefaultLimits(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	z := zencConn{t, s.RawConn(t)}

	for i := 0; i < 128; i++ {
		z.do("ZADD", "ze:one", strconv.Itoa(i), "m"+strconv.Itoa(i))
	}
	z.enc("ze:one", "listpack", "128 members added one at a time")
	z.do("ZADD", "ze:one", "128", "m128")
	z.enc("ze:one", "skiplist", "the 129th member")
	z.do("ZREMRANGEBYRANK", "ze:one", "1", "-1")
	z.enc("ze:one", "skiplist", "one member left by ZREMRANGEBYRANK")
	if got := z.members("ze:one"); got != "m0 0" {
		t.Fatalf("after ZREMRANGEBYRANK: %s", got)
	}

	z.zaddN("ze:128", "m%d", 0, 128)
	z.enc("ze:128", "listpack", "one ZADD of 128 members")
	z.zaddN("ze:129", "m%d", 0, 129)
	z.enc("ze:129", "skiplist", "one ZADD of 129 members")
	if got := z.do("ZCARD", "ze:129").Int; got != 129 {
		t.Fatalf("ZCARD ze:129 = %d", got)
	}

	m64, m65 := strings.Repeat("a", 64), strings.Repeat("b", 65)
	z.do("ZADD", "ze:v", "1", m64)
	z.enc("ze:v", "listpack", "a 64-byte member")
	z.do("ZADD", "ze:v", "2", m65)
	z.enc("ze:v", "skiplist", "a 65-byte member added")
	z.do("ZREM", "ze:v", m65)
	z.enc("ze:v", "skiplist", "the 65-byte member removed")
	for _, cmd := range [][]string{
		{"ZADD", "ze:new1", "1", m65},
		{"ZINCRBY", "ze:new2", "1", m65},
		{"ZADD", "ze:new3", "INCR", "1", m65},
		{"ZADD", "ze:new4", "1", "x", "2", m65},
	} {
		z.do(cmd...)
		z.enc(cmd[1], "skiplist", strings.Join(cmd[:2], " ")+" of a 65-byte member")
	}
	z.do("ZADD", "ze:inc", "1", "x")
	z.do("ZINCRBY", "ze:inc", "1", m65)
	z.enc("ze:inc", "skiplist", "ZINCRBY of a new 65-byte member")

	// Popping everything deletes the key, whatever its encoding.
	z.do("ZPOPMIN", "ze:129", "200")
	if got := z.do("EXISTS", "ze:129").Int; got != 0 {
		t.Fatalf("EXISTS after popping all: %d", got)
	}
}

// TestZsetEncodingConfigLimits: CONFIG SET of both limits (and their zset-max-ziplist-*
// aliases) moves the points for later writes; a set already converted stays as it is.
func TestZsetEncodingConfigLimits(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	z := zencConn{t, s.RawConn(t)}
	for _, names := range [][2]string{
		{"zset-max-listpack-entries", "zset-max-listpack-value"},
		{"zset-max-ziplist-entries", "zset-max-ziplist-value"},
	} {
		z.do("FLUSHALL")
		z.do("CONFIG", "SET", names[0], "10")
		z.do("CONFIG", "SET", names[1], "20")
		z.zaddN("zc:a", "m%d", 0, 10)
		z.enc("zc:a", "listpack", names[0]+" 10, 10 members")
		z.zaddN("zc:a", "m%d", 10, 1)
		z.enc("zc:a", "skiplist", names[0]+" 10, 11 members")
		z.do("ZADD", "zc:b", "1", strings.Repeat("v", 20))
		z.enc("zc:b", "listpack", names[1]+" 20, a 20-byte member")
		z.do("ZADD", "zc:b", "1", strings.Repeat("w", 21))
		z.enc("zc:b", "skiplist", names[1]+" 20, a 21-byte member")

		// Raising the limits leaves existing skiplists alone; new sets use them.
		z.do("CONFIG", "SET", names[0], "128")
		z.do("CONFIG", "SET", names[1], "64")
		z.zaddN("zc:a", "n%d", 100, 1)
		z.enc("zc:a", "skiplist", "an added member under larger limits")
		z.zaddN("zc:c", "m%d", 0, 11)
		z.enc("zc:c", "listpack", "11 members under the default limits")
	}
	// 0 entries: every sorted set is a skiplist.
	z.do("CONFIG", "SET", "zset-max-listpack-entries", "0")
	z.do("ZADD", "zc:zero", "1", "a")
	z.enc("zc:zero", "skiplist", "zset-max-listpack-entries 0")
	z.do("CONFIG", "SET", "zset-max-listpack-entries", "128")
}

// TestZsetEncodingEarlyConversion: Redis 7.2's ZADD converts a listpack before adding when its
// arguments could not fit (more pairs than the entries limit, or a member longer than the value
// limit), even if they add nothing (XX, or repeats); 7.0.15 converts only on an actual add.
func TestZsetEncodingEarlyConversion(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	z := zencConn{t, s.RawConn(t)}
	z.do("CONFIG", "SET", "zset-max-listpack-entries", "4")
	z.do("CONFIG", "SET", "zset-max-listpack-value", "8")
	want := "skiplist"
	if targetRedis {
		want = "listpack"
	}
	z.do("ZADD", "zx:a", "1", "a", "2", "b")
	z.do("ZADD", "zx:a", "XX", "1", "abcdefghij")
	z.enc("zx:a", want, "ZADD XX of a missing 10-byte member")
	z.do("ZADD", "zx:b", "1", "a", "2", "b")
	z.do("ZADD", "zx:b", "1", "a", "2", "b", "1", "a", "2", "b", "1", "a")
	z.enc("zx:b", want, "ZADD of 5 pairs naming 2 present members")
	if got := z.members("zx:b"); got != "a 1 b 2" {
		t.Fatalf("zx:b: %s", got)
	}
}

// TestZsetEncodingStoreResults: the STORE commands build their result by the same points —
// ZUNIONSTORE, ZINTERSTORE and ZDIFFSTORE convert a small result back to a listpack
// (zsetConvertToListpackIfNeeded), ZRANGESTORE makes a skiplist for a rank range longer than
// the limit and a listpack otherwise; a member past the value limit makes a skiplist. COPY
// keeps the source's encoding.
func TestZsetEncodingStoreResults(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	z := zencConn{t, s.RawConn(t)}
	z.zaddN("zs:big", "m%03d", 0, 200)
	z.zaddN("zs:big2", "m%03d", 150, 200)
	z.enc("zs:big", "skiplist", "200 members")
	z.do("ZADD", "zs:small", "1", "m001", "2", "m002")

	for _, tc := range []struct {
		cmd  []string
		want string
		card int64
	}{
		{[]string{"ZUNIONSTORE", "zs:d", "2", "zs:big", "zs:big2"}, "skiplist", 350},
		{[]string{"ZUNIONSTORE", "zs:d", "1", "zs:small"}, "listpack", 2},
		{[]string{"ZINTERSTORE", "zs:d", "2", "zs:big", "zs:big2"}, "listpack", 50},
		{[]string{"ZINTERSTORE", "zs:d", "2", "zs:big", "zs:small"}, "listpack", 2},
		{[]string{"ZDIFFSTORE", "zs:d", "2", "zs:big", "zs:big2"}, "skiplist", 150},
		{[]string{"ZDIFFSTORE", "zs:d", "2", "zs:big2", "zs:big"}, "skiplist", 150},
		{[]string{"ZDIFFSTORE", "zs:d", "2", "zs:big", "zs:small"}, "skiplist", 198},
		{[]string{"ZRANGESTORE", "zs:d", "zs:big", "0", "127"}, "listpack", 128},
		{[]string{"ZRANGESTORE", "zs:d", "zs:big", "0", "128"}, "skiplist", 129},
		{[]string{"ZRANGESTORE", "zs:d", "zs:big", "10", "12"}, "listpack", 3},
		{[]string{"ZRANGESTORE", "zs:d", "zs:big", "(10", "20", "BYSCORE"}, "listpack", 10},
		{[]string{"ZRANGESTORE", "zs:d", "zs:big", "-inf", "+inf", "BYSCORE"}, "skiplist", 200},
		{[]string{"ZRANGESTORE", "zs:d", "zs:big", "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "0", "5"}, "listpack", 5},
	} {
		r := z.do(tc.cmd...)
		if r.Int != tc.card {
			t.Fatalf("%s = %d, want %d", strings.Join(tc.cmd, " "), r.Int, tc.card)
		}
		z.enc("zs:d", tc.want, strings.Join(tc.cmd, " "))
		if got := z.do("ZCARD", "zs:d").Int; got != tc.card {
			t.Fatalf("%s: ZCARD %d, want %d", strings.Join(tc.cmd, " "), got, tc.card)
		}
	}
	// The stored members are the source's, in order, whichever the encoding.
	z.do("ZRANGESTORE", "zs:d", "zs:big", "10", "12")
	if got := z.members("zs:d"); got != "m010 10 m011 11 m012 12" {
		t.Fatalf("ZRANGESTORE 10 12: %s", got)
	}

	long := strings.Repeat("L", 65)
	z.do("ZADD", "zs:long", "1", long, "2", "x")
	z.do("ZUNIONSTORE", "zs:d", "1", "zs:long")
	z.enc("zs:d", "skiplist", "ZUNIONSTORE of a 65-byte member")
	z.do("ZRANGESTORE", "zs:d", "zs:long", "0", "-1")
	z.enc("zs:d", "skiplist", "ZRANGESTORE of a 65-byte member")
	z.do("ZRANGESTORE", "zs:d", "zs:long", "1", "1")
	z.enc("zs:d", "listpack", "ZRANGESTORE of the short member only")

	// A skiplist shrunk to 3 members stays one, and so does its copy.
	z.do("ZREMRANGEBYRANK", "zs:big", "3", "-1")
	z.enc("zs:big", "skiplist", "a skiplist shrunk to 3")
	z.do("COPY", "zs:big", "zs:copy")
	z.enc("zs:copy", "skiplist", "COPY of a 3-member skiplist")
	if got := z.members("zs:copy"); got != "m000 0 m001 1 m002 2" {
		t.Fatalf("COPY: %s", got)
	}
}

// TestZsetEncodingReload: DEBUG RELOAD and DUMP/RESTORE keep every member and score, and
// convert as Redis's loader does: a skiplist small enough is loaded as a listpack, a listpack
// longer than the entries limit as a skiplist (only the count is checked for a listpack: a
// member longer than the value limit stays in it). Skipped on a server whose DUMP has no
// sorted sets yet.
func TestZsetEncodingReload(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	z := zencConn{t, s.RawConn(t)}
	if r := z.c.Do("ZADD", "zr:probe", "1", "a"); r.Kind == '-' {
		t.Fatal(r.Str)
	}
	if r := z.c.Do("DUMP", "zr:probe"); r.Kind != '$' {
		t.Skipf("DUMP of a sorted set: %s", formatReply(r, false))
	}
	z.do("DEL", "zr:probe")

	z.zaddN("zr:big", "member:%010d", 0, 1000)
	z.do("ZADD", "zr:big", "0.5", "half", "-inf", "ninf", "inf", "pinf", "1e-300", "tiny", "-2.25", "neg")
	z.do("ZADD", "zr:small", "1.5", "a", "2", "b", "-3", "c", "inf", "d")
	z.zaddN("zr:shrunk", "s%d", 0, 200)
	z.do("ZREMRANGEBYRANK", "zr:shrunk", "5", "-1")
	z.do("ZADD", "zr:longmember", "1", strings.Repeat("x", 30))
	z.zaddN("zr:ten", "t%d", 0, 10)
	z.enc("zr:big", "skiplist", "1005 members")
	z.enc("zr:shrunk", "skiplist", "shrunk to 5")
	before := map[string]string{}
	keys := []string{"zr:big", "zr:small", "zr:shrunk", "zr:longmember", "zr:ten"}
	for _, k := range keys {
		before[k] = z.members(k)
	}

	// DUMP / RESTORE: the same contents; the shrunk skiplist comes back a listpack.
	for _, k := range keys {
		d := z.do("DUMP", k)
		z.do("RESTORE", k+":r", "0", d.Str)
		if got := z.members(k + ":r"); got != before[k] {
			t.Fatalf("RESTORE of %s: members differ (%d bytes vs %d)", k, len(got), len(before[k]))
		}
	}
	z.enc("zr:big:r", "skiplist", "RESTORE of 1005 members")
	z.enc("zr:shrunk:r", "listpack", "RESTORE of a skiplist shrunk to 5")
	z.enc("zr:small:r", "listpack", "RESTORE of a listpack")

	// DEBUG RELOAD under lowered limits: the 10-member listpack becomes a skiplist (count), the
	// listpack of a 30-byte member stays one (a listpack's member lengths are not checked).
	z.do("CONFIG", "SET", "zset-max-listpack-entries", "8")
	z.do("CONFIG", "SET", "zset-max-listpack-value", "16")
	z.do("DEBUG", "RELOAD")
	for _, k := range keys {
		if got := z.members(k); got != before[k] {
			t.Fatalf("DEBUG RELOAD changed %s", k)
		}
	}
	z.enc("zr:big", "skiplist", "DEBUG RELOAD of 1005 members")
	z.enc("zr:shrunk", "listpack", "DEBUG RELOAD of a skiplist shrunk to 5")
	z.enc("zr:small", "listpack", "DEBUG RELOAD of a 4-member listpack")
	z.enc("zr:ten", "skiplist", "DEBUG RELOAD of a 10-member listpack, entries limit 8")
	z.enc("zr:longmember", "listpack", "DEBUG RELOAD of a listpack of a 30-byte member, value limit 16")
	z.do("CONFIG", "SET", "zset-max-listpack-entries", "128")
	z.do("CONFIG", "SET", "zset-max-listpack-value", "64")

	// Ranks and scores read back exactly after the reload: below member 500 (score 500) are
	// -inf, -2.25, members 0…499, 1e-300 and 0.5.
	if r := z.do("ZRANK", "zr:big", "member:0000000500"); r.Int != 504 {
		t.Fatalf("ZRANK member 500 after reload = %d, want 504", r.Int)
	}
	if r := z.do("ZSCORE", "zr:big", "tiny"); r.Str != "1e-300" {
		t.Fatalf("ZSCORE tiny = %s", r.Str)
	}
}
