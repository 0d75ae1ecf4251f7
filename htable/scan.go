package htable

import (
	"math/bits"

	"github.com/kvserver/kvserver/alloc"
)

// Scan is Redis's dictScan over one table: it calls fn for every entry of the bucket chain(s)
// that cursor v names and returns the next cursor, 0 when the table has been covered.
//
// The cursor counts over bucket indexes with its bits reversed: it increments the top bit of
// the mask first. Doubling an array splits bucket i into i and i+size, halving merges them, and
// in both cases the reversed order visits the new buckets after the ones whose entries were
// already returned, so every entry present for the whole scan is returned at least once (some
// may come twice). While entries move between two arrays, the bucket of the smaller array and
// every bucket of the larger one that it expands to are visited in one call. This rests on an
// entry never leaving the chain its hash selects, which the table guarantees.
//
// Scan does no rehash step, and fn must not change the table.
func (t *Table) Scan(v uint64, fn func(h alloc.Handle)) uint64 {
	if t.hdr.ht[0].size == 0 {
		return 0
	}
	if !t.Moving() {
		m0 := t.hdr.ht[0].mask()
		t.emitChain(0, v&m0, fn)
		return nextCursor(v, m0)
	}
	small, large := 0, 1
	if t.hdr.ht[0].size > t.hdr.ht[1].size {
		small, large = 1, 0
	}
	m0, m1 := t.hdr.ht[small].mask(), t.hdr.ht[large].mask()
	t.emitChain(small, v&m0, fn)
	// The indexes of the larger array that are expansions of v's index in the smaller one.
	for {
		t.emitChain(large, v&m1, fn)
		v = nextCursor(v, m1)
		if v&(m0^m1) == 0 {
			break
		}
	}
	return v
}

// nextCursor increments the reversed bits of v under mask m.
func nextCursor(v, m uint64) uint64 {
	v |= ^m
	v = bits.Reverse64(v)
	v++
	return bits.Reverse64(v)
}

// emitChain calls fn for every entry of the chain of bucket i of ht[a].
func (t *Table) emitChain(a int, i uint64, fn func(h alloc.Handle)) {
	if t.moved(a, i) {
		return
	}
	for b := t.at(a, i); b != nil; b = t.next(b) {
		for m := b.presence; m != 0; m &= m - 1 {
			fn(b.handles[bits.TrailingZeros16(m)])
		}
	}
}

// Each calls fn for every entry of the table once, as Redis's dict iterator: both arrays while
// entries move between them, the current one otherwise (an array being cleared holds nothing
// yet). It does no rehash step, and fn must not change the table.
func (t *Table) Each(fn func(h alloc.Handle)) {
	for a := range t.hdr.ht {
		if a == 1 && !t.Moving() {
			break
		}
		for i := uint64(0); i < t.hdr.ht[a].size; i++ {
			t.emitChain(a, i, fn)
		}
	}
}
