package zsetfamily

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/internal/familytest"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/zsetval"
)

// TestBasics: ZADD's flags and replies, ZINCRBY, ZSCORE, ZMSCORE, ZRANK WITHSCORE, ZCARD,
// ZCOUNT, ZLEXCOUNT, ZREM, in RESP2.
func TestBasics(t *testing.T) {
	h := newHarness(t)
	h.Expect(":3\r\n", "ZADD", "z", "1", "a", "2", "b", "3", "c")
	h.Expect(":0\r\n", "ZADD", "z", "NX", "5", "a")
	h.Expect(":1\r\n", "ZADD", "z", "CH", "XX", "5", "a", "9", "new")
	h.Expect("$1\r\n5\r\n", "ZSCORE", "z", "a")
	h.Expect("$-1\r\n", "ZADD", "z", "GT", "INCR", "-1", "a")
	h.Expect("$3\r\n5.5\r\n", "ZADD", "z", "INCR", "0.5", "a")
	h.Expect("$3\r\n0.1\r\n", "ZINCRBY", "z", "0.1", "zero")
	h.Expect("-ERR value is not a valid float\r\n", "ZINCRBY", "z", "x", "a")
	h.Expect("-ERR value is not a valid float\r\n", "ZADD", "z", "1", "a", "x", "b")
	h.Expect("$3\r\ninf\r\n", "ZADD", "z", "INCR", "+inf", "i")
	h.Expect("-ERR resulting score is not a number (NaN)\r\n", "ZADD", "z", "INCR", "-inf", "i")
	h.Expect(":5\r\n", "ZCARD", "z")
	h.Expect(":0\r\n", "ZCARD", "missing")
	h.Expect("*3\r\n$1\r\n2\r\n$-1\r\n$3\r\n0.1\r\n", "ZMSCORE", "z", "b", "nope", "zero")
	h.Expect("*2\r\n$-1\r\n$-1\r\n", "ZMSCORE", "missing", "a", "b")
	h.Expect(":0\r\n", "ZRANK", "z", "zero")
	h.Expect(":4\r\n", "ZREVRANK", "z", "zero")
	h.Expect("*2\r\n:2\r\n$1\r\n3\r\n", "ZRANK", "z", "c", "WITHSCORE")
	h.Expect("*-1\r\n", "ZRANK", "z", "nope", "withscore")
	h.Expect("$-1\r\n", "ZRANK", "missing", "a")
	h.Expect("-ERR syntax error\r\n", "ZRANK", "z", "a", "WITHSCORES")
	h.Expect("-ERR wrong number of arguments for 'zrank' command\r\n", "ZRANK", "z", "a", "WITHSCORE", "x")
	h.Expect(":2\r\n", "ZCOUNT", "z", "(2", "5.5")
	h.Expect("-ERR min or max is not a float\r\n", "ZCOUNT", "z", "x", "1")
	h.Expect(":5\r\n", "ZLEXCOUNT", "z", "-", "+")
	h.Expect("-ERR min or max not valid string range item\r\n", "ZLEXCOUNT", "z", "a", "+")
	h.Expect(":2\r\n", "ZREM", "z", "a", "nope", "b")
	h.Do("SET", "s", "x")
	h.Expect("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", "ZADD", "s", "1", "a")
	h.Expect("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", "ZSCORE", "s", "a")
	// XX on a missing key makes nothing.
	h.Expect(":0\r\n", "ZADD", "nokey", "XX", "1", "a")
	h.Expect(":0\r\n", "ZCARD", "nokey")
}

// TestEvents: the keyspace events of every writing command, as Redis names them and in its
// order (`new` when a key is made, `del` after the event of the change that emptied it).
func TestEvents(t *testing.T) {
	h := newHarness(t)
	h.Expect(":2\r\n", "ZADD", "z", "1", "a", "2", "b")
	h.ExpectEvents("new z, zadd z")
	h.Do("ZADD", "z", "1", "a")
	h.ExpectEvents("")
	h.Do("ZINCRBY", "z", "1", "a")
	h.ExpectEvents("zincr z")
	h.Do("ZADD", "z", "INCR", "1", "a")
	h.ExpectEvents("zincr z")
	h.Do("ZREM", "z", "nope")
	h.ExpectEvents("")
	h.Do("ZADD", "z", "3", "c", "4", "d", "5", "e", "6", "f") // b2 a3 c3 d4 e5 f6
	h.TakeEvents()
	h.Do("ZREMRANGEBYRANK", "z", "0", "0")
	h.ExpectEvents("zremrangebyrank z")
	h.Do("ZREMRANGEBYSCORE", "z", "100", "200")
	h.ExpectEvents("")
	h.Do("ZREMRANGEBYSCORE", "z", "3", "3")
	h.ExpectEvents("zremrangebyscore z")
	h.Do("ZREMRANGEBYLEX", "z", "[d", "[d")
	h.ExpectEvents("zremrangebylex z")
	h.Do("ZPOPMIN", "z")
	h.ExpectEvents("zpopmin z")
	h.Do("ZPOPMAX", "z", "5")
	h.ExpectEvents("zpopmax z, del z")
	h.Do("ZADD", "x", "1", "a", "2", "b")
	h.Do("ZADD", "y", "2", "b", "3", "c")
	h.TakeEvents()
	h.Expect(":3\r\n", "ZUNIONSTORE", "d", "2", "x", "y")
	h.ExpectEvents("new d, zunionstore d")
	h.Expect(":1\r\n", "ZINTERSTORE", "d", "2", "x", "y")
	h.ExpectEvents("zinterstore d")
	h.Expect(":1\r\n", "ZDIFFSTORE", "d", "2", "x", "y")
	h.ExpectEvents("zdiffstore d")
	h.Expect(":2\r\n", "ZRANGESTORE", "d", "x", "0", "-1")
	h.ExpectEvents("zrangestore d")
	h.Expect(":0\r\n", "ZRANGESTORE", "d", "x", "5", "10")
	h.ExpectEvents("del d")
	h.Expect(":0\r\n", "ZDIFFSTORE", "d", "2", "x", "x")
	h.ExpectEvents("")
	h.Do("ZREM", "x", "a", "b")
	h.ExpectEvents("zrem x, del x")
	h.Do("ZMPOP", "2", "x", "y", "MIN", "COUNT", "10")
	h.ExpectEvents("zpopmin y, del y")
}

// TestRanges: the ZRANGE family's replies in both protocols.
func TestRanges(t *testing.T) {
	h := newHarness(t)
	h.Do("ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d")
	h.Expect("*2\r\n$1\r\nb\r\n$1\r\nc\r\n", "ZRANGE", "z", "1", "2")
	h.Expect("*4\r\n$1\r\nd\r\n$1\r\n4\r\n$1\r\nc\r\n$1\r\n3\r\n", "ZREVRANGE", "z", "0", "1", "WITHSCORES")
	h.Expect("*0\r\n", "ZRANGE", "z", "5", "10")
	h.Expect("*0\r\n", "ZRANGE", "missing", "0", "-1")
	h.Expect("*2\r\n$1\r\nb\r\n$1\r\na\r\n", "ZRANGE", "z", "(4", "1", "BYSCORE", "REV", "LIMIT", "1", "2")
	h.Expect("*2\r\n$1\r\nb\r\n$1\r\nc\r\n", "ZRANGEBYSCORE", "z", "(1", "3")
	h.Expect("*1\r\n$1\r\nc\r\n", "ZREVRANGEBYSCORE", "z", "3", "(1", "LIMIT", "0", "1")
	h.Expect("*0\r\n", "ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "-1", "2")
	h.Expect("*0\r\n", "ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "4", "2")
	h.Expect("*3\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n", "ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "1", "-1")
	h.Expect("*2\r\n$1\r\nb\r\n$1\r\nc\r\n", "ZRANGEBYLEX", "z", "(a", "[c")
	h.Expect("*2\r\n$1\r\nd\r\n$1\r\nc\r\n", "ZREVRANGEBYLEX", "z", "+", "[c")
	h.Expect("*2\r\n$1\r\nc\r\n$1\r\nb\r\n", "ZRANGE", "z", "[c", "(a", "BYLEX", "REV")
	h.Expect(":2\r\n", "ZRANGESTORE", "d", "z", "1", "2", "BYSCORE")
	h.Expect("*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n", "ZRANGE", "d", "0", "-1", "WITHSCORES")
	h.W.SetProto(3)
	h.Expect("*2\r\n*2\r\n$1\r\na\r\n,1\r\n*2\r\n$1\r\nb\r\n,2\r\n", "ZRANGE", "z", "0", "1", "WITHSCORES")
	h.Expect("*1\r\n*2\r\n$1\r\nd\r\n,4\r\n", "ZRANGEBYSCORE", "z", "4", "4", "WITHSCORES")
	h.Expect(",2\r\n", "ZSCORE", "z", "b")
	h.Expect("*2\r\n:1\r\n,2\r\n", "ZRANK", "z", "b", "WITHSCORE")
	h.Expect("_\r\n", "ZRANK", "z", "nope", "WITHSCORE")
}

// TestPops: ZPOPMIN/ZPOPMAX, ZMPOP and the blocking forms (which cannot block here: a null
// array) in both protocols.
func TestPops(t *testing.T) {
	h := newHarness(t)
	h.Do("ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d")
	h.Expect("*2\r\n$1\r\na\r\n$1\r\n1\r\n", "ZPOPMIN", "z")
	h.Expect("*4\r\n$1\r\nd\r\n$1\r\n4\r\n$1\r\nc\r\n$1\r\n3\r\n", "ZPOPMAX", "z", "2")
	h.Expect("*0\r\n", "ZPOPMIN", "z", "0")
	h.Expect("*0\r\n", "ZPOPMIN", "missing")
	h.Expect("-ERR value is out of range, must be positive\r\n", "ZPOPMIN", "z", "-1")
	h.Expect("-ERR value is out of range, must be positive\r\n", "ZPOPMIN", "z", "x")
	h.Expect("-ERR syntax error\r\n", "ZPOPMIN", "z", "1", "2")
	h.Expect("*3\r\n$1\r\nz\r\n$1\r\nb\r\n$1\r\n2\r\n", "BZPOPMIN", "missing", "z", "0")
	h.Expect("*-1\r\n", "BZPOPMAX", "z", "missing", "0.01")
	h.Expect("-ERR timeout is negative\r\n", "BZPOPMAX", "z", "-1")
	h.Do("ZADD", "z", "1", "a", "2", "b", "3", "c")
	h.Expect("*2\r\n$1\r\nz\r\n*2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n", "ZMPOP", "2", "missing", "z", "MAX", "COUNT", "2")
	h.Expect("*-1\r\n", "ZMPOP", "1", "missing", "MIN")
	h.Expect("-ERR numkeys should be greater than 0\r\n", "ZMPOP", "0", "z", "MIN")
	h.Expect("-ERR syntax error\r\n", "ZMPOP", "2", "z", "MIN")
	h.Expect("-ERR syntax error\r\n", "ZMPOP", "1", "z", "MID")
	h.Expect("-ERR count should be greater than 0\r\n", "ZMPOP", "1", "z", "MIN", "COUNT", "0")
	h.Expect("-ERR syntax error\r\n", "ZMPOP", "1", "z", "MIN", "COUNT", "1", "COUNT", "1")
	h.Expect("*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n", "BZMPOP", "0", "1", "z", "MIN")
	h.Expect("*-1\r\n", "BZMPOP", "0", "1", "z", "MIN")
	h.Do("ZADD", "z", "1", "a", "2", "b", "3", "c")
	h.W.SetProto(3)
	h.Expect("*2\r\n$1\r\na\r\n,1\r\n", "ZPOPMIN", "z")
	h.Expect("*1\r\n*2\r\n$1\r\nb\r\n,2\r\n", "ZPOPMIN", "z", "1")
	h.Expect("*3\r\n$1\r\nz\r\n$1\r\nc\r\n,3\r\n", "BZPOPMIN", "z", "0")
	h.Expect("_\r\n", "BZPOPMIN", "z", "0")
}

// TestAlgebra: WEIGHTS and AGGREGATE, sets as inputs (score 1), inf-inf sums as 0, the reply
// order (score, then member) and the errors in Redis's order.
func TestAlgebra(t *testing.T) {
	h := newHarness(t)
	h.Do("ZADD", "x", "1", "a", "2", "b", "3", "c")
	h.Do("ZADD", "y", "10", "b", "20", "c", "30", "d")
	h.Do("SADD", "s", "a", "d", "e")
	h.Do("SADD", "si", "1", "2")
	h.Expect("*8\r\n$1\r\na\r\n$1\r\n3\r\n$1\r\nb\r\n$2\r\n16\r\n$1\r\nc\r\n$2\r\n29\r\n$1\r\nd\r\n$2\r\n30\r\n",
		"ZUNION", "2", "x", "y", "WEIGHTS", "3", "1", "WITHSCORES")
	h.Expect("*2\r\n$1\r\nb\r\n$1\r\nc\r\n", "ZINTER", "2", "x", "y")
	h.Expect("*4\r\n$1\r\nb\r\n$1\r\n2\r\n$1\r\nc\r\n$1\r\n3\r\n", "ZINTER", "2", "x", "y", "AGGREGATE", "MIN", "WITHSCORES")
	h.Expect("*2\r\n$1\r\nb\r\n$1\r\nc\r\n", "ZDIFF", "2", "x", "s")
	h.Expect("*2\r\n$1\r\nd\r\n$2\r\n31\r\n", "ZINTER", "2", "s", "y", "AGGREGATE", "SUM", "WITHSCORES", "WEIGHTS", "1", "1")
	h.Expect("*2\r\n$1\r\n1\r\n$1\r\n2\r\n", "ZUNION", "1", "si")
	h.Expect(":2\r\n", "ZINTERCARD", "2", "x", "y")
	h.Expect(":1\r\n", "ZINTERCARD", "2", "x", "y", "LIMIT", "1")
	h.Expect(":0\r\n", "ZINTERCARD", "2", "x", "missing")
	h.Do("ZADD", "p", "+inf", "m")
	h.Do("ZADD", "n", "-inf", "m")
	h.Expect("*2\r\n$1\r\nm\r\n$1\r\n0\r\n", "ZUNION", "2", "p", "n", "WITHSCORES")
	h.Expect("*2\r\n$1\r\nm\r\n$1\r\n0\r\n", "ZUNION", "1", "p", "WEIGHTS", "0", "WITHSCORES")
	h.Do("SET", "str", "v")
	h.Expect("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", "ZUNION", "2", "x", "str", "BAD")
	h.Expect("-ERR syntax error\r\n", "ZUNION", "2", "x", "y", "BAD")
	h.Expect("-ERR at least 1 input key is needed for 'zunionstore' command\r\n", "ZUNIONSTORE", "d", "0", "x")
	h.Expect("-ERR at least 1 input key is needed for 'zinter' command\r\n", "ZINTER", "0", "x")
	// A destination that is a source, and an empty result deleting the destination.
	h.Expect(":4\r\n", "ZUNIONSTORE", "x", "2", "x", "y")
	h.Expect(":0\r\n", "ZINTERSTORE", "x", "2", "x", "missing")
	h.Expect(":0\r\n", "ZCARD", "x")
	h.W.SetProto(3)
	h.Expect("*1\r\n*2\r\n$1\r\nd\r\n,30\r\n", "ZINTER", "2", "y", "s", "WITHSCORES", "WEIGHTS", "1", "0")
}

// TestAcrossShards: STORE forms with every key in its own shard; the destination is made in
// its own shard's arena (an invariants build checks that only locked shards are used).
func TestAcrossShards(t *testing.T) {
	h := newHarness(t)
	k := h.KeysInShards("k", 4)
	h.Do("ZADD", k[0], "1", "a", "2", "b")
	h.Do("ZADD", k[1], "3", "b", "4", "c")
	h.Expect(":3\r\n", "ZUNIONSTORE", k[2], "2", k[0], k[1])
	h.Expect("*3\r\n$1\r\na\r\n$1\r\nc\r\n$1\r\nb\r\n", "ZRANGE", k[2], "0", "-1")
	h.Expect(":1\r\n", "ZINTERSTORE", k[3], "2", k[0], k[1])
	h.Expect(":1\r\n", "ZDIFFSTORE", k[3], "2", k[1], k[0])
	h.Expect(":2\r\n", "ZRANGESTORE", k[3], k[0], "0", "-1")
	h.Expect("*2\r\n$1\r\na\r\n$1\r\nb\r\n", "ZRANGE", k[3], "0", "-1")
}

// TestStoreEncodings: a STORE's result is a listpack within the limits, else a skiplist.
func TestStoreEncodings(t *testing.T) {
	h := newHarness(t)
	args := []string{"ZADD", "big"}
	for i := range 200 {
		args = append(args, fmt.Sprint(i), fmt.Sprintf("m%d", i))
	}
	h.Do(args...)
	h.Expect(":10\r\n", "ZRANGESTORE", "d", "big", "0", "9")
	if got := encodingOf(t, h, "d"); got != "listpack" {
		t.Errorf("10 members: %s", got)
	}
	h.Expect(":200\r\n", "ZUNIONSTORE", "d", "1", "big")
	if got := encodingOf(t, h, "d"); got != "skiplist" {
		t.Errorf("200 members: %s", got)
	}
}

// encodingOf reads a key's encoding through the keyspace (OBJECT is keyfamily's).
func encodingOf(t *testing.T, h *familytest.Harness, key string) string {
	t.Helper()
	sh := h.KS.Shard(h.KS.ShardFor([]byte(key)))
	sh.Lock()
	defer sh.Unlock()
	rec, ok := sh.LookupFlagsLocked(0, []byte(key), 0)
	if !ok {
		t.Fatalf("%s: missing", key)
	}
	return object.EncodingOf(sh.Arena(), rec).Name()
}

// TestRandomAndScan: ZRANDMEMBER's counts and shapes, ZSCAN's member-score pairs.
func TestRandomAndScan(t *testing.T) {
	h := newHarness(t)
	h.Expect("$-1\r\n", "ZRANDMEMBER", "missing")
	h.Expect("*0\r\n", "ZRANDMEMBER", "missing", "5")
	h.Do("ZADD", "z", "1.5", "a")
	h.Expect("$1\r\na\r\n", "ZRANDMEMBER", "z")
	h.Expect("*1\r\n$1\r\na\r\n", "ZRANDMEMBER", "z", "5")
	h.Expect("*3\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n", "ZRANDMEMBER", "z", "-3")
	h.Expect("*2\r\n$1\r\na\r\n$3\r\n1.5\r\n", "ZRANDMEMBER", "z", "1", "WITHSCORES")
	h.Expect("*0\r\n", "ZRANDMEMBER", "z", "0")
	h.Expect("-ERR syntax error\r\n", "ZRANDMEMBER", "z", "1", "WITHSCORE")
	h.Expect("-ERR value is not an integer or out of range\r\n", "ZRANDMEMBER", "z", "x")
	h.Expect("-ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807\r\n", "ZRANDMEMBER", "z", "-9223372036854775808")
	h.Expect("-ERR value is out of range\r\n", "ZRANDMEMBER", "z", "-9223372036854775807", "WITHSCORES")
	h.Expect("*2\r\n$1\r\n0\r\n*2\r\n$1\r\na\r\n$3\r\n1.5\r\n", "ZSCAN", "z", "0")
	h.Expect("*2\r\n$1\r\n0\r\n*0\r\n", "ZSCAN", "z", "0", "MATCH", "b*")
	// A count covering the set answers all of it, highest score first (Redis's iterator).
	h.Do("ZADD", "z", "2", "b", "3", "c")
	h.Expect("*3\r\n$1\r\nc\r\n$1\r\nb\r\n$1\r\na\r\n", "ZRANDMEMBER", "z", "3")
	h.Do("ZREM", "z", "b", "c")
	h.W.SetProto(3)
	h.Expect("*1\r\n*2\r\n$1\r\na\r\n,1.5\r\n", "ZRANDMEMBER", "z", "1", "WITHSCORES")
}

// TestEarlyConversion: Redis 7.2's ZADD converts a listpack before adding when its arguments
// would not fit, even when nothing is added; the stand-in's member leaves no trace.
func TestEarlyConversion(t *testing.T) {
	h := newHarness(t)
	h.Do("ZADD", "z", "1", "a", "2", "b")
	h.Expect(":0\r\n", "ZADD", "z", "XX", "1", "0123456789012345678901234567890123456789012345678901234567890123456789")
	if got := encodingOf(t, h, "z"); got != "skiplist" {
		t.Errorf("long member, XX: %s", got)
	}
	h.Expect("*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n", "ZRANGE", "z", "0", "-1", "WITHSCORES")
	h.ExpectEvents("new z, zadd z")
	args := []string{"ZADD", "y", "1", "a"}
	h.Do(args...)
	for range 129 {
		args = append(args, "1", "a")
	}
	h.Expect(":0\r\n", args...)
	if got := encodingOf(t, h, "y"); got != "skiplist" {
		t.Errorf("129 pairs of one member: %s", got)
	}
	h.Expect(":1\r\n", "ZCARD", "y")
}

// TestRangestoreNegativeZero: ZRANGESTORE adds to its destination one member at a time as
// Redis does; members added while the destination is still a listpack have their -0 stored
// as the integer 0, which the later conversion to a skiplist keeps.
func TestRangestoreNegativeZero(t *testing.T) {
	entries, value := zsetval.Limits()
	zsetval.SetLimits(4, 4)
	defer zsetval.SetLimits(entries, value)
	h := newHarness(t)
	h.Do("ZADD", "src", "-0", "a", "-0", "b", "1", "longmember") // a skiplist at once (7.2)
	h.Expect("*6\r\n$1\r\na\r\n$2\r\n-0\r\n$1\r\nb\r\n$2\r\n-0\r\n$10\r\nlongmember\r\n$1\r\n1\r\n", "ZRANGE", "src", "0", "-1", "WITHSCORES")
	h.Expect(":3\r\n", "ZRANGESTORE", "dst", "src", "0", "-1")
	h.Expect("*6\r\n$1\r\na\r\n$1\r\n0\r\n$1\r\nb\r\n$1\r\n0\r\n$10\r\nlongmember\r\n$1\r\n1\r\n", "ZRANGE", "dst", "0", "-1", "WITHSCORES")
	if got := encodingOf(t, h, "dst"); got != "skiplist" {
		t.Errorf("dst: %s", got)
	}
	// Five members: Redis's destination is a skiplist from the start, and keeps -0.
	h.Do("ZADD", "src", "-0", "c", "-0", "d")
	h.Expect(":5\r\n", "ZRANGESTORE", "dst", "src", "0", "4")
	h.Expect("*4\r\n$1\r\na\r\n$2\r\n-0\r\n$1\r\nb\r\n$2\r\n-0\r\n", "ZRANGE", "dst", "0", "1", "WITHSCORES")
	// Within the limits throughout: a listpack, all 0.
	h.Expect(":4\r\n", "ZRANGESTORE", "dst", "src", "0", "3")
	h.Expect("*4\r\n$1\r\na\r\n$1\r\n0\r\n$1\r\nb\r\n$1\r\n0\r\n", "ZRANGE", "dst", "0", "1", "WITHSCORES")
}
