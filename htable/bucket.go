package htable

import (
	"math/bits"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// A bucket is one 64-byte cache line of a table, Valkey 8.1's shape with 32-bit handles:
//
//	offset  0  tags      12 × 1 byte: the top 8 bits of each entry's hash
//	       12  presence  12 bits: slot i holds an entry
//	       14  chained   1 when slot 11 holds the handle of a child bucket instead of an entry
//	       15  (unused)
//	       16  handles   12 × 4 bytes: record handles (slot 11: the child bucket when chained)
//
// A full bucket gets a child (a 64-byte slab slot of the shard's arena) and its last entry moves
// there, so a chained bucket holds 11 entries and its chain continues. All buckets of a chain
// belong to one bucket index: an entry never leaves the chain its hash selects, which is what
// SCAN's guarantee rests on.
type bucket struct {
	tags     [bucketSlots]uint8
	presence uint16
	chained  uint8
	_        uint8
	handles  [bucketSlots]alloc.Handle
}

const (
	// bucketSize is one cache line: a lookup that finds its key in the first bucket of a chain
	// touches one line of the table.
	bucketSize = 64
	// bucketSlots is as many (4-byte handle, 1-byte tag) pairs as fit in a line beside the
	// 2-byte presence bitmap and the chained flag: 12 × 5 + 3 = 63 ≤ 64.
	bucketSlots = 12
	// childSlot is the slot that holds the child bucket's handle in a chained bucket.
	childSlot = bucketSlots - 1

	allSlots     = 1<<bucketSlots - 1 // presence bits of an unchained bucket
	chainedSlots = 1<<childSlot - 1   // presence bits of a chained bucket
)

// The layout above is the whole point: make a wrong field order a compile error.
var (
	_ [bucketSize - unsafe.Sizeof(bucket{})]byte
	_ [unsafe.Sizeof(bucket{}) - bucketSize]byte
	_ [16 - unsafe.Offsetof(bucket{}.handles)]byte
)

// usable is the bucket's mask of slots that may hold entries.
func (b *bucket) usable() uint16 {
	if b.chained != 0 {
		return chainedSlots
	}
	return allSlots
}

// freeSlots is the mask of the bucket's slots that could take an entry now.
func (b *bucket) freeSlots() uint16 { return ^b.presence & b.usable() }

// entries is the number of entries in the bucket itself (not its chain).
func (b *bucket) entries() int { return bits.OnesCount16(b.presence) }

// put stores an entry in free slot i.
func (b *bucket) put(i int, tag uint8, h alloc.Handle) {
	b.tags[i], b.handles[i] = tag, h
	b.presence |= 1 << i
}

// child is the handle of the bucket's child, 0 if it is the last of its chain.
func (b *bucket) child() alloc.Handle {
	if b.chained == 0 {
		return 0
	}
	return b.handles[childSlot]
}

// bucketArray is one power-of-two array of buckets, made of segments of at most
// segmentBuckets buckets: each a single allocation of the shard's arena (a slab slot up to
// 32 KiB, a page run above). A segment is given back as soon as a resize has moved all of its
// buckets, so no single operation frees more than one segment.
//
// It is part of a table's header, so it holds no pointer: h is the array's only segment while
// it has at most segmentBuckets buckets, else a directory, one allocation of its segments'
// handles (a freed segment's is 0). The Table view keeps the address of h (base), the one
// value a header cannot store.
type bucketArray struct {
	size uint64       // number of buckets; 0 when there is no array
	h    alloc.Handle // the only segment, or the directory; 0 when freed
	_    uint32
}

const (
	// segmentShift makes a segment 2 MiB (32,768 buckets): alloc's largest page run. A larger
	// allocation is a mapping of its own, and unmapping a 32 MiB array when a resize completes
	// costs milliseconds (2.3 ms measured), all in one insert; releasing 2 MiB costs a tenth.
	segmentShift   = 15
	segmentBuckets = 1 << segmentShift
	segmentMask    = segmentBuckets - 1
)

var _ [alloc.MaxRunSize - segmentBuckets*bucketSize]byte // a segment is one page run, no more

// mask selects a bucket index from a hash.
func (ba *bucketArray) mask() uint64 { return ba.size - 1 }

// segments is the number of segments of the array.
func (ba *bucketArray) segments() int { return int(max(ba.size>>segmentShift, 1)) }

// directory reports whether the array's segments are reached through a directory.
func (ba *bucketArray) directory() bool { return ba.size > segmentBuckets }

// directoryBytes is the allocation size of the array's directory.
func (ba *bucketArray) directoryBytes() int { return ba.segments() * 4 }

// segmentBytes is the allocation size of each of the array's segments.
func (ba *bucketArray) segmentBytes() int { return int(min(ba.size, segmentBuckets)) * bucketSize }
