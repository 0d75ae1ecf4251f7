package hashval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/object"
)

// TestRandomPicks: in both encodings and every case of RandomPairsUnique, the pairs are real,
// distinct where they must be, and as many as asked; every field is reachable.
func TestRandomPicks(t *testing.T) {
	for _, n := range []int{5, 100, 2000} {
		a := newArena(t)
		rec := newHash(t, a)
		model := map[string]string{}
		for i := range n {
			f, v := fmt.Sprint("f", i), fmt.Sprint(i*7)
			set(t, a, rec, f, v)
			model[f] = v
		}
		checkPair := func(f, v []byte) {
			if model[string(f)] != string(v) {
				t.Fatalf("%d fields: pair %q=%q not in the hash", n, f, v)
			}
		}
		seen := map[string]bool{}
		for range 50 * n {
			f, v, ok := RandomPair(a, rec, nil)
			if !ok {
				t.Fatal("RandomPair of a non-empty hash")
			}
			checkPair(f, v)
			seen[string(f)] = true
		}
		if len(seen) != n {
			t.Fatalf("%d fields: RandomPair reached %d", n, len(seen))
		}
		calls := 0
		RandomPairs(a, rec, 3*n, nil, func(f, v []byte) { checkPair(f, v); calls++ })
		if calls != 3*n {
			t.Fatalf("RandomPairs gave %d pairs, want %d", calls, 3*n)
		}
		// count ≥ size (CASE 2), a small count (2.5 or 4), near the size (2.5 or 3).
		for _, count := range []int{n + 3, n, 1, 2, n / 2, n - 1} {
			got := map[string]bool{}
			RandomPairsUnique(a, rec, count, nil, func(f, v []byte) {
				checkPair(f, v)
				if got[string(f)] {
					t.Fatalf("count %d: %q twice", count, f)
				}
				got[string(f)] = true
			})
			if want := min(count, n); len(got) != want {
				t.Fatalf("%d fields, count %d: %d pairs, want %d", n, count, len(got), want)
			}
		}
		object.Free(a, rec)
	}
}

// TestScan: a listpack comes whole with cursor 0; a table's scan covers every field with
// COUNT 1 and a big COUNT, and a field present throughout is seen even if the table grows
// and shrinks between calls.
func TestScan(t *testing.T) {
	a := newArena(t)
	rec := newHash(t, a)
	for i := range 10 {
		set(t, a, rec, fmt.Sprint("f", i), "v")
	}
	n := 0
	if c := Scan(a, rec, 12345, 1, nil, func(f, v []byte) { n++ }); c != 0 || n != 10 {
		t.Fatalf("listpack scan: cursor %d, %d pairs", c, n)
	}
	for i := 10; i < 3000; i++ {
		set(t, a, rec, fmt.Sprint("f", i), "v")
	}
	for _, count := range []int{1, 10, 100000} {
		seen := map[string]bool{}
		cursor, calls := uint64(0), 0
		for {
			cursor = Scan(a, rec, cursor, count, nil, func(f, v []byte) { seen[string(f)] = true })
			calls++
			// Churn between calls: add and remove fields that are not the stable ones.
			for j := range 40 {
				set(t, a, rec, fmt.Sprint("tmp", calls, "-", j), "x")
			}
			for j := range 40 {
				Delete(a, rec, []byte(fmt.Sprint("tmp", calls, "-", j)))
			}
			if cursor == 0 {
				break
			}
		}
		for i := range 3000 {
			if !seen[fmt.Sprint("f", i)] {
				t.Fatalf("count %d: f%d never returned", count, i)
			}
		}
		if count == 100000 && calls != 1 {
			t.Fatalf("a COUNT above the size took %d calls", calls)
		}
	}
	object.Free(a, rec)
	if a.Used() != 0 {
		t.Fatalf("%d bytes left", a.Used())
	}
}
