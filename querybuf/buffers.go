package querybuf

import (
	"sync"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/sds"
)

// Buffers is where a server's clients keep what outlives one read: their private query
// buffers (Private) and their big arguments (BigBuffers). Both come from one alloc arena that
// the server owns and charges to the clients in used_memory, so that maxmemory bounds them too.
// mu serialises allocation in the arena; the bytes of a client's buffer are read and written by
// whoever serves the client, without it.
//
// A Buffers is two pointers: callers pass it by value, and a parser is given a pointer to one
// that lives as long as it does (SetBigBuffers).
type Buffers struct {
	arena *alloc.Arena
	mu    *sync.Mutex
}

// NewBuffers returns the Buffers of arena a, whose allocations mu serialises.
func NewBuffers(a *alloc.Arena, mu *sync.Mutex) Buffers { return Buffers{arena: a, mu: mu} }

// bigLayout is the allocation size and header size of a big argument buffer of n bytes: an sds
// string's header room, then the bytes — so that a shard can adopt it as a string (Adopt).
func bigLayout(n int) (allocSize, hdr int) {
	hdr = sds.HeaderSize(n)
	return hdr + n, hdr
}

// Get is BigBuffers': a buffer of exactly n bytes from the arena's large objects (which change
// owner without a copy), or ok false when the arena has none to give: the parser then uses the
// Go heap, and the value is copied.
func (b Buffers) Get(n int) (buf []byte, token uint32, ok bool) {
	size, hdr := bigLayout(n)
	b.mu.Lock()
	h := b.arena.Alloc(size)
	if h != 0 && !h.IsLarge() {
		b.arena.Free(h, size)
		h = 0
	}
	b.mu.Unlock()
	if h == 0 {
		return nil, 0, false
	}
	return b.arena.Bytes(h, size)[hdr:], uint32(h), true
}

// Put is BigBuffers': it frees a buffer of n bytes from Get that nobody adopted.
func (b Buffers) Put(token uint32, n int) {
	size, _ := bigLayout(n)
	b.mu.Lock()
	b.arena.Free(alloc.Handle(token), size)
	b.mu.Unlock()
}

// Adopt hands the buffer of val, a big argument of one of p's complete commands (as Args.Arg
// returned it), to arena dst as an sds string holding val, without a copy: the allocation only
// changes owner. It reports false for any other slice (a small argument, a big one on the Go
// heap, one already taken): the caller copies. dst's owner must hold whatever lock guards dst.
func (b Buffers) Adopt(p *Parser, dst *alloc.Arena, val []byte) (sds.String, bool) {
	token, ok := p.TakeBig(val)
	if !ok {
		return sds.String{}, false
	}
	h := alloc.Handle(token)
	size, hdr := bigLayout(len(val) + 2)
	b.mu.Lock()
	dst.Adopt(b.arena, h)
	b.mu.Unlock()
	return sds.Adopt(dst, h, size, hdr, len(val)), true
}
