package keyspace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// check verifies the tree: entries in order and within their separators, every leaf at the
// same depth, no empty node but the root, counts exact. It returns the entries in order.
func (x *expireIndex) check() ([]ttlEntry, error) {
	var out []ttlEntry
	var nodes int64
	var walk func(h alloc.Handle, height int, lo, hi *ttlEntry) error
	walk = func(h alloc.Handle, height int, lo, hi *ttlEntry) error {
		nodes++
		inRange := func(e ttlEntry) bool {
			return (lo == nil || !e.less(*lo)) && (hi == nil || e.less(*hi))
		}
		if height == 0 {
			l := x.leaf(h)
			if l.n == 0 && h != x.root {
				return fmt.Errorf("empty leaf")
			}
			for _, e := range l.e[:l.n] {
				if !inRange(e) {
					return fmt.Errorf("leaf entry %v outside its separators", e)
				}
				if len(out) > 0 && e.less(out[len(out)-1]) {
					return fmt.Errorf("entries out of order")
				}
				out = append(out, e)
			}
			return nil
		}
		in := x.inner(h)
		if in.n == 0 {
			return fmt.Errorf("inner node without keys")
		}
		for i := 0; i <= int(in.n); i++ {
			l, r := lo, hi
			if i > 0 {
				l = &in.keys[i-1]
			}
			if i < int(in.n) {
				r = &in.keys[i]
				if !inRange(in.keys[i]) {
					return fmt.Errorf("separator outside its parent's range")
				}
			}
			if err := walk(in.kids[i], height-1, l, r); err != nil {
				return err
			}
		}
		return nil
	}
	if x.root != 0 {
		if err := walk(x.root, x.height, nil, nil); err != nil {
			return nil, err
		}
	}
	if int64(len(out)) != x.len() {
		return nil, fmt.Errorf("%d entries, count %d", len(out), x.len())
	}
	if nodes != x.nodes {
		return nil, fmt.Errorf("%d nodes, counted %d", nodes, x.nodes)
	}
	var secs int64
	for _, e := range out {
		secs += e.when / 1000
	}
	if secs != x.whenSecs.Load() {
		return nil, fmt.Errorf("whenSecs %d, want %d", x.whenSecs.Load(), secs)
	}
	return out, nil
}

// has reports whether e is in the index.
func (x *expireIndex) has(e ttlEntry) bool {
	if x.root == 0 {
		return false
	}
	var path [ttlMaxHeight + 1]pathStep
	lh, _ := x.descend(e, &path)
	l := x.leaf(lh)
	pos := lowerBound(l.e[:l.n], e)
	return pos < int(l.n) && l.e[pos] == e
}

func checkIndex(t *testing.T, x *expireIndex, model map[ttlEntry]bool) {
	t.Helper()
	got, err := x.check()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]ttlEntry, 0, len(model))
	for e := range model {
		want = append(want, e)
	}
	slices.SortFunc(want, func(a, b ttlEntry) int {
		if a.less(b) {
			return -1
		}
		if b.less(a) {
			return 1
		}
		return 0
	})
	if !slices.Equal(got, want) {
		t.Fatalf("index holds %d entries, model %d (or they differ)", len(got), len(want))
	}
	if f, ok := x.first(); ok != (len(want) > 0) || ok && f != want[0] {
		t.Fatalf("first() = %v, %v; want %v", f, ok, want[:min(1, len(want))])
	}
}

// TestExpireIndexModel runs inserts and deletes in several patterns (appending times, random
// times, deleting the oldest as active expiry does, deleting at random) against a set.
func TestExpireIndexModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := testArena(t)
	x := newExpireIndex(a)
	model := map[ttlEntry]bool{}
	var live []ttlEntry
	where := map[ttlEntry]int{} // index in live
	add := func(e ttlEntry) {
		if model[e] {
			return
		}
		if err := x.insert(e); err != nil {
			t.Fatal(err)
		}
		model[e] = true
		where[e] = len(live)
		live = append(live, e)
	}
	del := func(i int) {
		e := live[i]
		if !x.delete(e) {
			t.Fatalf("delete %v: not found", e)
		}
		delete(model, e)
		delete(where, e)
		last := live[len(live)-1]
		live[i] = last
		if last != e {
			where[last] = i
		}
		live = live[:len(live)-1]
	}
	now := int64(1_700_000_000_000)
	per := 20000
	if raceEnabled {
		per = 5000
	}
	for round := range 8 {
		switch round % 4 {
		case 0: // SET EX with one TTL: times only grow
			for i := range per {
				add(ttlEntry{now + int64(i), rng.Uint64()})
			}
		case 1: // mixed TTLs
			for range per {
				add(ttlEntry{now + rng.Int64N(3_600_000), rng.Uint64()})
			}
		case 2: // expire the oldest half
			for range len(live) / 2 {
				f, _ := x.first()
				del(where[f])
			}
		case 3: // random deletes, with a few inserts between
			for len(live) > per/20 {
				del(rng.IntN(len(live)))
				if rng.IntN(4) == 0 {
					add(ttlEntry{now + rng.Int64N(100), rng.Uint64()})
				}
			}
		}
		checkIndex(t, x, model)
		if x.delete(ttlEntry{-1, 0}) {
			t.Fatal("deleted an entry that is not there")
		}
	}
	for len(live) > 0 {
		del(rng.IntN(len(live)))
	}
	checkIndex(t, x, model)
	if a.Used() != 0 || x.nodes != 0 {
		t.Fatalf("empty index: arena uses %d bytes, %d nodes", a.Used(), x.nodes)
	}
}

// TestExpireIndexFill: appending times fills leaves completely; a quarter fill is the floor.
func TestExpireIndexFill(t *testing.T) {
	a := testArena(t)
	x := newExpireIndex(a)
	const n = 200000
	for i := range n {
		if err := x.insert(ttlEntry{int64(i), uint64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	perKey := float64(x.bytes()) / n
	t.Logf("appending %d entries: %d nodes, height %d, %.2f bytes per entry", n, x.nodes, x.height, perKey)
	if perKey > 17 {
		t.Fatalf("appending: %.2f bytes per entry, want full leaves (≈16.3)", perKey)
	}
	// Delete three entries in four at random: merges keep the fill above a quarter.
	rng := rand.New(rand.NewPCG(7, 8))
	for _, i := range rng.Perm(n)[:n*3/4] {
		if !x.delete(ttlEntry{int64(i), uint64(i)}) {
			t.Fatal("entry not found")
		}
	}
	if _, err := x.check(); err != nil {
		t.Fatal(err)
	}
	perKey = float64(x.bytes()) / float64(x.len())
	t.Logf("after deleting 3/4 at random: %d nodes, %.2f bytes per entry", x.nodes, perKey)
	if perKey > 4*16.3 {
		t.Fatalf("%.2f bytes per entry: the quarter-fill floor is broken", perKey)
	}
	x.clear()
	if a.Used() != 0 {
		t.Fatalf("cleared index: arena uses %d bytes", a.Used())
	}
}

// testArena makes an arena with a small reservation (tests make many) that is closed after.
func testArena(t testing.TB) *alloc.Arena {
	a := alloc.MustNewArena(4 << 30)
	t.Cleanup(a.Close)
	return a
}
