package htable

import (
	"math/bits"
	"math/rand/v2"

	"github.com/kvserver/kvserver/alloc"
)

// randomTries bounds how many random buckets Random draws before it walks the array
// from a random start instead: a table is at least 13.75% full outside a resize, so that many
// empty draws in a row essentially only happen in a table mostly emptied during a resize.
const randomTries = 64

// Random returns a random entry, as Redis's dictGetRandomKey: a random non-empty bucket (of
// either array while moving, where ht[0]'s moved buckets are skipped), then a random entry of
// its chain. Entries of long chains are a little less likely than others.
func (t *Table) Random() (alloc.Handle, bool) {
	if t.Len() == 0 {
		return 0, false
	}
	if t.Resizing() {
		t.rehashStep()
	}
	var lo, n0, n uint64 // buckets [lo, lo+n0) of ht[0], then all of ht[1] while moving
	lo, n0 = 0, t.hdr.ht[0].size
	if t.Moving() {
		lo, n0 = t.hdr.rehashIdx, t.hdr.ht[0].size-t.hdr.rehashIdx
	}
	n = n0
	if t.Moving() {
		n += t.hdr.ht[1].size
	}
	at := func(r uint64) *bucket {
		if r < n0 {
			return t.at(0, lo+r)
		}
		return t.at(1, r-n0)
	}
	var r uint64
	for try := 0; ; try++ {
		if try < randomTries {
			r = rand.Uint64N(n)
		} else {
			r = (r + 1) % n
		}
		head := at(r)
		if head.presence == 0 && head.chained == 0 {
			continue
		}
		total := 0
		for b := head; b != nil; b = t.next(b) {
			total += b.entries()
		}
		k := rand.IntN(total)
		for b := head; b != nil; b = t.next(b) {
			if c := b.entries(); k >= c {
				k -= c
				continue
			}
			m := b.presence
			for range k {
				m &= m - 1
			}
			return b.handles[bits.TrailingZeros16(m)], true
		}
	}
}
