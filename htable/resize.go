package htable

import (
	"math/bits"
	"unsafe"
)

// Resize policy. Fill is entries per slot of ht[0]: count / (12 × buckets).
const (
	// maxFillPercent: a table grows (doubles) when its fill passes 110%. A doubling starts at
	// 55% fill, 64 / (12 × 0.55) = 9.7 bytes per entry, and ends a little fuller (9.3 measured,
	// child buckets included), so a table of more than a few hundred keys stays under the
	// 10-byte budget outside a resize (7.5 to 9.3 measured from 100,000 to 3,000,000 keys).
	// Valkey 8.1 grows at 100% with 7-slot buckets.
	maxFillPercent = 110
	// resizedFillPercent: a shrink picks the smallest array at which the fill is at most half
	// the maximum — the fill a growth leaves — so a table does not bounce between sizes.
	resizedFillPercent = maxFillPercent / 2
	// shrinkDivisor: a table shrinks when its fill drops under an eighth of the maximum
	// (13.75%, Valkey's 13%), so after a shrink it must double twice to grow again, and halve
	// twice to shrink again.
	shrinkDivisor = 8
	// hardFillPercent: if a resize is still running when the array that takes new entries is
	// this full (possible only after mass deletes during a growth, or mass inserts during a
	// shrink), the resize is finished at once, as Valkey does past its hard limit: chains of
	// four buckets cost more lookups than one long step.
	hardFillPercent = 4 * maxFillPercent

	// rehashZeroBuckets is how much of a new array one step clears: 64 buckets, one 4 KiB page
	// (so at most one page fault per step). A 64 MiB array (10M keys in one table) is cleared
	// over 16,384 steps instead of in one insert.
	rehashZeroBuckets = 64
	// rehashEmptyVisits is how many empty buckets one step may pass over (Redis: 10 per bucket
	// to move) before it stops without moving a chain. Passing one reads two bytes.
	rehashEmptyVisits = 64
)

// overFull reports whether n entries in size buckets pass the fill percent p.
func overFull(n, size uint64, p uint64) bool { return n*100 > size*bucketSlots*p }

// bucketsFor is the smallest power-of-two array in which n entries fill at most p percent.
func bucketsFor(n uint64, p uint64) uint64 {
	need := (n*100 + bucketSlots*p - 1) / (bucketSlots * p)
	if need <= 1 {
		return 1
	}
	return 1 << bits.Len64(need-1)
}

// resizeIfNeeded applies the resize policy after an insert or a delete: grow past
// maxFillPercent, shrink under shrinkFillPercent, give the array back when empty. During a
// resize it only guards the hard limit.
func (t *Table) resizeIfNeeded() {
	n := uint64(t.hdr.count.Load())
	if t.Resizing() {
		into := &t.hdr.ht[0]
		if t.Moving() {
			into = &t.hdr.ht[1]
		}
		if overFull(n, into.size, hardFillPercent) {
			t.finishResize()
		}
		return
	}
	size := t.hdr.ht[0].size
	switch {
	case size == 0:
	case n == 0 && t.hdr.floor == 0:
		if invariantsOn && t.hdr.children != 0 {
			panic("htable: an empty table still has child buckets")
		}
		t.freeArray(0)
	case overFull(n, size, maxFillPercent):
		grown := size * 2
		for overFull(n, grown, maxFillPercent) {
			grown *= 2
		}
		t.startResize(grown)
	case size > max(1, uint64(t.hdr.floor)) && n*100*shrinkDivisor < size*bucketSlots*maxFillPercent:
		t.startResize(bucketsFor(n, resizedFillPercent))
	}
}

// startResize allocates the next array and takes the first step (which clears all of a small
// array). Without memory for it the table stays as it is: chains absorb what comes.
func (t *Table) startResize(size uint64) {
	if !t.newArray(1, size) {
		return
	}
	t.hdr.zeroed, t.hdr.rehashIdx = 0, 0
	t.rehashStep()
}

// rehashStep does one bounded unit of resize work: clear rehashZeroBuckets buckets of the new
// array, or move one chain of the old one (passing at most rehashEmptyVisits empty buckets).
// It reports whether it made progress (false only when out of memory for a child bucket).
func (t *Table) rehashStep() bool {
	if !t.Resizing() {
		return true
	}
	if t.hdr.zeroed < t.hdr.ht[1].size {
		n := min(rehashZeroBuckets, t.hdr.ht[1].size-t.hdr.zeroed)
		clear(unsafe.Slice((*byte)(unsafe.Pointer(t.at(1, t.hdr.zeroed))), n*bucketSize))
		t.hdr.zeroed += n
		return true
	}
	old := &t.hdr.ht[0]
	for empty := 0; t.hdr.rehashIdx < old.size; {
		b := t.at(0, t.hdr.rehashIdx)
		if b.presence == 0 && b.chained == 0 {
			t.rehashPassed()
			if empty++; empty == rehashEmptyVisits {
				break
			}
			continue
		}
		if !t.moveChain(b) {
			return false
		}
		t.rehashPassed()
		break
	}
	if t.hdr.rehashIdx == old.size {
		t.freeArray(0)
		t.swapArrays()
		t.hdr.rehashIdx, t.hdr.zeroed = 0, 0
	}
	return true
}

// rehashPassed advances rehashIdx past a moved bucket, freeing the segment of ht[0] it
// finished.
func (t *Table) rehashPassed() {
	t.hdr.rehashIdx++
	if t.hdr.rehashIdx&segmentMask == 0 {
		t.freeSegment(0, int(t.hdr.rehashIdx>>segmentShift)-1)
	}
}

// moveChain moves every entry of the chain at head from ht[0] to ht[1], reading each key to
// hash it again (the tag holds only 8 bits of the hash), and frees the chain's children. Out of
// memory for a child in ht[1] it stops, keeps what is left (compacted) and reports false.
func (t *Table) moveChain(head *bucket) bool {
	for b := head; b != nil; b = t.next(b) {
		for m := b.presence; m != 0; m &= m - 1 {
			i := bits.TrailingZeros16(m)
			h := b.handles[i]
			if t.insertInto(1, Hash(t.keyOf(t.arena, h)), h) != nil {
				t.compactChain(head)
				return false
			}
			b.presence &^= 1 << i
		}
	}
	for ch := head.child(); ch != 0; {
		next := t.bucketAt(ch).child()
		t.freeBucket(ch)
		ch = next
	}
	head.chained = 0
	return true
}

// finishResize completes a resize at once (the hard limit).
func (t *Table) finishResize() {
	for t.Resizing() && t.rehashStep() {
	}
}

// Rehash does up to budget rehash steps — the cron's way to finish the resize of a table that
// no longer receives commands — and then applies the resize policy, so an idle table that
// emptied gives its array back. It reports whether a resize is still in progress.
func (t *Table) Rehash(budget int) bool {
	for ; budget > 0 && t.Resizing(); budget-- {
		if !t.rehashStep() {
			break
		}
	}
	if !t.Resizing() {
		t.resizeIfNeeded()
	}
	return t.Resizing()
}

// ExpandForLoad gives an empty table that is not resizing an array sized for n entries at
// most maxFillPercent full, cleared at once, and keeps a shrink from undoing it until
// EndLoad: loading a snapshot (RDB's RESIZEDB hint, Redis's dictExpand) then never resizes,
// where growing by doublings would move every entry about twice. Without memory for it the
// table stays as it is.
func (t *Table) ExpandForLoad(n uint64) {
	if t.hdr.count.Load() != 0 || t.Resizing() || n == 0 {
		return
	}
	size := bucketsFor(n, maxFillPercent)
	if size <= t.hdr.ht[0].size {
		return
	}
	// The new array is made as ht[1], which is free outside a resize, then takes ht[0]'s place.
	if !t.newArray(1, size) {
		return
	}
	for j := uint64(0); j < size; j += segmentBuckets {
		clear(unsafe.Slice((*byte)(unsafe.Pointer(t.at(1, j))), t.hdr.ht[1].segmentBytes()))
	}
	t.freeArray(0)
	t.swapArrays()
	t.hdr.floor = uint32(size)
}

// EndLoad lets the resize policy shrink the table again.
func (t *Table) EndLoad() { t.hdr.floor = 0 }
