//go:build linux && !race && !kvheap

package alloc

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Backend is the name of the memory backend compiled in: "mmap" here, "goheap" under -race or
// the kvheap tag.
const Backend = "mmap"

// heapBackedBytes is what the arenas hold in the Go heap: nothing, with this backend.
func heapBackedBytes() int64 { return 0 }

// arenaMem is an arena's address range, reserved PROT_NONE at start and committed a span at a
// time. Spans are never unmapped while the arena lives: MADV_DONTNEED gives their pages back,
// so a stale view reads zeroes or reused data but never faults the process.
type arenaMem struct {
	base      unsafe.Pointer
	size      uintptr
	committed uint32 // spans [0, committed) have been made readable and writable
}

func (m *arenaMem) reserve(size uintptr) error {
	p, err := unix.MmapPtr(-1, 0, nil, size, unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return err
	}
	m.base, m.size = p, size
	// Whole-range advice: transparent huge pages would make RSS jump by 2 MiB for a few bytes.
	_ = unix.Madvise(unsafe.Slice((*byte)(p), size), unix.MADV_NOHUGEPAGE)
	return nil
}

func (m *arenaMem) spans() uint32 { return uint32(m.size >> spanShift) }

func (m *arenaMem) span(i uint32) unsafe.Pointer { return unsafe.Add(m.base, uintptr(i)<<spanShift) }

func (m *arenaMem) at(off uintptr) unsafe.Pointer { return unsafe.Add(m.base, off) }

func (m *arenaMem) spanBytes(i uint32) []byte {
	return unsafe.Slice((*byte)(m.span(i)), spanSize)
}

// commit makes span i usable. Spans are committed in order, so the writable part of the range
// stays one mapping; a released span stays writable (unless invariants protect it).
func (m *arenaMem) commit(i uint32) error {
	if i < m.committed && !invariantsOn {
		return nil
	}
	if err := unix.Mprotect(m.spanBytes(i), unix.PROT_READ|unix.PROT_WRITE); err != nil {
		return err
	}
	if i >= m.committed {
		m.committed = i + 1
	}
	return nil
}

// release gives span i's pages back to the OS. With invariants the span is also made
// inaccessible, so a use after free faults in tests.
func (m *arenaMem) release(i uint32) {
	_ = unix.Madvise(m.spanBytes(i), unix.MADV_DONTNEED)
	if invariantsOn {
		_ = unix.Mprotect(m.spanBytes(i), unix.PROT_NONE)
	}
}

func (m *arenaMem) close() {
	if m.base != nil {
		_ = unix.MunmapPtr(m.base, m.size)
		m.base = nil
	}
}

// runReserve is the address space of the page-run tier (large objects up to MaxRunSize):
// reserved once, never unmapped.
const runReserve = 64 << 30

// largeMem is the process-wide memory of the large-object tier. Guarded by large.mu.
type largeMem struct {
	runBase  unsafe.Pointer
	runBump  uintptr
	runFree  [numRunClasses][]unsafe.Pointer // freed runs per class, pages already returned
	reserved bool
}

// allocSpace returns size bytes (a page-run class size or a page multiple above MaxRunSize).
func (m *largeMem) allocSpace(size uintptr) unsafe.Pointer {
	if size > MaxRunSize {
		p, err := unix.MmapPtr(-1, 0, nil, size, unix.PROT_READ|unix.PROT_WRITE,
			unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
		if err != nil {
			return nil
		}
		_ = unix.Madvise(unsafe.Slice((*byte)(p), size), unix.MADV_NOHUGEPAGE)
		return p
	}
	c := runClassOf(uint64(size))
	if n := len(m.runFree[c]); n > 0 {
		p := m.runFree[c][n-1]
		m.runFree[c] = m.runFree[c][:n-1]
		if invariantsOn {
			_ = unix.Mprotect(unsafe.Slice((*byte)(p), size), unix.PROT_READ|unix.PROT_WRITE)
		}
		return p
	}
	if !m.reserved {
		p, err := unix.MmapPtr(-1, 0, nil, runReserve, unix.PROT_NONE,
			unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
		if err != nil {
			return nil
		}
		_ = unix.Madvise(unsafe.Slice((*byte)(p), runReserve), unix.MADV_NOHUGEPAGE)
		m.runBase, m.reserved = p, true
	}
	if m.runBump+size > runReserve {
		return nil
	}
	p := unsafe.Add(m.runBase, m.runBump)
	if err := unix.Mprotect(unsafe.Slice((*byte)(p), size), unix.PROT_READ|unix.PROT_WRITE); err != nil {
		return nil
	}
	m.runBump += size
	return p
}

// freeSpace returns space from allocSpace: a mapping is unmapped, a run's pages go back to the
// OS and the run is kept for its class.
func (m *largeMem) freeSpace(p unsafe.Pointer, size uintptr) {
	b := unsafe.Slice((*byte)(p), size)
	if size > MaxRunSize {
		_ = unix.MunmapPtr(p, size)
		return
	}
	_ = unix.Madvise(b, unix.MADV_DONTNEED)
	if invariantsOn {
		_ = unix.Mprotect(b, unix.PROT_NONE)
	}
	c := runClassOf(uint64(size))
	m.runFree[c] = append(m.runFree[c], p)
}

// resize changes a mapping's size (both sizes above MaxRunSize) with mremap: page tables move,
// bytes are not copied. It reports the new address (which may differ) and false, or nil.
func (m *largeMem) resize(p unsafe.Pointer, oldSize, newSize uintptr) (unsafe.Pointer, bool) {
	np, err := unix.MremapPtr(p, oldSize, nil, newSize, unix.MREMAP_MAYMOVE)
	if err != nil {
		return nil, false
	}
	return np, false
}
