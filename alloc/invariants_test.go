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
