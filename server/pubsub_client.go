package server

import (
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
)

// A subscribed client's messages reach it through its output queue (clientSubs.out): a
// publisher — any goroutine, holding the hub's lock — appends the message's frame there and,
// when the queue was empty, asks for it to be written:
//   - a socket's loop is told (pushes.go): the loop writes the queue itself when the client is
//     parked, with no goroutine; when someone serves the client, that one writes it after its
//     batch's replies (appendPushesLocked), and checks again once it parks it (afterParked);
//   - a connection without an fd has a writer goroutine (pushWriter), started after its first
//     batch that subscribed, which writes the queue whenever no batch is being answered.
//
// The queue is bounded by the pubsub class of client-output-buffer-limit: a publisher that
// finds it over the hard limit, or over the soft one for longer than its seconds, drops it and
// has the client closed (it never grows without bound).

// clientSubs is a client's pub/sub state: its subscriptions and the pushes waiting for its
// socket. Made on its first subscription, kept until it closes.
type clientSubs struct {
	// Owned by whoever serves the client: its own commands change them.
	set           subSet
	writerStarted bool // a connection without an fd: pushWriter runs

	// Read by CLIENT LIST, INFO and the output limit's class from other goroutines.
	nsub, npsub, nssub atomic.Int32
	pending            atomic.Int64 // len(out.queue)

	out struct {
		sync.Mutex
		dead          bool   // over the limit: dropped, the client is being closed
		softOverSince int64  // unix ns when the queue went over the soft limit (0: it is not)
		queue         []byte // encoded frames not yet handed to the socket
	}

	conn *connPushes // a connection without an fd only
}

// connPushes is what a connection without an fd needs for its pushes: wake tells its
// pushWriter there is a queue, done that the client closed, and writing is held by the
// client's batches and by the writer so that a message is never written between a command and
// its reply.
type connPushes struct {
	wake, done chan struct{}
	writing    sync.Mutex
}

// count is sub + psub: the number SUBSCRIBE and PSUBSCRIBE report (Redis's
// clientSubscriptionsCount); shard channels are counted apart.
func (s *clientSubs) count() int { return int(s.nsub.Load() + s.npsub.Load()) }

// subscribed reports whether c has any subscription: Redis's CLIENT_PUBSUB flag, which puts
// a RESP2 client in subscribed mode and the client in the pubsub output limit class.
func (c *client) subscribed() bool {
	s := c.subs.Load()
	return s != nil && s.nsub.Load()+s.npsub.Load()+s.nssub.Load() > 0
}

// subscriptionCounts are CLIENT LIST's sub, psub and ssub.
func (c *client) subscriptionCounts() (sub, psub, ssub int32) {
	if s := c.subs.Load(); s != nil {
		return s.nsub.Load(), s.npsub.Load(), s.nssub.Load()
	}
	return 0, 0, 0
}

// pendingPushes is the bytes of messages queued for c's socket (CLIENT LIST's omem).
func (c *client) pendingPushes() int64 {
	if s := c.subs.Load(); s != nil {
		return s.pending.Load()
	}
	return 0
}

// ensureSubs returns c's pub/sub state, made if it has none. The caller serves c.
func (c *client) ensureSubs() *clientSubs {
	if s := c.subs.Load(); s != nil {
		return s
	}
	s := &clientSubs{}
	if c.fd < 0 {
		s.conn = &connPushes{wake: make(chan struct{}, 1), done: make(chan struct{})}
	}
	c.subs.Store(s)
	return s
}

// Push is pubsub.Subscriber's: it queues one message frame for c's socket. Called by a
// publisher with the hub's lock held: it takes only the queue's lock, and hands the writing
// to c's loop (or writer) when the queue was empty.
func (c *client) Push(frame []byte) {
	s := c.subs.Load()
	if s == nil || len(frame) == 0 {
		return
	}
	resp3 := c.sharedProto.Load() == 3
	s.out.Lock()
	if s.out.dead {
		s.out.Unlock()
		return
	}
	wasEmpty := len(s.out.queue) == 0
	if wasEmpty && s.out.queue == nil {
		s.out.queue = getPushBuffer(len(frame))
	}
	start := len(s.out.queue)
	s.out.queue = append(s.out.queue, frame...)
	if resp3 {
		s.out.queue[start] = '>'
	}
	n := int64(len(s.out.queue))
	over := c.srv.pubsubLimitExceeded(&s.out.softOverSince, n)
	if over {
		s.out.dead = true
		s.out.queue = nil
	}
	s.pending.Store(int64(len(s.out.queue)))
	s.out.Unlock()
	if over {
		c.srv.stats.outputLimitDisconnections.Add(1)
		c.srv.logLimited(logKindClientLimit, zap.WarnLevel,
			"Client closed for overcoming of output buffer limits.", c, zap.Int64("pending", n))
	}
	if wasEmpty || over {
		c.wakeForPushes()
	}
}

// takePushes takes the queued frames (nil if none) and reports whether the queue went over
// its limit (the client must be closed).
func (s *clientSubs) takePushes() (buf []byte, dead bool) {
	s.out.Lock()
	defer s.out.Unlock()
	buf, s.out.queue = s.out.queue, nil
	s.out.softOverSince = 0
	s.pending.Store(0)
	return buf, s.out.dead
}

// wakeForPushes asks for c's queue to be written: by its loop, or its writer goroutine.
func (c *client) wakeForPushes() {
	if c.fd >= 0 {
		c.srv.loopOf(c).queuePushes(c)
		return
	}
	if s := c.subs.Load(); s != nil {
		select {
		case s.conn.wake <- struct{}{}:
		default:
		}
	}
}

// afterParked is called by whoever just parked c: pushes queued while it served c, which it
// may not have seen, are handed to the loop.
func (c *client) afterParked() {
	if s := c.subs.Load(); s != nil && s.pending.Load() > 0 {
		c.wakeForPushes()
	}
}

// appendPushesLocked moves c's queued pushes behind the batch's replies in c.w, so that the
// next flush writes them — between replies, never inside one. It reports false when the queue
// went over its limit: the caller closes c.
func (c *client) appendPushesLocked() bool {
	s := c.subs.Load()
	if s == nil || s.pending.Load() == 0 && !s.writerStarted {
		return true
	}
	if c.fd < 0 && s.writerStarted {
		return true // pushWriter writes them, after this batch (holdPushWriter)
	}
	buf, dead := s.takePushes()
	if dead {
		return false
	}
	if len(buf) > 0 {
		c.takeReplyBuffer()
		c.w.Raw(buf)
		putPushBuffer(buf)
	}
	return true
}

// holdPushWriter keeps a connection without an fd's push writer from writing while c answers
// a batch (it returns the hold's end, nil if none).
func (c *client) holdPushWriter() *sync.Mutex {
	if s := c.subs.Load(); s != nil && s.writerStarted {
		s.conn.writing.Lock()
		return &s.conn.writing
	}
	return nil
}

// startPushWriter starts the push writer of a connection without an fd once its first batch
// that subscribed is answered. The caller serves c.
func (c *client) startPushWriter() {
	if s := c.subs.Load(); s != nil && !s.writerStarted {
		s.writerStarted = true
		go c.pushWriter(s)
		if s.pending.Load() > 0 {
			c.wakeForPushes()
		}
	}
}

// pushWriter writes the queue of a connection without an fd until the client closes. It
// closes the connection when the queue went over its limit.
func (c *client) pushWriter(s *clientSubs) {
	for {
		select {
		case <-s.conn.done:
			return
		case <-s.conn.wake:
		}
		s.conn.writing.Lock()
		buf, dead := s.takePushes()
		if dead {
			s.conn.writing.Unlock()
			c.killed.Store(true)
			c.shutdownSocket()
			return
		}
		var err error
		if len(buf) > 0 {
			var n int
			n, err = c.conn.Write(buf)
			c.netOut.Add(int64(n))
			putPushBuffer(buf)
		}
		s.conn.writing.Unlock()
		if err != nil {
			return
		}
	}
}

// dropSubscriptions takes a closing (or RESET) client out of every channel and pattern. The
// caller serves c.
func (c *client) dropSubscriptions() {
	s := c.subs.Load()
	if s == nil {
		return
	}
	for _, e := range s.set.list {
		subKinds[e.kind].remove(c, []byte(e.name))
	}
	s.set = subSet{}
	s.nsub.Store(0)
	s.npsub.Store(0)
	s.nssub.Store(0)
}

// releaseSubs ends a closing client's pub/sub state: subscriptions, queue, writer.
func (c *client) releaseSubs() {
	s := c.subs.Load()
	if s == nil {
		return
	}
	c.dropSubscriptions()
	s.out.Lock()
	s.out.dead = true
	s.out.queue = nil
	s.pending.Store(0)
	s.out.Unlock()
	if s.conn != nil {
		close(s.conn.done)
	}
}

// pushBuffers is a bounded free list of queue buffers: a subscriber holds one only while
// messages wait for its socket, and 1,000 subscribers receiving a message each take one.
var pushBuffers = make(chan []byte, 1024)

// pushBufferKeep is the largest queue buffer kept for reuse (the free list then holds at
// most 16 MiB).
const pushBufferKeep = 16 << 10

// getPushBuffer returns an empty queue buffer for a first frame of n bytes.
func getPushBuffer(n int) []byte {
	if n > pushBufferKeep/2 {
		return nil // append sizes it
	}
	select {
	case b := <-pushBuffers:
		return b[:0]
	default:
		return make([]byte, 0, 4096)
	}
}

// putPushBuffer gives a written queue buffer back.
func putPushBuffer(b []byte) {
	if cap(b) == 0 || cap(b) > pushBufferKeep {
		return
	}
	select {
	case pushBuffers <- b[:0]:
	default:
	}
}
