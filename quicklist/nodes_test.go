package quicklist

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
)

// TestLimits: ExceedsLimit and NodeLimit state quicklist.c's quicklistNodeExceedsLimit and
// quicklistNodeLimit.
func TestLimits(t *testing.T) {
	for _, c := range []struct {
		fill, sz, count int
		exceeds         bool
	}{
		{-2, 8192, 100000, false}, {-2, 8193, 1, true}, {-1, 4097, 1, true}, {-5, 65536, 1, false},
		{-9, 65537, 1, true}, {4, 100, 4, false}, {4, 100, 5, true}, {4, 8193, 1, true},
		{0, 10, 1, false}, {0, 10, 2, true}, {100000, 100, 32767, false}, {100000, 100, 32768, true},
	} {
		if got := ExceedsLimit(c.fill, c.sz, c.count); got != c.exceeds {
			t.Errorf("ExceedsLimit(%d, %d, %d) = %v", c.fill, c.sz, c.count, got)
		}
	}
	for _, c := range []struct{ fill, bytes, count int }{
		{-1, 4096, -1}, {-2, 8192, -1}, {-7, 65536, -1}, {0, -1, 1}, {5, -1, 5}, {40000, -1, 32767},
	} {
		if b, n := NodeLimit(c.fill); b != c.bytes || n != c.count {
			t.Errorf("NodeLimit(%d) = %d, %d; want %d, %d", c.fill, b, n, c.bytes, c.count)
		}
	}
}

// TestTakeSingle: a list of one packed node gives its listpack up, and nothing else is left;
// a plain node or two nodes are not Single.
func TestTakeSingle(t *testing.T) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	l, _ := New(a, 2)
	lp, _ := listpack.New(a).Append(a, []byte("a"))
	if err := l.AppendListpack(a, lp, 1); err != nil {
		t.Fatal(err)
	}
	got, ok := l.Single(a)
	if !ok || got != lp {
		t.Fatal("one packed node: not Single")
	}
	l.PushTail(a, []byte("b"))
	l.PushTail(a, []byte("c")) // a second node under fill 2
	if _, ok := l.Single(a); ok {
		t.Fatal("two nodes: Single")
	}
	l.PopTail(a, nil)
	taken := l.TakeSingle(a)
	if n := listpack.Len(taken.Bytes(a)); n != 2 {
		t.Fatalf("taken listpack has %d entries", n)
	}
	if a.Used() != int64(taken.AllocSize(a)) {
		t.Fatalf("after TakeSingle: %d bytes used, the listpack is %d", a.Used(), taken.AllocSize(a))
	}
	taken.Free(a)
	p, _ := New(a, 2)
	p.AppendPlain(a, []byte("x"))
	if _, ok := p.Single(a); ok {
		t.Fatal("a plain node: Single")
	}
	p.Free(a)
	if a.Used() != 0 {
		t.Fatalf("%d bytes left", a.Used())
	}
}

// TestInsertPivotShapes: LINSERT puts the element where Redis 7.2's _quicklistInsert does,
// seen in the node shapes it leaves under fill 3.
func TestInsertPivotShapes(t *testing.T) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	shape := func(l List) string {
		var parts []string
		l.EachNode(a, func(lp []byte, plain bool) bool {
			var es []string
			for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
				s, _, _ := listpack.Get(lp, p)
				es = append(es, string(s))
			}
			parts = append(parts, "["+strings.Join(es, " ")+"]")
			return true
		})
		return strings.Join(parts, "")
	}
	for _, c := range []struct {
		nodes        [][]string
		pivot, value string
		after        bool
		want         string
	}{
		{[][]string{{"a", "b"}}, "a", "x", true, "[a x b]"},                   // room in the node
		{[][]string{{"a", "b", "c"}}, "c", "x", true, "[a b c][x]"},           // full, at the tail: a new node
		{[][]string{{"a", "b", "c"}, {"d"}}, "c", "x", true, "[a b c][x d]"},  // …the next node has room
		{[][]string{{"a", "b", "c"}}, "a", "x", false, "[x][a b c]"},          // full, at the head
		{[][]string{{"p"}, {"a", "b", "c"}}, "a", "x", false, "[p x][a b c]"}, // …the previous has room
		{[][]string{{"a", "b", "c"}}, "a", "x", true, "[a][x b c]"},           // full, inside: split
		{[][]string{{"a", "b", "c"}}, "c", "x", false, "[a b x][c]"},
		{[][]string{{"p"}, {"a", "b", "c"}}, "b", "x", false, "[p a x][b c]"}, // split, then merged
	} {
		l, _ := New(a, 3)
		for _, n := range c.nodes {
			lp := listpack.New(a)
			for _, e := range n {
				lp, _ = lp.Append(a, []byte(e))
			}
			if err := l.AppendListpack(a, lp, len(n)); err != nil {
				t.Fatal(err)
			}
		}
		found, err := l.InsertPivot(a, []byte(c.pivot), []byte(c.value), c.after)
		if !found || err != nil {
			t.Fatal(found, err)
		}
		if got := shape(l); got != c.want {
			t.Errorf("%v: insert %s %v %s: %s, want %s", c.nodes, c.value, c.after, c.pivot, got, c.want)
		}
		if err := l.Check(a); err != nil {
			t.Fatal(err)
		}
		l.Free(a)
	}
}

// TestReplaceShapes: LSET leaves the nodes Redis 7.2's quicklistReplaceEntry does, under
// fill 3 (a large element is one over 8 KB).
func TestReplaceShapes(t *testing.T) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	big := strings.Repeat("L", 9000)
	shape := func(l List) string {
		var parts []string
		l.EachNode(a, func(lp []byte, plain bool) bool {
			var es []string
			for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
				s, _, _ := listpack.Get(lp, p)
				if len(s) > 10 {
					s = s[:1]
				}
				es = append(es, string(s))
			}
			mark := ""
			if plain {
				mark = "P"
			}
			parts = append(parts, mark+"["+strings.Join(es, " ")+"]")
			return true
		})
		return strings.Join(parts, "")
	}
	build := func(nodes ...[]string) List {
		l, _ := New(a, 3)
		for _, n := range nodes {
			if len(n) == 1 && n[0] == "P" {
				l.AppendPlain(a, []byte(big))
				continue
			}
			lp := listpack.New(a)
			for _, e := range n {
				lp, _ = lp.Append(a, []byte(e))
			}
			l.AppendListpack(a, lp, len(n))
		}
		return l
	}
	for _, c := range []struct {
		nodes [][]string
		i     int
		value string
		want  string
	}{
		{[][]string{{"a", "b", "c"}}, 1, "xxxx", "[a xxxx c]"},               // in place
		{[][]string{{"a", "b", "c"}}, 1, big, "[a]P[L][c]"},                  // split around a plain node
		{[][]string{{"a", "b", "c"}}, 2, big, "[a b]P[L]"},                   // the last entry: no split
		{[][]string{{"a"}, {"P"}, {"c"}}, 1, "x", "[a][x c]"},                // small into a plain node's place
		{[][]string{{"a"}, {"P"}, {"c", "d", "e"}}, 1, "x", "[a][x][c d e]"}, // …a new node when the next is full
		{[][]string{{"a"}, {"P"}}, 1, big, "[a]P[L]"},                        // large over plain: in place
	} {
		l := build(c.nodes...)
		if ok, err := l.Replace(a, c.i, []byte(c.value)); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if got := shape(l); got != c.want {
			t.Errorf("%v: replace %d: %s, want %s", c.nodes, c.i, got, c.want)
		}
		if err := l.Check(a); err != nil {
			t.Fatal(err)
		}
		l.Free(a)
	}
}
