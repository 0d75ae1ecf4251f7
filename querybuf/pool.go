package querybuf

import "sync/atomic"

// SharedBufferSize is the size of a shared read buffer: Redis's PROTO_IOBUF_LEN.
const SharedBufferSize = 16 << 10

// Pool is the free list of shared read buffers. A client takes one only when its socket has
// data, parses what it read, copies an unfinished command's tail into a private buffer, and
// returns the shared one before any command runs — so an idle client holds no read buffer.
//
// It is a free list, not a sync.Pool: sync.Pool drops its items at every garbage collection
// and under -race at random, which would turn steady reads into allocations. It starts with n
// buffers and keeps up to max: when the list is empty, Get allocates (counted as a fallback), and
// Put keeps the buffer while the list has room, so that a burst of clients holding buffers at
// once (goroutines that wait for a shard's lock keep their reply buffers) costs allocations only
// until the list has grown to it. Trim, from the cron, gives back what a whole interval left
// unused, down to n. Safe for concurrent use.
type Pool struct {
	free chan []byte
	keep int // the buffers Trim never drops

	gets, puts, fallbacks atomic.Int64
	// low is the fewest buffers the list held since the last Trim: the ones above it were not
	// needed during the interval.
	low atomic.Int64
}

// NewPool makes a free list of n buffers that keeps up to max (Redis has one per I/O thread;
// a couple per P is enough for goroutines that give their buffer back within one parse).
func NewPool(n, max int) *Pool {
	p := &Pool{free: make(chan []byte, max), keep: n}
	for range n {
		p.free <- make([]byte, SharedBufferSize)
	}
	p.low.Store(int64(n))
	return p
}

// Get takes a buffer of SharedBufferSize bytes.
func (p *Pool) Get() []byte {
	p.gets.Add(1)
	select {
	case b := <-p.free:
		if l := int64(len(p.free)); l < p.low.Load() {
			p.low.Store(l) // a racing Get may store a higher value: Trim then keeps one more
		}
		return b
	default:
		p.low.Store(0)
		p.fallbacks.Add(1)
		return make([]byte, SharedBufferSize)
	}
}

// Trim drops the buffers above the initial n that stayed in the list since the last Trim,
// and starts a new interval. The cron calls it once a second: a burst that recurs within a
// second keeps its buffers, so there is no allocate-and-drop cycle.
func (p *Pool) Trim() {
	excess := min(p.low.Load(), int64(len(p.free)-p.keep))
	for ; excess > 0; excess-- {
		select {
		case <-p.free:
		default:
			excess = 0
		}
	}
	p.low.Store(int64(len(p.free)))
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
