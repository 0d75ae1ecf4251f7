package zsetval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

func encName(a *alloc.Arena, rec alloc.Handle) string { return Encoding(a, rec).Name() }

// TestAddConversions: both sides of both limits, as zsetAdd converts (before adding the member
// that would pass them), and never back.
func TestAddConversions(t *testing.T) {
	withLimits(t, 4, 10)
	a := newArena(t)
	rec, err := New(a, []byte("z"), 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		Add(a, rec, []byte(fmt.Sprint("m", i)), float64(-i), 0)
	}
	if encName(a, rec) != "listpack" {
		t.Fatal("4 members: ", encName(a, rec))
	}
	// XX of a fifth member adds nothing and does not convert; updates do not either.
	if _, res, _ := Add(a, rec, []byte("m9"), 1, AddXX); res != AddNop || encName(a, rec) != "listpack" {
		t.Fatal("XX at the limit")
	}
	Add(a, rec, []byte("m0"), 100, 0)
	if encName(a, rec) != "listpack" {
		t.Fatal("update at the limit")
	}
	before := all(a, rec)
	if _, res, _ := Add(a, rec, []byte("m4"), 2.5, 0); res != AddAdded || encName(a, rec) != "skiplist" {
		t.Fatal("fifth member: ", encName(a, rec))
	}
	mustCheck(t, a, rec)
	want := append(before, pair{"m4", 2.5})
	slices.SortFunc(want, func(x, y pair) int {
		if x.s != y.s {
			if x.s < y.s {
				return -1
			}
			return 1
		}
		return strings.Compare(x.m, y.m)
	})
	if got := all(a, rec); !slices.Equal(got, want) {
		t.Fatalf("after conversion %v want %v", got, want)
	}
	// Never back: down to one member it stays a skiplist.
	for _, p := range want[1:] {
		Remove(a, rec, []byte(p.m))
	}
	if Len(a, rec) != 1 || encName(a, rec) != "skiplist" {
		t.Fatal("shrunk: ", encName(a, rec))
	}
	freeRec(t, a, rec)

	// The value limit: 10 bytes stay, 11 convert.
	rec = newZset(t, a)
	Add(a, rec, []byte(strings.Repeat("x", 10)), 1, 0)
	if encName(a, rec) != "listpack" {
		t.Fatal("10-byte member: ", encName(a, rec))
	}
	Add(a, rec, []byte(strings.Repeat("y", 11)), 1, 0)
	if encName(a, rec) != "skiplist" {
		t.Fatal("11-byte member: ", encName(a, rec))
	}
	mustCheck(t, a, rec)
	if got := all(a, rec); len(got) != 2 || got[0].m != "xxxxxxxxxx" {
		t.Fatal(got)
	}
	freeRec(t, a, rec)
}

// TestNewHints: zsetTypeCreate's choice on both sides of both limits.
func TestNewHints(t *testing.T) {
	withLimits(t, 4, 10)
	a := newArena(t)
	for _, c := range []struct {
		size, elem int
		want       string
	}{{4, 10, "listpack"}, {5, 10, "skiplist"}, {4, 11, "skiplist"}, {0, 0, "listpack"}, {1000, 1, "skiplist"}} {
		rec, err := New(a, []byte("z"), c.size, c.elem, 0)
		if err != nil {
			t.Fatal(err)
		}
		if encName(a, rec) != c.want || Len(a, rec) != 0 {
			t.Fatalf("New(%d, %d): %s", c.size, c.elem, encName(a, rec))
		}
		mustCheck(t, a, rec)
		freeRec(t, a, rec)
	}
}

// TestMaybeConvert: zsetTypeMaybeConvert on both sides of both limits, members kept.
func TestMaybeConvert(t *testing.T) {
	withLimits(t, 4, 10)
	a := newArena(t)
	for _, c := range []struct {
		size, elem int
		want       string
	}{{4, 10, "listpack"}, {5, 1, "skiplist"}, {1, 11, "skiplist"}} {
		rec := newZset(t, a, pair{"a", 1}, pair{"b", 2})
		if err := MaybeConvert(a, rec, c.size, c.elem); err != nil {
			t.Fatal(err)
		}
		if encName(a, rec) != c.want {
			t.Fatalf("MaybeConvert(%d, %d): %s", c.size, c.elem, encName(a, rec))
		}
		mustCheck(t, a, rec)
		if got := all(a, rec); !slices.Equal(got, []pair{{"a", 1}, {"b", 2}}) {
			t.Fatal(got)
		}
		freeRec(t, a, rec)
	}
}

// TestBuilderConversions: Finish's choice on both sides of both limits, the spill to the arena
// on the way, repeats reported, nothing left after Abort or an error.
func TestBuilderConversions(t *testing.T) {
	withLimits(t, 4, 10)
	a := newArena(t)
	build := func(pairs []pair) (alloc.Handle, error) {
		b := NewBuilder(a, []byte("z"), len(pairs), 0, 0)
		for _, p := range pairs {
			if err := b.Add([]byte(p.m), p.s); err != nil {
				b.Abort()
				return 0, err
			}
		}
		return b.Finish()
	}
	members := func(n, size int) []pair {
		var out []pair
		for i := n - 1; i >= 0; i-- {
			m := fmt.Sprintf("%0*d", size, i)
			out = append(out, pair{m, float64(i % 3)})
		}
		return out
	}
	for _, c := range []struct {
		n, size int
		want    string
	}{{4, 10, "listpack"}, {5, 10, "skiplist"}, {4, 11, "skiplist"}, {1, 1, "listpack"}, {300, 3, "skiplist"}} {
		in := members(c.n, c.size)
		rec, err := build(in)
		if err != nil {
			t.Fatal(err)
		}
		if encName(a, rec) != c.want {
			t.Fatalf("%d members of %d bytes: %s", c.n, c.size, encName(a, rec))
		}
		mustCheck(t, a, rec)
		want := sorted(in)
		if got := all(a, rec); !slices.Equal(got, want) {
			t.Fatalf("%d members of %d bytes: %v", c.n, c.size, got)
		}
		freeRec(t, a, rec)
	}
	// Repeats, small and spilled.
	for _, n := range []int{3, 30} {
		in := members(n, 2)
		in = append(in, pair{in[1].m, 7})
		if _, err := build(in); err != ErrDuplicate {
			t.Fatalf("%d members with a repeat: %v", n, err)
		}
		if a.Used() != 0 {
			t.Fatalf("%d bytes left after a failed build", a.Used())
		}
	}
	// A listpack given whole: the count alone decides (RDB's rule), bytes kept as they are.
	long := []pair{{strings.Repeat("L", 20), 1}, {"b", 2}}
	lp := listpack.NewSlice(0)
	for _, p := range long {
		lp, _ = listpack.AppendSlice(lp, []byte(p.m))
		lp, _ = listpack.AppendSlice(lp, appendScore(nil, p.s))
	}
	b := NewBuilder(a, []byte("z"), 0, 0, 0)
	b.AppendListpack(lp)
	rec, err := b.Finish()
	if err != nil || encName(a, rec) != "listpack" || string(ListpackBytes(a, rec)) != string(lp) {
		t.Fatalf("whole listpack with a long member: %v %s", err, encName(a, rec))
	}
	freeRec(t, a, rec)
	five := listpack.NewSlice(0)
	for _, p := range members(5, 1) {
		five, _ = listpack.AppendSlice(five, []byte(p.m))
		five, _ = listpack.AppendSlice(five, appendScore(nil, p.s))
	}
	b = NewBuilder(a, []byte("z"), 0, 0, 0)
	b.AppendListpack(sortedListpack(t, five))
	if rec, err = b.Finish(); err != nil || encName(a, rec) != "skiplist" || Len(a, rec) != 5 {
		t.Fatalf("whole listpack of 5: %v", err)
	}
	mustCheck(t, a, rec)
	freeRec(t, a, rec)
	// A listpack and more members: the general rule.
	b = NewBuilder(a, []byte("z"), 0, 0, 0)
	b.AppendListpack(lp)
	b.Add([]byte("c"), 0)
	if rec, err = b.Finish(); err != nil || encName(a, rec) != "skiplist" || Len(a, rec) != 3 {
		t.Fatalf("listpack with a long member and one more: %v %s", err, encName(a, rec))
	}
	freeRec(t, a, rec)
	// Abort after a spill frees the entries.
	b = NewBuilder(a, []byte("z"), 0, 0, 0)
	for _, p := range members(50, 4) {
		b.Add([]byte(p.m), p.s)
	}
	b.Abort()
	if a.Used() != 0 {
		t.Fatalf("%d bytes left after Abort", a.Used())
	}
}

// sortedListpack rebuilds lp's pairs in set order.
func sortedListpack(t *testing.T, lp []byte) []byte {
	var ps []pair
	eachListpack(lp, nil, func(m []byte, s float64) bool {
		ps = append(ps, pair{string(m), s})
		return true
	})
	out := listpack.NewSlice(0)
	for _, p := range sorted(ps) {
		out, _ = listpack.AppendSlice(out, []byte(p.m))
		out, _ = listpack.AppendSlice(out, appendScore(nil, p.s))
	}
	if err := checkListpack(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func sorted(in []pair) []pair {
	out := slices.Clone(in)
	slices.SortFunc(out, func(x, y pair) int {
		if x.s != y.s {
			if x.s < y.s {
				return -1
			}
			return 1
		}
		return strings.Compare(x.m, y.m)
	})
	return out
}

// TestFreeStep: a big set freed a little at a time, the arena back to the record alone, then 0.
func TestFreeStep(t *testing.T) {
	a := newArena(t)
	var in []pair
	for i := 0; i < 5000; i++ {
		in = append(in, pair{fmt.Sprint("member:", i), float64(i % 100)})
	}
	rec := newZset(t, a, in...)
	if encName(a, rec) != "skiplist" {
		t.Fatal(encName(a, rec))
	}
	charged := a.Used()
	if got := int64(object.MemoryUsage(a, rec)); got != charged {
		t.Fatalf("MemoryUsage %d, arena charged %d", got, charged)
	}
	enc, root := object.Root(a, rec)
	if e := FreeEffort(a, enc, root); e != int64(len(in)) {
		t.Fatalf("FreeEffort %d", e)
	}
	steps := 0
	for !FreeStep(a, root, 100) {
		steps++
		if a.Used() > charged {
			t.Fatal("FreeStep grew the arena")
		}
	}
	if steps < 50 {
		t.Fatalf("freed in %d steps of 100", steps)
	}
	object.FreeRecordOnly(a, rec)
	if a.Used() != 0 {
		t.Fatalf("%d bytes left", a.Used())
	}
}
