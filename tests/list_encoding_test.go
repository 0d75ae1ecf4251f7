package tests

import (
	"strconv"
	"strings"
	"testing"
)

// TestListEncoding: OBJECT ENCODING of a list follows Redis 7.2's points — a listpack until a
// push would pass list-max-listpack-size, a quicklist after, a listpack again once a removal
// leaves one node of at most half the limit — under the default fill (-2: 8 KB), under a
// positive fill set by CONFIG SET (entries), and its list-max-ziplist-size alias; nodes are
// not merged after removals, as Redis's quicklistDelIndex and quicklistDelRange do not. kvserver
// only: Debian's redis-server 7.0.15 says quicklist for every list.
func TestListEncoding(t *testing.T) {
	requireKvserver(t, "Redis 7.0.15 has no listpack-encoded lists")
	s := startServer(t)
	c := s.RawConn(t)
	enc := func(key string) string {
		t.Helper()
		r := c.Do("OBJECT", "ENCODING", key)
		return r.Str
	}
	do := func(args ...string) *Reply {
		t.Helper()
		r := c.Do(args...)
		if r.Kind == '-' {
			t.Fatalf("%v: %s", args, r.Str)
		}
		return r
	}

	// Default fill -2: 100-byte elements are 103-byte entries, a listpack of n of them
	// 7+103n bytes; a push converts first when bytes + 100 would pass 8192: at the 80th.
	e := strings.Repeat("x", 100)
	for i := range 79 {
		do("RPUSH", "l", e)
		if got := enc("l"); got != "listpack" {
			t.Fatalf("%d elements of 100 bytes: %s, want listpack", i+1, got)
		}
	}
	do("RPUSH", "l", e) // 8144 + 100 > 8192
	if got := enc("l"); got != "quicklist" {
		t.Fatalf("80 elements: %s, want quicklist", got)
	}
	// Back only at half the limit (4096 bytes): 39 elements are 4024 bytes, 40 are 4127.
	do("LTRIM", "l", "0", "39")
	if got := enc("l"); got != "quicklist" {
		t.Fatalf("40 elements after LTRIM: %s, want quicklist", got)
	}
	do("RPOP", "l")
	if got := enc("l"); got != "listpack" {
		t.Fatalf("39 elements after RPOP: %s, want listpack", got)
	}
	// One multi-element push is checked once, by the elements' lengths (not their entries'):
	// 81 of them (7 + 8100 ≤ 8192) stay one listpack, of 8350 bytes; 82 convert.
	for _, c := range []struct {
		n    int
		want string
	}{{81, "listpack"}, {82, "quicklist"}} {
		args := []string{"RPUSH", "m" + strconv.Itoa(c.n)}
		for range c.n {
			args = append(args, e)
		}
		do(args...)
		if got := enc(args[1]); got != c.want {
			t.Fatalf("RPUSH of %d elements: %s, want %s", c.n, got, c.want)
		}
	}
	// An element bigger than a node makes a quicklist at once.
	do("RPUSH", "big", strings.Repeat("y", 9000))
	if got := enc("big"); got != "quicklist" {
		t.Fatalf("one 9000-byte element: %s, want quicklist", got)
	}

	// A positive fill counts entries: 4 → a fifth element converts; back at 2.
	for _, name := range []string{"list-max-listpack-size", "list-max-ziplist-size"} {
		do("CONFIG", "SET", name, "4")
		do("DEL", "p")
		do("RPUSH", "p", "a", "b", "c", "d")
		if got := enc("p"); got != "listpack" {
			t.Fatalf("%s 4, 4 elements: %s", name, got)
		}
		do("LPUSH", "p", "z")
		if got := enc("p"); got != "quicklist" {
			t.Fatalf("%s 4, 5 elements: %s", name, got)
		}
		// The quicklist is [z] [a b c d]: nodes are not merged after removals (as Redis), so it
		// stays one while two nodes are left, even of 2 elements; one node of at most 2 (half
		// the limit) is a listpack again.
		for n := 4; n >= 2; n-- {
			do("RPOP", "p")
			if got := enc("p"); got != "quicklist" {
				t.Fatalf("%s 4, %d elements in two nodes after RPOP: %s, want quicklist", name, n, got)
			}
		}
		do("LPOP", "p")
		if got := enc("p"); got != "listpack" {
			t.Fatalf("%s 4, one node of 1 element after LPOP: %s, want listpack", name, got)
		}
		// LINSERT converts before writing: [new] [a c d e].
		do("RPUSH", "p", "c", "d", "e")
		do("LINSERT", "p", "BEFORE", "a", "new")
		if got := enc("p"); got != "quicklist" {
			t.Fatalf("%s 4, LINSERT to 5: %s", name, got)
		}
		// [new] [a c]: a rotation pops "new" (one node of 2 left) and pushes it back (3) before
		// the source is converted, so it stays a quicklist (lmoveGenericCommand's order).
		do("LTRIM", "p", "0", "2")
		do("LMOVE", "p", "p", "LEFT", "RIGHT")
		if got := enc("p"); got != "quicklist" {
			t.Fatalf("%s 4, LMOVE rotation of 3: %s", name, got)
		}
		r := do("LRANGE", "p", "0", "-1")
		var got []string
		for _, el := range r.Elems {
			got = append(got, el.Str)
		}
		if strings.Join(got, " ") != "a c new" {
			t.Fatalf("after the rotation: %v", got)
		}
		do("CONFIG", "SET", name, "-2")
	}
	if r := do("CONFIG", "GET", "list-max-listpack-size"); len(r.Elems) != 2 || r.Elems[1].Str != strconv.Itoa(-2) {
		t.Fatalf("CONFIG GET list-max-listpack-size: %v", formatReply(r, false))
	}
}
