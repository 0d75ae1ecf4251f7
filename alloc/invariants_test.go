//go:build invariants

package alloc

import "testing"

func TestInvariantsCatchMisuse(t *testing.T) {
	a := newTestArena(t)
	h := a.Alloc(100)
	mustPanic(t, "slab size mismatch", func() { a.Free(h, 20) })
	a.Free(h, 100)
	mustPanic(t, "slab double free", func() { a.Free(h, 100) })
	mustPanic(t, "foreign handle", func() { a.Free(Handle(12345), 100) })
}

func TestInvariantsPoisonFreedSlots(t *testing.T) {
	a := newTestArena(t)
	h := a.Alloc(64)
	keep := a.Alloc(64) // keeps the span in use so the freed slot stays readable
	b := a.Bytes(h, 64)
	fill(b, 1)
	a.Free(h, 64)
	// The first four bytes link the free list; the rest is poison.
	for i := 4; i < 64; i++ {
		if b[i] != poisonByte {
			t.Fatalf("byte %d of a freed slot is %#x, not poison", i, b[i])
		}
	}
	a.Free(keep, 64)
}

// TestInvariantsSlabStats: SlabStats's live slots per class are the slots the invariants
// track as allocated, class by class.
func TestInvariantsSlabStats(t *testing.T) {
	a := newTestArena(t)
	var hs []Handle
	for i := 1; i < 3000; i += 7 {
		hs = append(hs, a.Alloc(i*5))
	}
	for i := 0; i < len(hs); i += 3 {
		a.Free(hs[i], (i*7+1)*5)
	}
	want := make([]int64, NumSlabClasses)
	for _, c := range a.invariants.live {
		want[c]++
	}
	for c, cs := range a.SlabStats().Classes {
		if cs.Slots != want[c] {
			t.Errorf("class %d (%d bytes): %d live slots, invariants track %d", c, cs.Size, cs.Slots, want[c])
		}
	}
}
