package quicklist

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// TestMemoryPerElement measures the shape: one list of 1,000,000 16-byte elements at
// the default fill, arena Used() per element (target 18.2, Redis 7.0.15's and Valkey 8.0.1's
// used_memory per element; the listpack's 18 bytes per entry are the floor). It logs the figure
// (go test -run TestMemoryPerElement -v ./quicklist) and fails past the target.
func TestMemoryPerElement(t *testing.T) {
	if testing.Short() || invariantsOn {
		t.Skip("a million pushes (each checked in invariants builds)")
	}
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	l, err := New(a, DefaultFill)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1_000_000
	e := []byte("0123456789abcdef")
	for i := range n {
		copy(e, fmt.Sprintf("%016x", i)) // hex with letters: never an integer entry
		e[0] = 'k'
		if err := l.PushTail(a, e); err != nil {
			t.Fatal(err)
		}
	}
	per := float64(a.Used()) / n
	t.Logf("%d elements of 16 bytes, fill %d: %d nodes, %d bytes, %.2f bytes per element (target 18.2)",
		n, DefaultFill, l.Nodes(a), a.Used(), per)
	if per > 18.2 {
		t.Errorf("%.2f bytes per element, over 18.2", per)
	}
	if got := l.AllocSize(a); got != int(a.Used()) {
		t.Errorf("AllocSize %d, Used %d", got, a.Used())
	}
	l.Free(a)
	if a.Used() != 0 {
		t.Errorf("freed, %d bytes left", a.Used())
	}
}

// TestNodeShapes checks where nodes split under each kind of fill: a positive fill counts
// entries (and still caps bytes at 8 KB), a negative one counts bytes, and an element over the
// limit gets a node of its own that nothing joins.
func TestNodeShapes(t *testing.T) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	push := func(fill, n, size int) List {
		l, err := New(a, fill)
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			if err := l.PushTail(a, bytes.Repeat([]byte{'x'}, size)); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Check(a); err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, c := range []struct{ fill, n, size, nodes int }{
		{3, 10, 1, 4},      // 3+3+3+1 entries
		{0, 4, 1, 4},       // 0 counts as 1
		{100, 10, 1000, 2}, // 8 KB cap: 8 entries of 1002 bytes + 8 estimate fit, not 9
		{-1, 10, 1000, 3},  // 4 KB: 4 per node
		{-2, 2, 9000, 2},   // over 8 KB: plain nodes
		{-5, 2, 9000, 1},   // 64 KB holds both
		{-9, 2, 9000, 1},   // below -5 counts as -5
		{5, 3, 8193, 3},    // over the 8 KB cap of a positive fill
		{-2, 1000, 16, 3},  // 16-byte elements: 18 bytes each, 454 per 8 KB node
	} {
		l := push(c.fill, c.n, c.size)
		if got := l.Nodes(a); got != c.nodes {
			t.Errorf("fill %d, %d × %d bytes: %d nodes, want %d", c.fill, c.n, c.size, got, c.nodes)
		}
		l.Free(a)
	}
	// A small element next to a plain node starts a node of its own.
	l := push(-2, 1, 9000)
	if err := l.PushTail(a, []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := l.PushHead(a, []byte("b")); err != nil {
		t.Fatal(err)
	}
	if l.Nodes(a) != 3 {
		t.Errorf("plain node joined: %d nodes", l.Nodes(a))
	}
	l.Free(a)
	if a.Used() != 0 {
		t.Errorf("freed, %d bytes left", a.Used())
	}
}

// TestIntegers checks that integer elements come back as integers, and strings that only look
// like them as strings.
func TestIntegers(t *testing.T) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	l, _ := New(a, 2)
	for _, s := range []string{"12", "-9223372036854775808", "007", "x", "1e3"} {
		if err := l.PushTail(a, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []bool{true, true, false, false, false} {
		_, _, isInt, _ := l.Index(a, i)
		if isInt != want {
			t.Errorf("element %d: isInt %v", i, isInt)
		}
	}
	_, v, isInt, ok := l.PopTail(a, nil)
	if s, _, _, _ := l.PopTail(a, nil); string(s) != "x" || !ok || isInt {
		t.Errorf("pops: %q %v", s, v)
	}
	_, v, isInt, _ = l.PopHead(a, nil)
	if !isInt || v != 12 {
		t.Errorf("PopHead = %d %v", v, isInt)
	}
	l.Free(a)
}

// TestSplitMerge checks the node shapes an insert into a full node and a delete across nodes
// leave: the split node's halves and the new element's node merge where the fill allows.
func TestSplitMerge(t *testing.T) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	shape := func(l List) []int {
		var c []int
		for h := l.head(a); h != 0; h = nodeAt(a, h).next() {
			c = append(c, nodeAt(a, h).count())
		}
		return c
	}
	l, _ := New(a, 4)
	for i := range 12 {
		if err := l.PushTail(a, []byte{'a' + byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := fmt.Sprint(shape(l)); got != "[4 4 4]" {
		t.Fatalf("pushed: %s", got)
	}
	if err := l.DeleteRange(a, 2, 4); err != nil { // [2 2 4] merges to [4 4]
		t.Fatal(err)
	}
	if got := fmt.Sprint(shape(l)); got != "[4 4]" {
		t.Fatalf("after DeleteRange: %s", got)
	}
	if err := l.Insert(a, 2, []byte("x")); err != nil { // [2][x][2] [4]: x joins the left half
		t.Fatal(err)
	}
	if got := fmt.Sprint(shape(l)); got != "[3 2 4]" {
		t.Fatalf("after Insert: %s", got)
	}
	var got []byte
	l.Range(a, 0, false, func(s []byte, _ int64, _ bool) bool { got = append(got, s...); return true })
	if string(got) != "abxghijkl" {
		t.Fatalf("elements %q", got)
	}
	l.Free(a)
}
