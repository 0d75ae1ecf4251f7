package zindex

import (
	"math"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// Node sizes. Both kinds are one arena slab slot of a size class (512 bytes is a class), so a
// node costs exactly its size; doc.go records why these sizes.
const (
	leafSize  = 512
	innerSize = 512

	leafHeader  = 12 // n, pad, prev, next
	innerHeader = 4  // n, pad

	// leafCap is the number of entries of a full leaf: a 32-bit score key and a handle each.
	leafCap = (leafSize - leafHeader) / 8
	// innerCap is the number of children of a full inner node: a child handle, its subtree's
	// entry count, and its separator (the child's first entry: its handle and score key).
	innerCap = (innerSize - innerHeader) / 16

	// leafMin and innerMin are the fill every node keeps after a delete, the root and the
	// rightmost node of each level excepted (a sorted load fills nodes completely and leaves the
	// last one of each level with what remains).
	leafMin  = leafCap / 2
	innerMin = innerCap / 2

	// maxHeight bounds the number of levels: with innerMin ≥ 12 children per inner node and
	// leafMin ≥ 31 entries per leaf, 2^32 entries need at most 8 levels.
	maxHeight = 16
)

// leaf holds up to leafCap entries in order: the entry's handle and an order-preserving 32-bit
// key of its score (scoreKey), so that most comparisons during a search read the leaf only.
// Leaves are linked both ways in order (0 ends the list).
type leaf struct {
	n    uint16
	_    uint16
	prev alloc.Handle
	next alloc.Handle
	keys [leafCap]uint32
	hs   [leafCap]alloc.Handle
}

// inner holds up to innerCap children in order: for child i, its handle kids[i], the number of
// entries under it counts[i], and its first entry sepH[i] with that entry's score key keys[i]:
// every entry under child i sorts at or after that entry and before child i+1's. Each array is
// contiguous, so a search reads the keys' few cache lines, then one line of counts and kids.
type inner struct {
	n      uint16
	_      uint16
	keys   [innerCap]uint32
	sepH   [innerCap]alloc.Handle
	kids   [innerCap]alloc.Handle
	counts [innerCap]uint32
}

// Compile-time checks that the layouts fit their slots.
var (
	_ [leafSize - unsafe.Sizeof(leaf{})]byte
	_ [innerSize - unsafe.Sizeof(inner{})]byte
)

func (ix Index) leaf(h alloc.Handle) *leaf {
	return (*leaf)(unsafe.Pointer(unsafe.SliceData(ix.a.Bytes(h, leafSize))))
}

func (ix Index) inner(h alloc.Handle) *inner {
	return (*inner)(unsafe.Pointer(unsafe.SliceData(ix.a.Bytes(h, innerSize))))
}

// scoreKey maps a score (not NaN) to 32 bits whose unsigned order agrees with the scores'
// order: a < b ⇒ scoreKey(a) ≤ scoreKey(b). It is the top half of the IEEE bits made monotone
// (negative numbers inverted, positive ones with the sign bit set); -0 counts as +0, as the
// scores compare equal.
func scoreKey(s float64) uint32 {
	if s == 0 {
		return 1 << 31
	}
	b := math.Float64bits(s)
	if b>>63 != 0 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	return uint32(b >> 32)
}

// total is the number of entries under inner node in.
func (in *inner) total() int {
	t := 0
	for _, c := range in.counts[:in.n] {
		t += int(c)
	}
	return t
}

// insertKid opens slot i of in and puts child (kid, count, first entry) there.
func (in *inner) insertKid(i int, kid alloc.Handle, count uint32, key uint32, h alloc.Handle) {
	n := int(in.n)
	copy(in.kids[i+1:n+1], in.kids[i:n])
	copy(in.counts[i+1:n+1], in.counts[i:n])
	copy(in.keys[i+1:n+1], in.keys[i:n])
	copy(in.sepH[i+1:n+1], in.sepH[i:n])
	in.kids[i], in.counts[i], in.keys[i], in.sepH[i] = kid, count, key, h
	in.n++
}

// removeKid closes slot i of in.
func (in *inner) removeKid(i int) {
	n := int(in.n)
	copy(in.kids[i:n-1], in.kids[i+1:n])
	copy(in.counts[i:n-1], in.counts[i+1:n])
	copy(in.keys[i:n-1], in.keys[i+1:n])
	copy(in.sepH[i:n-1], in.sepH[i+1:n])
	in.n--
}

// moveKids moves k children of src starting at slot from into dst at slot to (dst's slots from
// `to` on are shifted right; src's closed), and returns the number of entries moved.
func moveKids(dst *inner, to int, src *inner, from, k int) int {
	dn, sn := int(dst.n), int(src.n)
	copy(dst.kids[to+k:dn+k], dst.kids[to:dn])
	copy(dst.counts[to+k:dn+k], dst.counts[to:dn])
	copy(dst.keys[to+k:dn+k], dst.keys[to:dn])
	copy(dst.sepH[to+k:dn+k], dst.sepH[to:dn])
	copy(dst.kids[to:to+k], src.kids[from:from+k])
	copy(dst.counts[to:to+k], src.counts[from:from+k])
	copy(dst.keys[to:to+k], src.keys[from:from+k])
	copy(dst.sepH[to:to+k], src.sepH[from:from+k])
	moved := 0
	for _, c := range src.counts[from : from+k] {
		moved += int(c)
	}
	copy(src.kids[from:sn-k], src.kids[from+k:sn])
	copy(src.counts[from:sn-k], src.counts[from+k:sn])
	copy(src.keys[from:sn-k], src.keys[from+k:sn])
	copy(src.sepH[from:sn-k], src.sepH[from+k:sn])
	dst.n += uint16(k)
	src.n -= uint16(k)
	return moved
}

// insertAt opens slot i of l and puts the entry (key, h) there.
func (l *leaf) insertAt(i int, key uint32, h alloc.Handle) {
	n := int(l.n)
	copy(l.keys[i+1:n+1], l.keys[i:n])
	copy(l.hs[i+1:n+1], l.hs[i:n])
	l.keys[i], l.hs[i] = key, h
	l.n++
}

// removeRun closes slots i to i+m-1 of l.
func (l *leaf) removeRun(i, m int) {
	n := int(l.n)
	copy(l.keys[i:n-m], l.keys[i+m:n])
	copy(l.hs[i:n-m], l.hs[i+m:n])
	l.n -= uint16(m)
}

// moveEntries moves k entries of src starting at slot from into dst at slot to.
func moveEntries(dst *leaf, to int, src *leaf, from, k int) {
	dn, sn := int(dst.n), int(src.n)
	copy(dst.keys[to+k:dn+k], dst.keys[to:dn])
	copy(dst.hs[to+k:dn+k], dst.hs[to:dn])
	copy(dst.keys[to:to+k], src.keys[from:from+k])
	copy(dst.hs[to:to+k], src.hs[from:from+k])
	copy(src.keys[from:sn-k], src.keys[from+k:sn])
	copy(src.hs[from:sn-k], src.hs[from+k:sn])
	dst.n += uint16(k)
	src.n -= uint16(k)
}
