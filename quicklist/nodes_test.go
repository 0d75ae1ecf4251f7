package quicklist

import (
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
