package htable

import (
	"bytes"
	"errors"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// KeyFunc reads the key of the entry h from the arena: the key of a record in the keyspace, a
// field of a field+value entry in a hash, a member in a set. The view is used at once and never
// kept. It is a func value, not a type parameter: an indirect call either way (Go stencils by GC
// shape, and a method of a type parameter is called through the dictionary), and measured equal.
type KeyFunc func(a *alloc.Arena, h alloc.Handle) []byte

// ErrOOM is Insert's only error: the arena had no memory for a child bucket or an array.
var ErrOOM = errors.New("htable: out of memory")

// Table is one hash table (Redis's dict, Valkey's hashtable): a power-of-two array of buckets of
// entry handles, all of it in its owner's arena.
//
// While it resizes (resize.go) the table has two arrays: ht[0] the current one and ht[1] the
// next. ht[1] is first cleared a page at a time (the zeroing phase: ht[1] holds nothing yet and
// everything goes to ht[0]); then buckets move from ht[0] to ht[1] in index order (the moving
// phase: buckets of ht[0] below rehashIdx are moved — empty, their finished segments freed —
// new entries go to ht[1], lookups look in both). Every lookup, insert and delete does one
// bounded rehash step (resize.go).
//
// A table belongs to its owner (a keyspace shard): every method requires the owner's lock,
// except Len.
type Table struct {
	arena *alloc.Arena
	keyOf KeyFunc
	hdr   *header           // beside the Table (New), or the allocation root in the arena (Open)
	base  [2]unsafe.Pointer // address of hdr.ht[a].h (its only segment, or its directory)
	seg0  [2]unsafe.Pointer // address of segment 0 of ht[a] (base, or the directory's first)
	root  alloc.Handle      // the header's allocation when the table is rooted in the arena
}

// header is a table's whole state, pointer-free: a Table made by New keeps it beside the
// Table on the Go heap, a table rooted in the arena (Create) in a 64-byte allocation of it.
type header struct {
	ht        [2]bucketArray
	rehashIdx uint64 // moving phase: the next bucket of ht[0] to move
	zeroed    uint64 // buckets of ht[1] cleared so far; the moving phase starts when all are
	children  uint32 // child buckets allocated (each a 64-byte slab slot)
	floor     uint32 // while a snapshot loads: the array size a shrink keeps (ExpandForLoad)

	// count is the number of entries. Written under the owner's lock; read by anyone (DBSIZE
	// and INFO read it without the lock).
	count atomic.Int64
}

// headerSize is the size of a header: one 64-byte slab slot, one cache line.
const headerSize = 64

var (
	_ [headerSize - unsafe.Sizeof(header{})]byte
	_ [unsafe.Sizeof(header{}) - headerSize]byte
)

// Position is where an entry sits. It is valid until the table is next changed.
type Position struct {
	head *bucket // first bucket of the entry's chain
	b    *bucket // the bucket holding the entry
	slot int
}

// Handle is the entry at p.
func (p Position) Handle() alloc.Handle { return p.b.handles[p.slot] }

// New makes an empty table in arena a whose entries' keys keyOf reads. It holds no arena
// memory until the first Insert.
func New(a *alloc.Arena, keyOf KeyFunc) *Table {
	g := &struct {
		t Table
		h header
	}{t: Table{arena: a, keyOf: keyOf}}
	g.t.hdr = &g.h
	return &g.t
}

// Len is the number of entries.
func (t *Table) Len() int64 { return t.hdr.count.Load() }

// Resizing reports whether a second array exists (zeroing or moving phase).
func (t *Table) Resizing() bool { return t.hdr.ht[1].size != 0 }

// Moving reports whether entries are moving from ht[0] to ht[1].
func (t *Table) Moving() bool { return t.hdr.ht[1].size != 0 && t.hdr.zeroed == t.hdr.ht[1].size }

// at returns bucket i of ht[a]: an add in segment 0 (all of an array of one segment), a load
// of the segment's handle from the directory first past it.
func (t *Table) at(a int, i uint64) *bucket {
	if i < segmentBuckets {
		return (*bucket)(unsafe.Add(t.seg0[a], uintptr(i)*bucketSize))
	}
	h := *(*alloc.Handle)(unsafe.Add(t.base[a], (i>>segmentShift)*4))
	base := unsafe.Pointer(unsafe.SliceData(t.arena.Bytes(h, segmentBuckets*bucketSize)))
	return (*bucket)(unsafe.Add(base, uintptr(i&segmentMask)*bucketSize))
}

// swapArrays makes ht[1] ht[0] and leaves ht[1] without an array.
func (t *Table) swapArrays() {
	t.hdr.ht[0], t.hdr.ht[1] = t.hdr.ht[1], bucketArray{}
	t.base[0], t.base[1] = t.base[1], nil
	t.seg0[0], t.seg0[1] = t.seg0[1], nil
}

// segment is the handle of segment j of ht[a], 0 if it was freed.
func (t *Table) segment(a, j int) alloc.Handle {
	if !t.hdr.ht[a].directory() {
		return t.hdr.ht[a].h
	}
	return *(*alloc.Handle)(unsafe.Add(t.base[a], j*4))
}

// bucketAt returns the child bucket h.
func (t *Table) bucketAt(h alloc.Handle) *bucket {
	return (*bucket)(unsafe.Pointer(unsafe.SliceData(t.arena.Bytes(h, bucketSize))))
}

// next returns the bucket after b in its chain, nil at the end.
func (t *Table) next(b *bucket) *bucket {
	if b.chained == 0 {
		return nil
	}
	return t.bucketAt(b.handles[childSlot])
}

// Find returns the Position of key (whose hash is hash). It does one rehash step first.
func (t *Table) Find(key []byte, hash uint64) (Position, bool) {
	if t.Resizing() {
		t.rehashStep()
	}
	tag := Tag(hash)
	if t.hdr.ht[0].size != 0 {
		if i := hash & t.hdr.ht[0].mask(); !t.Moving() || i >= t.hdr.rehashIdx {
			if p, ok := t.findInChain(t.at(0, i), tag, key); ok {
				return p, true
			}
		}
	}
	if t.Moving() {
		return t.findInChain(t.at(1, hash&t.hdr.ht[1].mask()), tag, key)
	}
	return Position{}, false
}

// findInChain looks for key in the chain starting at head: tags first, key bytes where they
// match.
func (t *Table) findInChain(head *bucket, tag uint8, key []byte) (Position, bool) {
	for b := head; b != nil; b = t.next(b) {
		for m := b.presence; m != 0; m &= m - 1 {
			i := bits.TrailingZeros16(m)
			if b.tags[i] == tag && bytes.Equal(t.keyOf(t.arena, b.handles[i]), key) {
				return Position{head, b, i}, true
			}
		}
	}
	return Position{}, false
}

// FindMatch returns the Position of the first entry in hash's chains (both arrays while
// moving) whose tag matches and for which match is true. It does no rehash step.
func (t *Table) FindMatch(hash uint64, match func(h alloc.Handle) bool) (Position, bool) {
	tag := Tag(hash)
	for a := range t.hdr.ht {
		arr := &t.hdr.ht[a]
		if arr.size == 0 || (a == 1 && !t.Moving()) {
			continue
		}
		i := hash & arr.mask()
		if t.moved(a, i) {
			continue
		}
		head := t.at(a, i)
		for b := head; b != nil; b = t.next(b) {
			for m := b.presence; m != 0; m &= m - 1 {
				if i := bits.TrailingZeros16(m); b.tags[i] == tag && match(b.handles[i]) {
					return Position{head, b, i}, true
				}
			}
		}
	}
	return Position{}, false
}

// Insert adds the entry h of hash hash, whose key must not be in the table (callers find
// first). It does one rehash step, and may start a resize. The only error is ErrOOM (no memory
// for a child bucket).
func (t *Table) Insert(hash uint64, h alloc.Handle) error {
	if t.Resizing() {
		t.rehashStep()
	}
	if t.hdr.ht[0].size == 0 {
		if !t.newArray(0, 1) {
			return ErrOOM
		}
		clear(unsafe.Slice((*byte)(t.base[0]), bucketSize))
	}
	into := 0
	if t.Moving() {
		into = 1
	}
	if err := t.insertInto(into, hash, h); err != nil {
		return err
	}
	t.hdr.count.Store(t.hdr.count.Load() + 1)
	t.resizeIfNeeded()
	return nil
}

// insertInto puts an entry in the first free slot of its chain in ht[a], chaining a new
// bucket when the chain is full.
func (t *Table) insertInto(a int, hash uint64, h alloc.Handle) error {
	tag := Tag(hash)
	b := t.at(a, hash&t.hdr.ht[a].mask())
	for {
		if free := b.freeSlots(); free != 0 {
			b.put(bits.TrailingZeros16(free), tag, h)
			return nil
		}
		if b.chained == 0 {
			// Full and last: the last entry moves to a new child, whose handle takes its slot.
			ch := t.arena.Alloc(bucketSize)
			if ch == 0 {
				return ErrOOM
			}
			t.hdr.children++
			c := t.bucketAt(ch)
			*c = bucket{}
			c.put(0, b.tags[childSlot], b.handles[childSlot])
			b.presence &^= 1 << childSlot
			b.handles[childSlot] = ch
			b.chained = 1
			b = c
			continue
		}
		b = t.next(b)
	}
}

// ReplaceAt makes the entry at p name record h (the same key: its hash and tag are unchanged).
func (t *Table) ReplaceAt(p Position, h alloc.Handle) { p.b.handles[p.slot] = h }

// DeleteAt removes the entry at p (from a find just before), compacts its chain and may start
// a shrink.
func (t *Table) DeleteAt(p Position) {
	p.b.presence &^= 1 << p.slot
	t.compactChain(p.head)
	t.hdr.count.Store(t.hdr.count.Load() - 1)
	t.resizeIfNeeded()
}

// compactChain moves entries from the last bucket of a chain into holes of the buckets before
// it, and frees the last bucket when it empties, as long as that shortens the chain. Entries
// stay in their chain, so a SCAN in progress is not affected.
func (t *Table) compactChain(head *bucket) {
	for head.chained != 0 {
		parent, last := head, t.next(head)
		holes := bits.OnesCount16(head.freeSlots())
		for last.chained != 0 {
			parent, last = last, t.next(last)
			holes += bits.OnesCount16(parent.freeSlots())
		}
		n := last.entries()
		// Freeing last also frees parent's child slot: one more hole.
		if n > holes+1 {
			return
		}
		for b := head; b != last && last.presence != 0; b = t.next(b) {
			for free := b.freeSlots(); free != 0 && last.presence != 0; free &= free - 1 {
				j := bits.TrailingZeros16(last.presence)
				b.put(bits.TrailingZeros16(free), last.tags[j], last.handles[j])
				last.presence &^= 1 << j
			}
		}
		var tag uint8
		var h alloc.Handle
		keep := last.presence != 0 // exactly one entry left: it takes parent's child slot
		if keep {
			j := bits.TrailingZeros16(last.presence)
			tag, h = last.tags[j], last.handles[j]
		}
		t.freeBucket(parent.handles[childSlot])
		parent.chained = 0
		if keep {
			parent.put(childSlot, tag, h)
		}
	}
}

// freeBucket frees a child bucket.
func (t *Table) freeBucket(h alloc.Handle) {
	t.arena.Free(h, bucketSize)
	t.hdr.children--
}

// newArray gives ht[a], which has no array, an array of size buckets (contents undefined): one
// segment, or a directory and its segments. Out of memory it leaves ht[a] without an array.
func (t *Table) newArray(a int, size uint64) bool {
	arr := bucketArray{size: size}
	if !arr.directory() {
		arr.h = t.arena.Alloc(arr.segmentBytes())
		if arr.h == 0 {
			return false
		}
		t.setArray(a, arr)
		return true
	}
	arr.h = t.arena.Alloc(arr.directoryBytes())
	if arr.h == 0 {
		return false
	}
	clear(t.arena.Bytes(arr.h, arr.directoryBytes()))
	t.setArray(a, arr)
	dir := unsafe.Slice((*alloc.Handle)(t.base[a]), arr.segments())
	for j := range dir {
		if dir[j] = t.arena.Alloc(arr.segmentBytes()); dir[j] == 0 {
			t.freeArray(a)
			return false
		}
	}
	t.seg0[a] = unsafe.Pointer(unsafe.SliceData(t.arena.Bytes(dir[0], arr.segmentBytes())))
	return true
}

// setArray makes arr ht[a] and computes its addresses.
func (t *Table) setArray(a int, arr bucketArray) {
	t.hdr.ht[a] = arr
	t.base[a], t.seg0[a] = nil, nil
	if arr.h == 0 {
		return
	}
	if !arr.directory() {
		t.base[a] = unsafe.Pointer(unsafe.SliceData(t.arena.Bytes(arr.h, arr.segmentBytes())))
		t.seg0[a] = t.base[a]
		return
	}
	t.base[a] = unsafe.Pointer(unsafe.SliceData(t.arena.Bytes(arr.h, arr.directoryBytes())))
	if h := *(*alloc.Handle)(t.base[a]); h != 0 {
		t.seg0[a] = unsafe.Pointer(unsafe.SliceData(t.arena.Bytes(h, arr.segmentBytes())))
	}
}

// freeSegment frees segment j of ht[a]. The only segment of an array is its h, which stays
// set until freeArray.
func (t *Table) freeSegment(a, j int) {
	arr := &t.hdr.ht[a]
	if !arr.directory() {
		if arr.h != 0 {
			t.arena.Free(arr.h, arr.segmentBytes())
			arr.h, t.base[a], t.seg0[a] = 0, nil, nil
		}
		return
	}
	slot := (*alloc.Handle)(unsafe.Add(t.base[a], j*4))
	if *slot != 0 {
		t.arena.Free(*slot, arr.segmentBytes())
		*slot = 0
		if j == 0 {
			t.seg0[a] = nil
		}
	}
}

// freeArray frees what is left of ht[a] (segments, directory) and forgets it.
func (t *Table) freeArray(a int) {
	arr := &t.hdr.ht[a]
	if arr.directory() {
		for j := range arr.segments() {
			t.freeSegment(a, j)
		}
		t.arena.Free(arr.h, arr.directoryBytes())
	} else {
		t.freeSegment(a, 0)
	}
	t.setArray(a, bucketArray{})
}

// moved reports whether bucket i of ht[a] has been moved by the resize in progress: it is
// empty, and its segment may be freed already.
func (t *Table) moved(a int, i uint64) bool { return a == 0 && t.Moving() && i < t.hdr.rehashIdx }

// Clear calls fn for every entry, then frees every bucket: the table is empty and holds no
// memory afterwards. fn must not use the table.
func (t *Table) Clear(fn func(h alloc.Handle)) {
	for a := range t.hdr.ht {
		arr := &t.hdr.ht[a]
		if a == 1 && !t.Moving() {
			t.freeArray(a) // being cleared: holds no entries, maybe garbage
			continue
		}
		for i := uint64(0); i < arr.size; i++ {
			if t.moved(a, i) {
				continue
			}
			var cur alloc.Handle // b's handle; 0 for the head, which belongs to the array
			for b := t.at(a, i); ; {
				for m := b.presence; m != 0; m &= m - 1 {
					fn(b.handles[bits.TrailingZeros16(m)])
				}
				next := b.child()
				if cur != 0 {
					t.freeBucket(cur)
				}
				if next == 0 {
					break
				}
				cur, b = next, t.bucketAt(next)
			}
		}
		t.freeArray(a)
	}
	t.hdr.rehashIdx, t.hdr.zeroed = 0, 0
	t.hdr.count.Store(0)
}

// Bytes is the memory the table holds in its arena: its arrays (segments and directories),
// child buckets and, rooted in the arena, its header.
func (t *Table) Bytes() int64 {
	n := int64(t.hdr.children) * bucketSize
	if t.root != 0 {
		n += int64(alloc.UsableSize(headerSize))
	}
	for a := range t.hdr.ht {
		arr := &t.hdr.ht[a]
		if arr.size == 0 {
			continue
		}
		if arr.directory() {
			n += int64(alloc.UsableSize(arr.directoryBytes()))
		}
		for j := range arr.segments() {
			if t.segment(a, j) != 0 {
				n += int64(alloc.UsableSize(arr.segmentBytes()))
			}
		}
	}
	return n
}
