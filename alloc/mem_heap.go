//go:build race || kvheap || !linux

package alloc

import (
	"sync/atomic"
	"unsafe"
)

// Backend is the name of the memory backend compiled in: "goheap" here (the race detector does
// not see memory outside the Go heap, so -race builds use this one), "mmap" otherwise.
const Backend = "goheap"

// heapBacked counts the bytes of spans and large objects this backend holds in the Go heap,
// so that GoRuntimeLive does not count the arenas' memory a second time.
var heapBacked atomic.Int64

// heapBackedBytes is what the arenas hold in the Go heap.
func heapBackedBytes() int64 { return heapBacked.Load() }

// arenaMem keeps each committed span as a Go byte array. Same API and the same slab logic as
// the mmap backend; only the memory comes from the Go heap, where the race detector sees it.
type arenaMem struct {
	spanPtrs []unsafe.Pointer // fixed length, set once at reserve: readers never race a resize
}

func (m *arenaMem) reserve(size uintptr) error {
	m.spanPtrs = make([]unsafe.Pointer, size>>spanShift)
	return nil
}

func (m *arenaMem) spans() uint32 { return uint32(len(m.spanPtrs)) }

func (m *arenaMem) span(i uint32) unsafe.Pointer { return m.spanPtrs[i] }

func (m *arenaMem) at(off uintptr) unsafe.Pointer {
	return unsafe.Add(m.spanPtrs[off>>spanShift], off&spanMask)
}

func (m *arenaMem) commit(i uint32) error {
	if m.spanPtrs[i] == nil {
		b := make([]byte, spanSize)
		m.spanPtrs[i] = unsafe.Pointer(&b[0])
		heapBacked.Add(spanSize)
	}
	return nil
}

// release drops the span: the garbage collector takes it once no stale view holds it, and a
// later use through the arena finds nil and faults.
func (m *arenaMem) release(i uint32) {
	if m.spanPtrs[i] != nil {
		heapBacked.Add(-spanSize)
	}
	m.spanPtrs[i] = nil
}

func (m *arenaMem) close() {
	for _, p := range m.spanPtrs {
		if p != nil {
			heapBacked.Add(-spanSize)
		}
	}
	m.spanPtrs = nil
}

// largeMem allocates large objects as Go byte slices. Guarded by large.mu.
type largeMem struct{}

func (m *largeMem) allocSpace(size uintptr) unsafe.Pointer {
	b := make([]byte, size)
	heapBacked.Add(int64(size))
	return unsafe.Pointer(&b[0])
}

func (m *largeMem) freeSpace(p unsafe.Pointer, size uintptr) { heapBacked.Add(-int64(size)) }

// resize copies into a new slice (the heap has no mremap) and reports that it copied.
func (m *largeMem) resize(p unsafe.Pointer, oldSize, newSize uintptr) (unsafe.Pointer, bool) {
	np := m.allocSpace(newSize)
	copy(unsafe.Slice((*byte)(np), newSize), unsafe.Slice((*byte)(p), min(oldSize, newSize)))
	m.freeSpace(p, oldSize)
	return np, true
}
