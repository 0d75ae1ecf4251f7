package scripting

import (
	"sync"
	"sync/atomic"
)

// stateMemory is the estimated heap of one idle state: the globals, libraries and redis
// table, the proxies, a 1024-slot register stack and a 200-frame call stack. Measured with
// TestStateMemory (runtime.MemStats before and after building states).
const stateMemory = 192 << 10

// pool keeps idle states: building one (libraries, redis table, protections) costs far more
// than a short script's run. It is a bounded free list rather than a sync.Pool, so that
// states — and the libraries loaded into them — survive garbage collections; at most max
// idle states are kept, the others are closed when given back.
type pool struct {
	max   int
	build func() *state
	live  atomic.Int64 // states built and not closed

	mu struct {
		sync.Mutex
		free []*state
	}
}

// get returns an idle state, or a new one.
func (p *pool) get() *state {
	p.mu.Lock()
	if n := len(p.mu.free); n > 0 {
		st := p.mu.free[n-1]
		p.mu.free[n-1] = nil
		p.mu.free = p.mu.free[:n-1]
		p.mu.Unlock()
		return st
	}
	p.mu.Unlock()
	p.live.Add(1)
	return p.build()
}

// put gives a state back after its run.
func (p *pool) put(st *state) {
	p.mu.Lock()
	if len(p.mu.free) < p.max {
		p.mu.free = append(p.mu.free, st)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.discard(st)
}

// discard closes a state that must not be reused.
func (p *pool) discard(st *state) {
	p.live.Add(-1)
	st.L.Close()
}

// each calls fn on every idle state, under the pool's lock.
func (p *pool) each(fn func(st *state)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, st := range p.mu.free {
		fn(st)
	}
}

// memory estimates the heap of the pool's states.
func (p *pool) memory() int64 { return p.live.Load() * stateMemory }
