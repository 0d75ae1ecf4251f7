package zsetval

import (
	"encoding/binary"
	"math"

	"github.com/kvserver/kvserver/alloc"
)

// A skiplist set's entry is one allocation of the arena: the score (8 bytes, the float64's bits,
// little-endian), the member's length as a uvarint (1 byte below 128 bytes), then the member.
// The hash table and the index keep only the entry's handle and read the member and the score
// back through memberOf and entryOf; a score changes in place (the entry's size does not
// depend on it), and the entry's size is computed from its content, so freeing it needs nothing
// else.

// scoreBytes is the size of the score at the start of an entry.
const scoreBytes = 8

// maxLenBytes is the longest uvarint of a member length (members are below 4 GiB); an entry
// is at least 9 bytes, so reading scoreBytes+maxLenBytes (13) stays inside its 16-byte slot.
const maxLenBytes = 5

// entrySize is the size of the entry holding a member of n bytes.
func entrySize(n int) int { return scoreBytes + uvarintLen(uint64(n)) + n }

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// newEntry makes the entry of member m with score s, or returns 0 without memory.
func newEntry(a *alloc.Arena, m []byte, s float64) alloc.Handle {
	size := entrySize(len(m))
	h := a.Alloc(size)
	if h == 0 {
		return 0
	}
	b := a.Bytes(h, size)
	binary.LittleEndian.PutUint64(b, math.Float64bits(s))
	n := binary.PutUvarint(b[scoreBytes:], uint64(len(m)))
	copy(b[scoreBytes+n:], m)
	return h
}

// entryHeader returns the member's length and where it starts in entry h.
func entryHeader(a *alloc.Arena, h alloc.Handle) (n, off int) {
	b := a.Bytes(h, scoreBytes+1)
	if b[scoreBytes] < 0x80 {
		return int(b[scoreBytes]), scoreBytes + 1
	}
	v, k := binary.Uvarint(a.Bytes(h, scoreBytes+maxLenBytes)[scoreBytes:])
	return int(v), scoreBytes + k
}

// memberOf is the table's KeyFunc: a view of entry h's member, valid until the entry is freed.
func memberOf(a *alloc.Arena, h alloc.Handle) []byte {
	n, off := entryHeader(a, h)
	return a.Bytes(h, off+n)[off:]
}

// scoreOf is entry h's score.
func scoreOf(a *alloc.Arena, h alloc.Handle) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(a.Bytes(h, scoreBytes)))
}

// setScore changes entry h's score in place.
func setScore(a *alloc.Arena, h alloc.Handle, s float64) {
	binary.LittleEndian.PutUint64(a.Bytes(h, scoreBytes), math.Float64bits(s))
}

// entryOf is the index's EntryFunc: entry h's score and member.
func entryOf(a *alloc.Arena, h alloc.Handle) (float64, []byte) {
	b := a.Bytes(h, scoreBytes+1)
	s := math.Float64frombits(binary.LittleEndian.Uint64(b))
	if n := int(b[scoreBytes]); n < 0x80 {
		return s, a.Bytes(h, scoreBytes+1+n)[scoreBytes+1:]
	}
	return s, memberOf(a, h)
}

// freeEntry frees entry h.
func freeEntry(a *alloc.Arena, h alloc.Handle) {
	n, off := entryHeader(a, h)
	a.Free(h, off+n)
}

// entryAllocSize is what entry h is charged.
func entryAllocSize(a *alloc.Arena, h alloc.Handle) int {
	n, off := entryHeader(a, h)
	return alloc.UsableSize(off + n)
}
