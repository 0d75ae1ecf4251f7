package setval

import (
	"encoding/binary"

	"github.com/kvserver/kvserver/alloc"
)

// A hash-table set's entry is one allocation of the arena: the member's length as a uvarint
// (1 byte below 128 bytes), then the member. The table keeps only the entry's handle and reads
// the member back through memberOf; the entry's size is computed from its content, so freeing
// it needs nothing else.

// maxLenBytes is the longest uvarint of a member length (members are below 4 GiB), and at most
// the smallest slot (alloc.Quantum): reading that many bytes of any entry stays inside it.
const maxLenBytes = 5

// entrySize is the size of the entry holding a member of n bytes.
func entrySize(n int) int { return uvarintLen(uint64(n)) + n }

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// newEntry makes the entry of member m, or returns 0 without memory.
func newEntry(a *alloc.Arena, m []byte) alloc.Handle {
	size := entrySize(len(m))
	h := a.Alloc(size)
	if h == 0 {
		return 0
	}
	b := a.Bytes(h, size)
	n := binary.PutUvarint(b, uint64(len(m)))
	copy(b[n:], m)
	return h
}

// entryHeader returns the member's length and where it starts in entry h.
func entryHeader(a *alloc.Arena, h alloc.Handle) (n, off int) {
	b := a.Bytes(h, 1)
	if b[0] < 0x80 {
		return int(b[0]), 1
	}
	v, k := binary.Uvarint(a.Bytes(h, maxLenBytes))
	return int(v), k
}

// memberOf is the tables' KeyFunc: a view of entry h's member, valid until the entry is freed.
func memberOf(a *alloc.Arena, h alloc.Handle) []byte {
	n, off := entryHeader(a, h)
	return a.Bytes(h, off+n)[off:]
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
