package alloc

import (
	"sync/atomic"
	"unsafe"
)

// Span geometry. Every span is spanSize bytes at a spanSize-aligned offset of its arena and
// holds slots of one class; span 0 holds the arena's span headers instead of slots, which is
// also why no slot ever has the zero Handle.
const (
	spanShift = 21
	spanSize  = 1 << spanShift // 2 MiB: the 32 KiB class still gets 64 slots
	spanMask  = spanSize - 1

	// DefaultReserve is the address space an arena reserves when none is asked for: all that a
	// 31-bit handle in Quantum (8-byte) units can address, 16 GiB. Reserving costs no memory,
	// only address space.
	DefaultReserve = 1 << 31 * Quantum
	maxSpans       = DefaultReserve >> spanShift
)

// spanHeader describes one span. The headers live in span 0 of the arena's own memory, so the
// Go heap holds O(1) per arena whatever its size. All offsets are in-arena byte offsets; 0 means
// none (no slot or span can sit at offset 0).
type spanHeader struct {
	class    uint8  // slab class + 1; 0 for a span not in use
	listed   uint8  // 1 while on its class's list of spans with room
	_        uint16 //
	live     uint32 // slots allocated
	bump     uint32 // next never-used byte in the span (relative), up to the class's end
	freeSlot uint32 // handle of the first freed slot; each freed slot holds the next one's handle
	next     uint32 // span index of the next span on the list (class list or free-span stack)
	prev     uint32 // span index of the previous span on the class list
	_        [2]uint32
}

// classState is what an arena keeps per slab class on the Go heap.
type classState struct {
	partial uint32 // first span with room (index), 0 if none
	spans   uint32 // spans of this class in use, for the release rule
}

// Arena is a region of slab memory with its own size-class spans and its own accounting. Each
// keyspace shard owns one, the clients own one.
//
// An Arena is not safe for concurrent use: its owner serialises every call (a shard's lock, the
// clients' mutex). Its counters (Used, Stats) may be read by any goroutine at any time.
//
// A []byte view returned by Bytes is valid until its allocation is freed or reallocated; it
// must not be kept past the owner's lock, because another holder of the lock may free it. Views
// never point into the Go heap with the mmap backend, so they are invisible to the garbage
// collector; do not store Go pointers in arena memory.
type Arena struct {
	mem        arenaMem
	headers    *[maxSpans]spanHeader
	nspans     uint32 // spans ever committed, including span 0
	freeSpans  uint32 // stack of released spans (index), linked through next; 0 if empty
	classes    [numSlabClasses]classState
	slabUsed   atomic.Int64 // single writer (the owner); any reader
	largeUsed  atomic.Int64 // large objects charged to this arena; added atomically
	stats      arenaStats
	invariants invariantState
}

// arenaStats are counters for tests and INFO. Written by the owner only.
type arenaStats struct {
	allocs, frees, reallocs, copies atomic.Uint64
	spansReleased                   atomic.Uint64
}

// Stats is a snapshot of an arena's counters.
type Stats struct {
	Allocs        uint64 // successful Alloc calls, both tiers
	Frees         uint64 // Free calls
	Reallocs      uint64 // Realloc calls that moved or resized an allocation (not same-class no-ops)
	Copies        uint64 // Realloc calls that had to copy bytes
	SpansReleased uint64 // spans given back to the OS since the arena was made
	SlabBytes     int64  // usable bytes of live slab allocations
	LargeBytes    int64  // usable bytes of large objects owned by the arena
}

// classSpanEnd[c] is the usable byte length of a span for class c: whole slots only.
var classSpanEnd = func() (t [numSlabClasses]uint32) {
	for c, size := range slabClassSize {
		t[c] = spanSize / size * size
	}
	return t
}()

// NewArena reserves an arena of reserve bytes of address space (0 means DefaultReserve; it is
// rounded to whole spans, at least two). Nothing is committed until it is used.
func NewArena(reserve int64) (*Arena, error) {
	if reserve <= 0 || reserve > DefaultReserve {
		reserve = DefaultReserve
	}
	reserve = (reserve + spanMask) &^ spanMask
	if reserve < 2*spanSize {
		reserve = 2 * spanSize
	}
	a := &Arena{}
	if err := a.mem.reserve(uintptr(reserve)); err != nil {
		return nil, err
	}
	if err := a.mem.commit(0); err != nil {
		a.mem.close()
		return nil, err
	}
	a.headers = (*[maxSpans]spanHeader)(a.mem.span(0))
	a.nspans = 1
	a.invariants.init()
	return a, nil
}

// MustNewArena is NewArena for callers that cannot go on without memory (start-up, tests).
func MustNewArena(reserve int64) *Arena {
	a, err := NewArena(reserve)
	if err != nil {
		panic(err)
	}
	return a
}

// Close gives all of the arena's memory back. Large objects still charged to it are freed too.
// No view or handle of the arena may be used afterwards.
func (a *Arena) Close() {
	large.freeOwnedBy(a)
	a.mem.close()
	a.headers = nil
}

// Used is the number of bytes charged to the arena: usable sizes of its live slab slots and of
// the large objects it owns. Safe to call from any goroutine.
func (a *Arena) Used() int64 { return a.slabUsed.Load() + a.largeUsed.Load() }

// Stats returns a snapshot of the arena's counters. Safe to call from any goroutine.
func (a *Arena) Stats() Stats {
	return Stats{
		Allocs:        a.stats.allocs.Load(),
		Frees:         a.stats.frees.Load(),
		Reallocs:      a.stats.reallocs.Load(),
		Copies:        a.stats.copies.Load(),
		SpansReleased: a.stats.spansReleased.Load(),
		SlabBytes:     a.slabUsed.Load(),
		LargeBytes:    a.largeUsed.Load(),
	}
}

// bump adds one to a single-writer counter without a locked instruction.
func bump(c *atomic.Uint64) { c.Store(c.Load() + 1) }

// Alloc returns a new allocation of at least size bytes (UsableSize(size) in fact) with
// unspecified contents. It returns 0 only when the arena's address space or the system's memory
// is exhausted.
func (a *Arena) Alloc(size int) Handle {
	if size > MaxSlabSize {
		h := large.alloc(a, size)
		if h != 0 {
			bump(&a.stats.allocs)
		}
		return h
	}
	c := 0
	if size > 0 {
		c = slabClass(size)
	}
	h := a.allocSlot(c)
	if h != 0 {
		bump(&a.stats.allocs)
		a.slabUsed.Store(a.slabUsed.Load() + int64(slabClassSize[c]))
		a.invariants.allocated(a, h, c)
	}
	return h
}

// allocSlot takes a slot of class c from the first span with room, making a span if needed.
func (a *Arena) allocSlot(c int) Handle {
	cs := &a.classes[c]
	si := cs.partial
	if si == 0 {
		si = a.newSpan(c)
		if si == 0 {
			return 0
		}
	}
	sp := &a.headers[si]
	var h Handle
	if sp.freeSlot != 0 {
		h = Handle(sp.freeSlot)
		sp.freeSlot = *(*uint32)(a.mem.at(h.offset()))
	} else {
		h = Handle((uintptr(si)<<spanShift + uintptr(sp.bump)) / Quantum)
		sp.bump += slabClassSize[c]
	}
	sp.live++
	if sp.freeSlot == 0 && sp.bump >= classSpanEnd[c] {
		a.unlist(cs, si)
	}
	return h
}

// newSpan commits a span for class c (a released one first) and lists it as having room.
func (a *Arena) newSpan(c int) uint32 {
	si := a.freeSpans
	if si != 0 {
		a.freeSpans = a.headers[si].next
	} else {
		if a.nspans >= a.mem.spans() {
			return 0
		}
		si = a.nspans
		a.nspans++
	}
	if err := a.mem.commit(si); err != nil {
		// Put it back where it came from: a later call may succeed.
		a.headers[si] = spanHeader{next: a.freeSpans}
		a.freeSpans = si
		return 0
	}
	a.headers[si] = spanHeader{class: uint8(c + 1)}
	a.classes[c].spans++
	a.list(&a.classes[c], si)
	return si
}

// list puts span si at the head of its class's list of spans with room.
func (a *Arena) list(cs *classState, si uint32) {
	sp := &a.headers[si]
	sp.listed, sp.prev, sp.next = 1, 0, cs.partial
	if cs.partial != 0 {
		a.headers[cs.partial].prev = si
	}
	cs.partial = si
}

// unlist takes span si off its class's list.
func (a *Arena) unlist(cs *classState, si uint32) {
	sp := &a.headers[si]
	if sp.prev != 0 {
		a.headers[sp.prev].next = sp.next
	} else {
		cs.partial = sp.next
	}
	if sp.next != 0 {
		a.headers[sp.next].prev = sp.prev
	}
	sp.listed, sp.prev, sp.next = 0, 0, 0
}

// Free gives back the allocation h, which was made with a size whose UsableSize equals that of
// size: the caller always knows it (a record or string header holds it), so the free path looks
// nothing up. Freeing the zero Handle does nothing.
func (a *Arena) Free(h Handle, size int) {
	if h == 0 {
		return
	}
	bump(&a.stats.frees)
	if h.IsLarge() {
		large.free(a, h, size)
		return
	}
	c := 0
	if size > 0 {
		c = slabClass(size)
	}
	a.invariants.freed(a, h, c)
	a.slabUsed.Store(a.slabUsed.Load() - int64(slabClassSize[c]))
	si := uint32(h.offset() >> spanShift)
	sp := &a.headers[si]
	*(*uint32)(a.mem.at(h.offset())) = sp.freeSlot
	sp.freeSlot = uint32(h)
	sp.live--
	cs := &a.classes[c]
	if sp.listed == 0 {
		a.list(cs, si)
	}
	// An empty span goes back to the OS unless it is its class's last one: keeping one spare
	// span per class stops an alloc/free pair at a span boundary from costing two syscalls.
	if sp.live == 0 && cs.spans > 1 {
		a.unlist(cs, si)
		cs.spans--
		a.mem.release(si)
		a.headers[si] = spanHeader{next: a.freeSpans}
		a.freeSpans = si
		bump(&a.stats.spansReleased)
	}
}

// ReleaseEmptySpans gives back to the OS every span holding no allocation, the spare span
// each class keeps (Free) included, and returns how many it released. A value that grew
// through many classes (an intset of 500 integers passes 29 of them) leaves each class's spare
// span with touched pages: a fixed cost per class and arena, small beside a big dataset but
// most of a small one's RSS. The owner calls it now and then (the server's cron, once a second):
// a class whose spare went back pays one commit at its next allocation.
//
// The Go-heap backend (-race builds) keeps its spans: what it gives back leaves the heap only at
// the next collection, while GoRuntimeLive would stop subtracting it at once, so used_memory
// would jump by every released span until then.
func (a *Arena) ReleaseEmptySpans() int {
	if Backend == "goheap" {
		return 0
	}
	n := 0
	for c := range a.classes {
		cs := &a.classes[c]
		for si := cs.partial; si != 0; {
			next := a.headers[si].next
			if a.headers[si].live == 0 {
				a.unlist(cs, si)
				cs.spans--
				a.mem.release(si)
				a.headers[si] = spanHeader{next: a.freeSpans}
				a.freeSpans = si
				bump(&a.stats.spansReleased)
				n++
			}
			si = next
		}
	}
	return n
}

// Bytes returns a view of the first n bytes of allocation h (n at most its usable size). The
// view is valid until h is freed or reallocated, and only under the owner's serialisation.
func (a *Arena) Bytes(h Handle, n int) []byte {
	if h.IsLarge() {
		return large.bytes(h, n)
	}
	return unsafe.Slice((*byte)(a.mem.at(h.offset())), n)
}

// Realloc changes the size of allocation h from oldSize to newSize and returns its handle,
// keeping the first min(oldSize, newSize) bytes. When both sizes have the same usable size it
// does nothing at all; a large object keeps its handle whatever its new large size (its address
// may move, and mremap moves big ones without copying bytes). Realloc of the zero Handle is
// Alloc.
func (a *Arena) Realloc(h Handle, oldSize, newSize int) Handle {
	if h == 0 {
		return a.Alloc(newSize)
	}
	if UsableSize(oldSize) == UsableSize(newSize) {
		return h
	}
	bump(&a.stats.reallocs)
	if h.IsLarge() && newSize > MaxSlabSize {
		if large.realloc(a, h, oldSize, newSize) {
			bump(&a.stats.copies)
		}
		return h
	}
	nh := a.Alloc(newSize)
	if nh == 0 {
		return 0
	}
	bump(&a.stats.copies)
	copy(a.Bytes(nh, min(oldSize, newSize)), a.Bytes(h, min(oldSize, newSize)))
	a.Free(h, oldSize)
	return nh
}

// Adopt moves the ownership (and the accounting) of large object h from arena from to a,
// without copying a byte: a client's big argument becomes a stored value this way. Both owners'
// serialisations must be held. Slab allocations cannot change arenas.
func (a *Arena) Adopt(from *Arena, h Handle) {
	if !h.IsLarge() {
		panic("alloc: only large objects can change owner")
	}
	large.adopt(from, a, h)
}
