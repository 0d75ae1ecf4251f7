package htable

import (
	"math/bits"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// A table rooted in the arena is what a hash or a set that outgrew its listpack keeps: no Go
// memory at all. Its header (64 bytes, pointer-free) is one allocation of the owner's arena,
// named by the handle Create returns, which the key's record holds; it never moves while the
// table lives, whatever the table does. A command opens a view of it (Open), a Table value on
// its stack, and uses every method of Table through it; the view writes through to the header,
// so there is nothing to write back and a view may simply be dropped. Arrays of more than one
// segment keep their segments' handles in a directory allocation (bucketArray).

// Create makes an empty table rooted in arena a and returns the handle of its header; without
// memory it returns ErrOOM. The table holds no other memory until its first Insert.
func Create(a *alloc.Arena) (alloc.Handle, error) {
	root := a.Alloc(headerSize)
	if root == 0 {
		return 0, ErrOOM
	}
	clear(a.Bytes(root, headerSize))
	return root, nil
}

// Open returns a view of the table rooted at root in arena a, whose entries' keys keyOf reads.
// It allocates nothing: keep the view on the stack for one command, under the owner's lock, and
// do not keep it past the command (another view may change the table's arrays). Opening costs
// an address computation per array.
func Open(a *alloc.Arena, keyOf KeyFunc, root alloc.Handle) Table {
	t := Table{arena: a, keyOf: keyOf, root: root,
		hdr: (*header)(unsafe.Pointer(unsafe.SliceData(a.Bytes(root, headerSize))))}
	for i := range t.hdr.ht {
		t.setArray(i, t.hdr.ht[i])
	}
	return t
}

// Root is the handle of the table's header in the arena, 0 for a table made by New.
func (t *Table) Root() alloc.Handle { return t.root }

// Destroy frees a table rooted in the arena: it calls fn for every entry (the entries are the
// owner's to free), frees every bucket, then the header. Neither the view nor the root handle
// may be used afterwards. fn must not use the table.
func (t *Table) Destroy(fn func(h alloc.Handle)) {
	if t.root == 0 {
		panic("htable: Destroy of a table not rooted in the arena")
	}
	t.Clear(fn)
	t.arena.Free(t.root, headerSize)
	*t = Table{}
}

// DestroyStep is Destroy done a bounded amount at a time, for a table too big to free in one
// go (lazy freeing: UNLINK of a big hash frees it over several cron ticks). Each call does
// about budget units of work — an entry handed to fn, or a bucket passed, is one unit — freeing
// the child buckets it emptied and each segment of an array as soon as it has passed it, so the
// arena's charge falls step by step. It reports whether the table is gone: then its header is
// freed too, and neither the view nor the root handle may be used again.
//
// Once DestroyStep has been called the table is being destroyed: nothing but DestroyStep, Len
// (the entries not yet handed to fn) and Bytes (what it still holds) may use it, through this
// view or a new one (Open). fn must not use the table. A resize in progress is abandoned: a new
// array still being cleared is freed at once (it holds no entry), and during the moving phase
// the old array is passed from where the resize stopped, then the new one.
func (t *Table) DestroyStep(fn func(h alloc.Handle), budget int) (done bool) {
	if t.root == 0 {
		panic("htable: DestroyStep of a table not rooted in the arena")
	}
	if t.Resizing() && !t.Moving() {
		t.freeArray(1)
		t.hdr.zeroed = 0
	}
	// The walk's cursor is rehashIdx in ht[0]: during a moving phase the buckets below it are
	// already empty, and outside a resize it starts at 0. Passing a bucket is rehashPassed, so
	// finished segments are freed as a resize frees them.
	for budget > 0 && t.hdr.ht[0].size != 0 {
		arr := &t.hdr.ht[0]
		if t.hdr.rehashIdx < arr.size {
			budget -= 1 + t.destroyChain(t.at(0, t.hdr.rehashIdx), fn)
			t.rehashPassed()
		}
		if t.hdr.rehashIdx == arr.size {
			t.freeArray(0)
			t.swapArrays() // the moving phase's new array, or none
			t.hdr.rehashIdx, t.hdr.zeroed = 0, 0
		}
	}
	if t.hdr.ht[0].size != 0 {
		return false
	}
	if invariantsOn && (t.hdr.children != 0 || t.hdr.count.Load() != 0) {
		panic("htable: DestroyStep finished with entries or child buckets left")
	}
	t.arena.Free(t.root, headerSize)
	*t = Table{}
	return true
}

// destroyChain hands every entry of the chain at head to fn, frees the chain's child buckets
// and leaves head empty. It returns the number of entries.
func (t *Table) destroyChain(head *bucket, fn func(h alloc.Handle)) int {
	n := 0
	for b, cur := head, alloc.Handle(0); ; {
		for m := b.presence; m != 0; m &= m - 1 {
			fn(b.handles[bits.TrailingZeros16(m)])
			n++
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
	head.presence, head.chained = 0, 0
	t.hdr.count.Store(t.hdr.count.Load() - int64(n))
	return n
}
