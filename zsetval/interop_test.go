package zsetval

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/internal/redisref"
	"github.com/kvserver/kvserver/object"
)

// TestRedisListpackBytes runs ZADD, ZINCRBY and ZREM on redis-server and on Add/Remove and
// compares the DUMP blob (RDB type 17, the listpack as is) with ListpackBytes: the order of
// pairs, integer members and scores as integer entries, other scores as text. The scores avoid
// those whose text differs between the reference 7.0.15 (%.17g, integers only below 2^52) and
// 7.2 (shortest round trip, integers up to 2^62).
func TestRedisListpackBytes(t *testing.T) {
	rc := redisref.Start(t)
	scores := []string{"1.5", "0", "-0", "1", "-1", "127", "128", "-4096", "4096", "70000",
		"-8388609", "2147483648", "4503599627370495", "-4503599627370495", "2.25", "-3.75",
		"1e20", "inf", "-inf", "0.5", "123456.75"}
	cases := map[string][]string{}
	for i, s := range scores {
		cases["scores"] = append(cases["scores"], fmt.Sprintf("ZADD z %s m%d", s, i))
	}
	cases["one"] = []string{"ZADD z 1.5 a"}
	cases["ties by member"] = []string{"ZADD z 1 b 1 a 1 c 1 10 1 9 1 -5 1 aa 1 '' 0 z 2 y"}
	cases["updates"] = []string{"ZADD z 1 a 2 b 3 c 4 d", "ZADD z 10 a", "ZINCRBY z 0.5 c",
		"ZREM z b", "ZADD z -7 e", "ZINCRBY z -2.5 c", "ZADD z 4 a"}
	var many []string
	for i := 0; i < 128; i++ {
		many = append(many, fmt.Sprintf("ZADD z %d m:%d", (i*37)%50, i))
	}
	cases["128 members"] = many
	for name, cmds := range cases {
		t.Run(name, func(t *testing.T) {
			rc.Do("DEL", "z")
			a := newArena(t)
			rec, err := New(a, []byte("z"), 0, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range cmds {
				args := splitWords(line)
				if r, ok := rc.Do(args...).(error); ok {
					t.Fatalf("%s: %v", line, r)
				}
				switch args[0] {
				case "ZADD":
					for i := 2; i < len(args); i += 2 {
						s, ok := ParseScore([]byte(args[i]))
						if !ok {
							t.Fatal(args[i])
						}
						if _, _, err := Add(a, rec, []byte(args[i+1]), s, 0); err != nil {
							t.Fatal(err)
						}
					}
				case "ZINCRBY":
					s, _ := ParseScore([]byte(args[2]))
					Add(a, rec, []byte(args[3]), s, AddIncr)
				case "ZREM":
					Remove(a, rec, []byte(args[2]))
				}
			}
			mustCheck(t, a, rec)
			typ, blob := rc.DumpBlob("z")
			if typ != 17 {
				t.Fatalf("DUMP type %d, want 17 (zset listpack)", typ)
			}
			if ours := ListpackBytes(a, rec); !bytes.Equal(ours, blob) {
				t.Fatalf("bytes differ:\nours    % x\nredis's % x", ours, blob)
			}
			// Our reader on Redis's bytes: what ZRANGE WITHSCORES says.
			b := NewBuilder(a, []byte("r"), 0, 0, 0)
			b.AppendListpack(blob)
			theirs, err := b.Finish()
			if err != nil {
				t.Fatal(err)
			}
			mustCheck(t, a, theirs)
			reply := rc.Do("ZRANGE", "z", "0", "-1", "WITHSCORES").([]any)
			got := all(a, theirs)
			if len(reply) != 2*len(got) {
				t.Fatalf("%d pairs, redis %d", len(got), len(reply)/2)
			}
			for i, p := range got {
				want, _ := strconv.ParseFloat(string(reply[2*i+1].([]byte)), 64)
				if p.m != string(reply[2*i].([]byte)) || (p.s != want && !(math.IsInf(want, 0) && p.s == want)) {
					t.Fatalf("pair %d: %v, redis %q %q", i, p, reply[2*i], reply[2*i+1])
				}
			}
			object.Free(a, theirs)
			freeRec(t, a, rec)
		})
	}
}

// splitWords splits a command line on spaces; ” is the empty word.
func splitWords(line string) []string {
	var out []string
	for _, w := range bytes.Fields([]byte(line)) {
		if string(w) == "''" {
			w = nil
		}
		out = append(out, string(w))
	}
	return out
}
