package server

import (
	"sync"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/kvserver/kvserver/command"
)

// A client blocked in a command (BLPOP on an empty list; command/blocked.go) is parked like an
// idle one — no goroutine, no active state, no read buffer — in the state clientBlocked, its
// socket left in its loop's epoll set as it was (no system call to block or to be served). If
// it sends something meanwhile, its loop leaves the bytes in the kernel — as Redis leaves them
// unprocessed in the query buffer — and watches the socket for hang-ups only (EPOLLRDHUP) until
// it is served; they are read then. Whoever has something for it — a writer whose key it waits on, the
// deadline timer, CLIENT UNBLOCK — wakes it (Wake): the first to move it from clientBlocked to
// clientActive serves it on its own goroutine (the pipeline's ServeBlocked, then the reply and
// the rest of its pipeline). A hang-up closes it; closing ends the block.
//
// Only sockets block: a connection without an fd (an in-memory pipe in tests) answers a
// blocking command at once as timed out (command.Ctx.SetBlockedConn is not set for it).

// blockedTable holds the blocked-command state of the clients that ever blocked (by id): the
// client struct has no room for another pointer (TestIdleClientSize), and a client that never
// blocks pays nothing.
type blockedTable struct {
	mu sync.Mutex
	m  map[int64]*command.Blocked
}

// Blocked is command.BlockedConn's: the client's blocked-command state, made on first use.
func (c *client) Blocked() *command.Blocked {
	t := &c.srv.blocked
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.m[c.id]
	if b == nil {
		if t.m == nil {
			t.m = make(map[int64]*command.Blocked)
		}
		b = command.NewBlocked(c)
		t.m[c.id] = b
	}
	return b
}

// blockedState returns the client's blocked-command state, nil if it never blocked.
func (c *client) blockedState() *command.Blocked {
	t := &c.srv.blocked
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[c.id]
}

// releaseBlocked ends the client's block, if it is blocked, and forgets its state (close).
func (c *client) releaseBlocked() {
	t := &c.srv.blocked
	t.mu.Lock()
	b := t.m[c.id]
	delete(t.m, c.id)
	t.mu.Unlock()
	if b != nil {
		c.srv.pipeline.Unblock(b)
	}
}

// parkBlocked parks client c, whose command blocked, as blocked: its socket watched for
// hang-ups only. It reports false when c cannot be parked (killed, the server closing, epoll
// refused): the caller closes it. inline says whether c's loop calls it (with c's active state
// already given back when nothing was half-done).
func (s *Server) parkBlocked(c *client, inline bool) bool {
	if c.killed.Load() || s.closing.Load() {
		return false
	}
	if !inline {
		c.mu.Lock()
		c.detachActiveLocked(nil)
		c.mu.Unlock()
	}
	if !c.inEpoll { // a goroutine served it: back into its loop's set
		if err := s.armRead(c); err != nil {
			s.log.Debug("cannot park blocked client", zap.Int64("id", c.id), zap.Error(err))
			return false
		}
		c.hupOnly = false
	}
	c.state.Store(clientBlocked)
	if b := c.blockedState(); b != nil && b.HasPending() {
		c.Wake(inline) // woken before it was parked: nobody could claim it then
	}
	return true
}

// blockedEvent handles an event of blocked client c, which loop l has claimed (clientActive): a
// hang-up closes it; bytes it sent while blocked stay in the kernel, and its socket is watched
// for hang-ups only (level-triggered, the bytes would report it again at every round) until it
// is served.
func (l *readinessLoop) blockedEvent(c *client, events uint32) {
	if events&(unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0 {
		go c.close() // closing takes its keys' shard locks, which a loop does not wait for
		return
	}
	if err := c.srv.epollSet(c, unix.EPOLLRDHUP); err != nil {
		go c.close()
		return
	}
	c.hupOnly = true
	c.state.Store(clientBlocked)
	if b := c.blockedState(); b != nil && b.HasPending() {
		c.Wake(true) // woken while the loop held it
	}
}

// Wake is command.BlockedConn's: if c is parked blocked, the caller claims it and serves what
// woke it, here; if someone serves c, they look at it once they park it (parkBlocked).
func (c *client) Wake(inline bool) {
	if c.state.CompareAndSwap(clientBlocked, clientActive) {
		c.serveWoken(inline)
	}
}

// serveWoken serves client c, claimed from its blocked state: its blocked command runs again
// (or times out, or is unblocked); served, its reply is written and c goes back to its loop, or
// to a goroutine when more of its commands wait or the socket is full; still blocked, it is
// parked blocked again.
func (c *client) serveWoken(inline bool) {
	action := serveClose
	defer func() {
		if r := recover(); r != nil {
			c.logPanic(r)
			action = serveClose
		}
		switch action {
		case serveClose:
			c.close()
		case serveHandoff:
			c.srv.handoff(c)
		case serveBlock:
			if !c.srv.parkBlocked(c, false) {
				c.close()
			}
		case serveRetry:
			go c.serveWoken(false)
		case servePark:
			if c.hupOnly { // it sent something while blocked: read it now
				if err := c.srv.armRead(c); err != nil {
					c.close()
					return
				}
				c.hupOnly = false
			}
			c.state.Store(clientParked)
			c.afterParked()
		}
	}()
	action = c.serveWokenLocked(inline)
}

// serveWokenLocked is serveWoken's work under c's lock; see serveWoken for the actions.
func (c *client) serveWokenLocked(inline bool) serveAction {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.blockedState()
	if b == nil || c.killed.Load() {
		return serveClose
	}
	c.attachActiveLocked(nil)
	c.takeReplyBuffer()
	switch c.srv.pipeline.ServeBlocked(&c.ctx, c, b, inline) {
	case command.WakeHandoff:
		return serveRetry // inline, a lock was busy: a goroutine serves it
	case command.StillBlocked:
		c.detachActiveLocked(nil)
		return serveBlock
	}
	c.blocking = false
	c.totCmds.Store(c.totCmds.Load() + 1)
	if c.nextCmd < c.parser.NumCommands() || c.closeAfterReply {
		return serveHandoff // its pipeline's next commands: a goroutine runs them (resume)
	}
	switch c.flush(true) {
	case flushFailed:
		return serveClose
	case flushBlocked:
		return serveHandoff
	}
	c.detachActiveLocked(nil)
	return servePark
}

// clientByID returns the connected client with id, or nil.
func (s *Server) clientByID(id int64) *client {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.clients[id]
}
