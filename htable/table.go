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

	ht        [2]bucketArray
	rehashIdx uint64 // moving phase: the next bucket of ht[0] to move
	zeroed    uint64 // buckets of ht[1] cleared so far; the moving phase starts when all are
	children  int64  // child buckets allocated (each a 64-byte slab slot)
	floor     uint64 // while a snapshot loads: the array size a shrink keeps (ExpandForLoad)

	// count is the number of entries. Written under the owner's lock; read by anyone (DBSIZE
	// and INFO read it without the lock).
	count atomic.Int64
}

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
func New(a *alloc.Arena, keyOf KeyFunc) *Table { return &Table{arena: a, keyOf: keyOf} }

// Len is the number of entries.
func (t *Table) Len() int64 { return t.count.Load() }

// Resizing reports whether a second array exists (zeroing or moving phase).
func (t *Table) Resizing() bool { return t.ht[1].size != 0 }

// Moving reports whether entries are moving from ht[0] to ht[1].
func (t *Table) Moving() bool { return t.ht[1].size != 0 && t.zeroed == t.ht[1].size }

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
	if t.ht[0].size != 0 {
		if i := hash & t.ht[0].mask(); !t.Moving() || i >= t.rehashIdx {
			if p, ok := t.findInChain(t.ht[0].at(i), tag, key); ok {
				return p, true
			}
		}
	}
	if t.Moving() {
		return t.findInChain(t.ht[1].at(hash&t.ht[1].mask()), tag, key)
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
	for a := range t.ht {
		arr := &t.ht[a]
		if arr.size == 0 || (a == 1 && !t.Moving()) {
			continue
		}
		i := hash & arr.mask()
		if t.moved(a, i) {
			continue
		}
		head := arr.at(i)
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
	if t.ht[0].size == 0 {
		arr, ok := t.newArray(1)
		if !ok {
			return ErrOOM
		}
		clear(unsafe.Slice((*byte)(arr.segs[0].base), bucketSize))
		t.ht[0] = arr
	}
	arr := &t.ht[0]
	if t.Moving() {
		arr = &t.ht[1]
	}
	if err := t.insertInto(arr, hash, h); err != nil {
		return err
	}
	t.count.Store(t.count.Load() + 1)
	t.resizeIfNeeded()
	return nil
}

// insertInto puts an entry in the first free slot of its chain in arr, chaining a new bucket
// when the chain is full.
func (t *Table) insertInto(arr *bucketArray, hash uint64, h alloc.Handle) error {
	tag := Tag(hash)
	b := arr.at(hash & arr.mask())
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
			t.children++
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
	t.count.Store(t.count.Load() - 1)
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
	t.children--
}

// newArray allocates an array of size buckets (contents undefined).
func (t *Table) newArray(size uint64) (bucketArray, bool) {
	arr := bucketArray{size: size, segs: make([]segment, max(size>>segmentShift, 1))}
	n := arr.segmentBytes()
	for j := range arr.segs {
		h := t.arena.Alloc(n)
		if h == 0 {
			t.freeArray(&arr)
			return bucketArray{}, false
		}
		arr.segs[j] = segment{h, unsafe.Pointer(unsafe.SliceData(t.arena.Bytes(h, n)))}
	}
	return arr, true
}

// freeSegment frees segment j of arr.
func (t *Table) freeSegment(arr *bucketArray, j int) {
	if arr.segs[j].h != 0 {
		t.arena.Free(arr.segs[j].h, arr.segmentBytes())
		arr.segs[j] = segment{}
	}
}

// freeArray frees what is left of an array and forgets it.
func (t *Table) freeArray(arr *bucketArray) {
	for j := range arr.segs {
		t.freeSegment(arr, j)
	}
	*arr = bucketArray{}
}

// moved reports whether bucket i of ht[a] has been moved by the resize in progress: it is
// empty, and its segment may be freed already.
func (t *Table) moved(a int, i uint64) bool { return a == 0 && t.Moving() && i < t.rehashIdx }

// Clear calls fn for every entry, then frees every bucket: the table is empty and holds no
// memory afterwards. fn must not use the table.
func (t *Table) Clear(fn func(h alloc.Handle)) {
	for a := range t.ht {
		arr := &t.ht[a]
		if a == 1 && !t.Moving() {
			t.freeArray(arr) // being cleared: holds no entries, maybe garbage
			continue
		}
		for i := uint64(0); i < arr.size; i++ {
			if t.moved(a, i) {
				continue
			}
			var cur alloc.Handle // b's handle; 0 for the head, which belongs to the array
			for b := arr.at(i); ; {
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
		t.freeArray(arr)
	}
	t.rehashIdx, t.zeroed = 0, 0
	t.count.Store(0)
}

// Bytes is the memory the table holds in its arena: its arrays and child buckets.
func (t *Table) Bytes() int64 {
	n := t.children * bucketSize
	for a := range t.ht {
		for _, seg := range t.ht[a].segs {
			if seg.h != 0 {
				n += int64(alloc.UsableSize(t.ht[a].segmentBytes()))
			}
		}
	}
	return n
}
