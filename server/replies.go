package server

import "github.com/kvserver/kvserver/querybuf"

// maxIdleBigReplies bounds the memory the server keeps in free big reply buffers: four
// batches' worth of the largest class (1 MiB), enough for the loops and goroutines that write
// big replies at once on a small machine, and a fixed cost on any.
const maxIdleBigReplies = 4 << 20

// replyBufferPool is the resp.BufferPool of every client's reply Writer: a reply that outgrows
// the shared 16 KiB buffer grows into a big buffer of the server's free list, and the shared
// buffer it leaves goes back to the shared pool; the big one goes back at the flush.
type replyBufferPool Server

// Get returns a big reply buffer of at least n bytes.
func (p *replyBufferPool) Get(n int) []byte { return p.bigReplies.Get(n) }

// Put takes back a buffer a Writer grew out of.
func (p *replyBufferPool) Put(b []byte) {
	if cap(b) == querybuf.SharedBufferSize {
		p.replyPool.Put(b[:cap(b)])
		return
	}
	p.bigReplies.Put(b)
}
