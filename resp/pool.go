package resp

import (
	"slices"
	"sync"
)

// BufferPool supplies a Writer's buffer when a reply outgrows it, and takes back the buffer it
// grew from (SetBufferPool). Without a pool the buffer grows by append and what it grew from is
// left to the garbage collector: for a pipeline of big replies (sixteen HGETALLs of a thousand
// fields, 800 KB) that is a new doubling series of allocations per batch, and the copies and
// the collector's work cost more than encoding the replies.
type BufferPool interface {
	// Get returns an empty buffer with a capacity of at least n bytes.
	Get(n int) []byte
	// Put takes back a buffer the Writer no longer uses. It may keep it or drop it.
	Put(b []byte)
}

// bulkOverhead bounds what a bulk string adds to its payload: $, up to 20 digits, two CRLFs.
const bulkOverhead = 1 + 20 + 2 + 2

// SetBufferPool makes the Writer grow its buffer through p from now on (nil: by append).
func (w *Writer) SetBufferPool(p BufferPool) { w.pool = p }

// grow makes room for n more bytes: through the pool, which gets back the buffer left behind,
// or by append. The new capacity at least doubles, so growth stays amortised linear.
func (w *Writer) grow(n int) {
	if w.pool == nil {
		w.buf = slices.Grow(w.buf, n)
		return
	}
	nb := w.pool.Get(max(len(w.buf)+n, 2*cap(w.buf)))
	old := w.buf
	w.buf = append(nb[:0], old...)
	if cap(old) > 0 {
		w.pool.Put(old[:0])
	}
}

// BigBuffers is a free list of large output buffers, shared by all clients: capacities of
// 64 KiB × 4^k up to 1 MiB, so that a buffer grown for one batch of big replies serves the
// next. Free buffers are kept while their total stays within the idle bound; a request above
// the largest class is allocated exactly and dropped when given back. Safe for concurrent use.
type BigBuffers struct {
	mu      sync.Mutex
	free    [numBigClasses][][]byte
	idle    int // bytes in free
	maxIdle int
}

const (
	// bigClassMin is the smallest class: four times the 16 KiB shared reply buffer.
	bigClassMin = 64 << 10
	// numBigClasses are 64 KiB, 256 KiB and 1 MiB.
	numBigClasses = 3
)

// NewBigBuffers makes a free list that keeps at most maxIdle bytes of free buffers.
func NewBigBuffers(maxIdle int) *BigBuffers { return &BigBuffers{maxIdle: maxIdle} }

// bigClass is the smallest class holding n bytes, or numBigClasses when none does.
func bigClass(n int) int {
	c, size := 0, bigClassMin
	for c < numBigClasses && size < n {
		c, size = c+1, size*4
	}
	return c
}

func bigClassSize(c int) int { return bigClassMin << (2 * c) }

// Get returns an empty buffer of at least n bytes: a free one of the class that fits, or a new
// one of the class's size.
func (p *BigBuffers) Get(n int) []byte {
	c := bigClass(n)
	if c == numBigClasses {
		return make([]byte, 0, n)
	}
	p.mu.Lock()
	if k := len(p.free[c]); k > 0 {
		b := p.free[c][k-1]
		p.free[c] = p.free[c][:k-1]
		p.idle -= cap(b)
		p.mu.Unlock()
		return b
	}
	p.mu.Unlock()
	return make([]byte, 0, bigClassSize(c))
}

// Put keeps b for a later Get when its capacity is a class size and the idle bound allows.
func (p *BigBuffers) Put(b []byte) {
	c := bigClass(cap(b))
	if c == numBigClasses || cap(b) != bigClassSize(c) {
		return
	}
	p.mu.Lock()
	if p.idle+cap(b) <= p.maxIdle {
		p.free[c] = append(p.free[c], b[:0])
		p.idle += cap(b)
	}
	p.mu.Unlock()
}

// Idle is the number of bytes held in free buffers.
func (p *BigBuffers) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idle
}
