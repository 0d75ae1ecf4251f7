package alloc

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The large-object tier: allocations above MaxSlabSize, for every arena of the process. Page
// runs up to MaxRunSize come from one reserved range (classes of four per doubling, freed runs
// kept per class with their pages returned); bigger objects get a mapping each, resized with
// mremap. An object is named by its id in the table, because its address may change.
//
// A mutex is fine here: at these sizes a syscall or a page fault costs far more than the lock.

const largeChunkLen = 4096 // table entries per chunk

// largeEntry is one large object. ptr and size change only under large.mu and the owner's
// serialisation; readers hold the owner's serialisation.
type largeEntry struct {
	ptr   unsafe.Pointer // nil while the id is free
	size  uintptr        // usable size
	owner *Arena
}

type largeTier struct {
	mu      sync.Mutex
	chunks  atomic.Pointer[[]*[largeChunkLen]largeEntry] // copy-on-write: readers need no lock
	nextID  uint32                                       // ids [0, nextID) have been used
	freeIDs []uint32
	mem     largeMem
	live    int // objects allocated, for tests
}

var large largeTier

// entry returns the table entry of id. Lock-free: chunks are only ever appended.
func (t *largeTier) entry(id uint32) *largeEntry {
	return &(*t.chunks.Load())[id/largeChunkLen][id%largeChunkLen]
}

// newIDLocked returns a free id, growing the table by a chunk when needed.
func (t *largeTier) newIDLocked() uint32 {
	if n := len(t.freeIDs); n > 0 {
		id := t.freeIDs[n-1]
		t.freeIDs = t.freeIDs[:n-1]
		return id
	}
	id := t.nextID
	var chunks []*[largeChunkLen]largeEntry
	if p := t.chunks.Load(); p != nil {
		chunks = *p
	}
	if int(id/largeChunkLen) == len(chunks) {
		grown := make([]*[largeChunkLen]largeEntry, len(chunks)+1)
		copy(grown, chunks)
		grown[len(chunks)] = new([largeChunkLen]largeEntry)
		t.chunks.Store(&grown)
	}
	t.nextID++
	return id
}

func (t *largeTier) alloc(owner *Arena, size int) Handle {
	usable := uintptr(roundClass(uint64(size)))
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.nextID >= largeBit && len(t.freeIDs) == 0 {
		return 0
	}
	p := t.mem.allocSpace(usable)
	if p == nil {
		return 0
	}
	id := t.newIDLocked()
	e := t.entry(id)
	e.ptr, e.size, e.owner = p, usable, owner
	owner.largeUsed.Add(int64(usable))
	t.live++
	return Handle(id) | largeBit
}

// checkLocked panics on a handle that names no live object of this owner or a size that does
// not match: cheap next to a large free, and a silent mismatch would corrupt the accounting.
func (t *largeTier) checkLocked(owner *Arena, h Handle, size int) *largeEntry {
	if h.largeID() >= t.nextID {
		panic("alloc: unknown large handle")
	}
	e := t.entry(h.largeID())
	switch {
	case e.ptr == nil:
		panic("alloc: double free of a large object")
	case e.owner != owner:
		panic("alloc: large object freed through an arena that does not own it")
	case uintptr(UsableSize(size)) != e.size:
		panic("alloc: large object freed or resized with the wrong size")
	}
	return e
}

func (t *largeTier) free(owner *Arena, h Handle, size int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.checkLocked(owner, h, size)
	t.releaseLocked(h.largeID(), e)
}

func (t *largeTier) releaseLocked(id uint32, e *largeEntry) {
	t.mem.freeSpace(e.ptr, e.size)
	e.owner.largeUsed.Add(-int64(e.size))
	*e = largeEntry{}
	t.freeIDs = append(t.freeIDs, id)
	t.live--
}

// realloc resizes a large object to another large size, keeping its id. It reports whether
// bytes were copied (false when mremap moved the pages).
func (t *largeTier) realloc(owner *Arena, h Handle, oldSize, newSize int) (copied bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.checkLocked(owner, h, oldSize)
	usable := uintptr(roundClass(uint64(newSize)))
	var p unsafe.Pointer
	if e.size > MaxRunSize && usable > MaxRunSize {
		p, copied = t.mem.resize(e.ptr, e.size, usable)
	} else {
		p, copied = t.mem.allocSpace(usable), true
		if p != nil {
			copy(unsafe.Slice((*byte)(p), usable), unsafe.Slice((*byte)(e.ptr), min(e.size, usable)))
			t.mem.freeSpace(e.ptr, e.size)
		}
	}
	if p == nil {
		panic("alloc: out of memory resizing a large object")
	}
	owner.largeUsed.Add(int64(usable) - int64(e.size))
	e.ptr, e.size = p, usable
	return copied
}

func (t *largeTier) bytes(h Handle, n int) []byte {
	return unsafe.Slice((*byte)(t.entry(h.largeID()).ptr), n)
}

func (t *largeTier) adopt(from, to *Arena, h Handle) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(h.largeID())
	if e.ptr == nil || e.owner != from {
		panic("alloc: adopting a large object from an arena that does not own it")
	}
	from.largeUsed.Add(-int64(e.size))
	to.largeUsed.Add(int64(e.size))
	e.owner = to
}

// freeOwnedBy frees every large object owned by a (the arena is closing).
func (t *largeTier) freeOwnedBy(a *Arena) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id := uint32(0); id < t.nextID; id++ {
		if e := t.entry(id); e.ptr != nil && e.owner == a {
			t.releaseLocked(id, e)
		}
	}
}

// LargeObjects is the number of live large objects in the process (for tests and INFO).
func LargeObjects() int {
	large.mu.Lock()
	defer large.mu.Unlock()
	return large.live
}
