package setfamily

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/internal/familytest"
	"github.com/kvserver/kvserver/object"
)

// TestEvents: the keyspace events of every writing command, as Redis names them, in Redis's
// order (`new` when a key is made, `del` after the event of the change that emptied it).
func TestEvents(t *testing.T) {
	h := newHarness(t)
	h.Expect(":2\r\n", "SADD", "s", "a", "b")
	h.ExpectEvents("new s, sadd s")
	h.Expect(":0\r\n", "SADD", "s", "a")
	h.ExpectEvents("")
	h.Expect(":1\r\n", "SREM", "s", "a", "zz")
	h.ExpectEvents("srem s")
	h.Expect(":0\r\n", "SREM", "s", "zz")
	h.ExpectEvents("")
	h.Expect(":1\r\n", "SMOVE", "s", "d", "b")
	h.ExpectEvents("srem s, del s, new d, sadd d")
	h.Expect("$1\r\nb\r\n", "SPOP", "d")
	h.ExpectEvents("spop d, del d")
	h.Do("SADD", "x", "1", "2", "3")
	h.Do("SADD", "y", "2", "3", "4")
	h.TakeEvents()
	h.Expect(":2\r\n", "SINTERSTORE", "i", "x", "y")
	h.ExpectEvents("new i, sinterstore i")
	h.Expect(":4\r\n", "SUNIONSTORE", "i", "x", "y")
	h.ExpectEvents("sunionstore i")
	h.Expect(":1\r\n", "SDIFFSTORE", "i", "x", "y")
	h.ExpectEvents("sdiffstore i")
	h.Expect(":0\r\n", "SDIFFSTORE", "i", "x", "x")
	h.ExpectEvents("del i")
	h.Expect(":0\r\n", "SINTERSTORE", "i", "x", "missing")
	h.ExpectEvents("")
	h.Do("SPOP", "x", "2")
	h.ExpectEvents("spop x")
	h.Do("SPOP", "x", "5")
	h.ExpectEvents("spop x, del x")
}

// TestAcrossShards: SMOVE and the STORE forms with every key in its own shard; the destination
// is made in its shard's arena (an invariants build checks that only locked shards are used).
func TestAcrossShards(t *testing.T) {
	h := newHarness(t)
	k := h.KeysInShards("k", 4)
	h.Do("SADD", k[0], "a", "b", "c", "1")
	h.Do("SADD", k[1], "b", "c", "d", "1")
	h.Expect(":1\r\n", "SMOVE", k[0], k[2], "a")
	h.Expect("*1\r\n$1\r\na\r\n", "SMEMBERS", k[2])
	h.Expect(":3\r\n", "SINTERSTORE", k[3], k[0], k[1])
	h.Expect(":3\r\n", "SCARD", k[3])
	h.Expect(":5\r\n", "SUNIONSTORE", k[3], k[0], k[1], k[2])
	h.Expect(":1\r\n", "SDIFFSTORE", k[3], k[1], k[0])
	h.Expect("*1\r\n$1\r\nd\r\n", "SMEMBERS", k[3])
	h.Expect(":1\r\n", "SINTERCARD", "2", k[0], k[1], "LIMIT", "1")
	// A destination that is a source.
	h.Expect(":3\r\n", "SINTERSTORE", k[0], k[0], k[1])
	h.Expect(":1\r\n", "SISMEMBER", k[0], "1")
}

// TestAlgebraEncodings: Redis 7.2's result encodings — SINTERSTORE starts from the smallest
// set's encoding and stores integers as an intset; SUNIONSTORE and SDIFFSTORE start from an
// intset; SDIFF's second algorithm (all added, then removed) keeps a hash table.
func TestAlgebraEncodings(t *testing.T) {
	h := newHarness(t)
	var big, ints []string
	for i := range 130 {
		big = append(big, fmt.Sprintf("m%d", i))
		ints = append(ints, fmt.Sprint(i))
	}
	h.Do(append([]string{"SADD", "big"}, big...)...)
	h.Do(append([]string{"SADD", "bigi"}, append(ints, "x")...)...)
	h.Do("SADD", "small", "m1", "m2")
	h.Do("SADD", "si", "1", "2")
	enc := func(key, want string) {
		t.Helper()
		if got := setEncoding(t, h, key); got != want {
			t.Errorf("%s: encoding %s, want %s", key, got, want)
		}
	}
	enc("big", "hashtable")
	h.Expect(":2\r\n", "SINTERSTORE", "d", "big", "small")
	enc("d", "listpack")
	h.Expect(":2\r\n", "SINTERSTORE", "d", "bigi", "si")
	enc("d", "intset")
	// SDIFF algorithm 1 (one set to subtract): 128 members left, a listpack.
	h.Expect(":128\r\n", "SDIFFSTORE", "d", "big", "small")
	enc("d", "listpack")
	// Algorithm 2 (many small sets): everything added first, so a hash table.
	h.Do("SADD", "t1", "m1")
	h.Do("SADD", "t2", "m2")
	h.Expect(":128\r\n", "SDIFFSTORE", "d", "big", "t1", "t2")
	enc("d", "hashtable")
	h.Expect(":131\r\n", "SUNIONSTORE", "d", "bigi", "si")
	enc("d", "hashtable")
	h.Expect(":2\r\n", "SUNIONSTORE", "d", "si", "missing")
	enc("d", "intset")
	// SUNION of intsets replies sorted integers (an intset underneath).
	h.Do("SADD", "sj", "7", "-1")
	h.Expect("*4\r\n$2\r\n-1\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n7\r\n", "SUNION", "si", "sj")
}

// setEncoding reads a key's encoding through the keyspace (OBJECT is keyfamily's).
func setEncoding(t *testing.T, h *familytest.Harness, key string) string {
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

// TestSscan: MATCH and COUNT, the cursor of a hash-table set, errors in Redis's order.
func TestSscan(t *testing.T) {
	h := newHarness(t)
	var ms []string
	for i := range 300 {
		ms = append(ms, fmt.Sprintf("m%d", i))
	}
	h.Do(append([]string{"SADD", "s"}, ms...)...)
	seen := map[string]bool{}
	cursor := "0"
	for calls := 0; ; calls++ {
		out := h.Do("SSCAN", "s", cursor, "COUNT", "20", "MATCH", "m1*")
		lines := strings.Split(out, "\r\n")
		cursor = lines[2]
		for i := 4; i+1 < len(lines); i += 2 {
			seen[lines[i+1]] = true
		}
		if cursor == "0" {
			break
		}
		if calls > 300 {
			t.Fatal("SSCAN does not end")
		}
	}
	if len(seen) != 111 { // m1, m10..m19, m100..m199
		t.Fatalf("%d members matched", len(seen))
	}
	h.Expect("-ERR invalid cursor\r\n", "SSCAN", "missing", "x")
	h.Expect("*2\r\n$1\r\n0\r\n*0\r\n", "SSCAN", "missing", "0", "COUNT", "0")
	h.Expect("-ERR syntax error\r\n", "SSCAN", "s", "0", "COUNT", "0")
	h.Expect("-ERR syntax error\r\n", "SSCAN", "s", "0", "TYPE", "set")
	h.Expect("-ERR value is not an integer or out of range\r\n", "SSCAN", "s", "0", "COUNT", "x")
}
