package querybuf

import "sync/atomic"

// SharedBufferSize is the size of a shared read buffer: Redis's PROTO_IOBUF_LEN.
const SharedBufferSize = 16 << 10

// Pool is the free list of shared read buffers. A client takes one only when its socket has
// data, parses what it read, copies an unfinished command's tail into a private buffer, and
// returns the shared one before any command runs — so an idle client holds no read buffer.
//
// It is a fixed-size free list, not a sync.Pool: sync.Pool drops its items at every garbage
// collection and under -race at random, which would turn steady reads into allocations. When the
// list is empty, Get allocates (counted as a fallback); Put drops a buffer the list has no room
// for. Safe for concurrent use.
type Pool struct {
	free chan []byte

	gets, puts, fallbacks atomic.Int64
}

// NewPool makes a free list holding up to n buffers (Redis has one per I/O thread; a couple per
// P is enough for goroutines that give their buffer back within one parse).
func NewPool(n int) *Pool {
	p := &Pool{free: make(chan []byte, n)}
	for range n {
		p.free <- make([]byte, SharedBufferSize)
	}
	return p
}

// Get takes a buffer of SharedBufferSize bytes.
func (p *Pool) Get() []byte {
	p.gets.Add(1)
	select {
	case b := <-p.free:
		return b
	default:
		p.fallbacks.Add(1)
		return make([]byte, SharedBufferSize)
	}
}

// Put gives a buffer from Get back. The caller must not use it afterwards.
func (p *Pool) Put(b []byte) {
	p.puts.Add(1)
	select {
	case p.free <- b[:SharedBufferSize:SharedBufferSize]:
	default:
	}
}

// PoolStats are a Pool's counters: Gets − Puts is the number of buffers out.
type PoolStats struct {
	Gets, Puts, Fallbacks int64
	Free                  int
}

// Stats returns the counters.
func (p *Pool) Stats() PoolStats {
	return PoolStats{Gets: p.gets.Load(), Puts: p.puts.Load(), Fallbacks: p.fallbacks.Load(), Free: len(p.free)}
}
