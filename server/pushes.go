package server

import (
	"sync"
	"sync/atomic"
	"syscall"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// loopPushes is a readiness loop's share of push delivery (pubsub_client.go): the clients
// whose output queues wait to be written, and the eventfd in the loop's epoll set that wakes
// the loop for them. A publisher adds a client when its queue goes from empty to not, and
// writes the eventfd only when the loop has not been woken yet: one wake-up per batch of
// messages, however many clients and messages the batch holds.
type loopPushes struct {
	fd      int         // the eventfd; -1 when it could not be made
	pending atomic.Bool // the eventfd was written and the loop has not taken the list since
	mu      sync.Mutex
	list    []*client // guarded by mu
	spare   []*client // the loop's own: the list it gave back, emptied
}

// initPushes makes the loop's eventfd and adds it to its epoll set.
func (l *readinessLoop) initPushes() error {
	l.pushes.fd = -1
	fd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		return err
	}
	ev := unix.EpollEvent{Events: unix.EPOLLIN}
	setEventClient(&ev, int32(fd), 0)
	if err := unix.EpollCtl(l.epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		unix.Close(fd)
		return err
	}
	l.pushes.fd = fd
	return nil
}

// closePushes closes the loop's eventfd.
func (l *readinessLoop) closePushes() {
	if l.pushes.fd >= 0 {
		_ = unix.Close(l.pushes.fd)
		l.pushes.fd = -1
	}
}

// queuePushes asks loop l to write client c's queue. Any goroutine.
func (l *readinessLoop) queuePushes(c *client) {
	p := &l.pushes
	p.mu.Lock()
	p.list = append(p.list, c)
	p.mu.Unlock()
	if !p.pending.Swap(true) {
		one := [8]byte{1}
		for {
			_, err := unix.Write(p.fd, one[:])
			if err != syscall.EINTR {
				break
			}
		}
	}
}

// isPushEvent reports whether fd is the loop's eventfd.
func (l *readinessLoop) isPushEvent(fd int32) bool { return int(fd) == l.pushes.fd }

// deliverQueuedPushes writes the queues of the clients the publishers named since the last
// wake-up. The loop runs it on its eventfd's event.
func (l *readinessLoop) deliverQueuedPushes() {
	p := &l.pushes
	var b [8]byte
	_, _ = unix.Read(p.fd, b[:])
	p.pending.Store(false) // before the list is taken: a client added after it wakes again
	p.mu.Lock()
	list := p.list
	p.list = p.spare
	p.mu.Unlock()
	for _, c := range list {
		l.deliverPushes(c)
	}
	clear(list)
	p.spare = list[:0]
}

// deliverPushes writes the queue of client c if it is parked: a whole queue written leaves
// it parked; a socket that takes part of it hands c, with the rest as unwritten replies, to a
// goroutine that waits for it to drain (bounded by the output limit). A client someone else
// serves is left to them: they write the queue after their batch, or hand it back here when
// they park it (afterParked). A queue over its limit closes the client.
func (l *readinessLoop) deliverPushes(c *client) {
	s := c.subs.Load()
	if s == nil || s.pending.Load() == 0 && !s.isDead() {
		return
	}
	if !c.state.CompareAndSwap(clientParked, clientActive) {
		if s.isDead() && c.state.Load() == clientActive {
			c.killed.Store(true)
			c.shutdownSocket() // whoever serves it reads EOF and closes it
		}
		return
	}
	action := servePark
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
		default:
			c.state.Store(clientParked)
			c.afterParked()
		}
	}()
	action = l.writePushes(c, s)
}

// isDead reports whether the queue went over its limit.
func (s *clientSubs) isDead() bool {
	s.out.Lock()
	defer s.out.Unlock()
	return s.out.dead
}

// writePushes writes c's queue to its socket without waiting; the loop serves c.
func (l *readinessLoop) writePushes(c *client, s *clientSubs) serveAction {
	c.mu.Lock()
	defer c.mu.Unlock()
	buf, dead := s.takePushes()
	if dead {
		return serveClose
	}
	written := 0
	for written < len(buf) {
		n, err := rawWrite(int(c.fd), buf[written:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
		case err != nil || n == 0:
			c.srv.log.Debug("cannot write pushes", zap.Int64("id", c.id), zap.Error(err))
			return serveClose
		}
		if err == syscall.EAGAIN {
			break
		}
		written += n
	}
	if len(buf) > 0 {
		l.io.writes.Store(l.io.writes.Load() + 1)
		c.netOut.Store(c.netOut.Load() + int64(written))
	}
	if written < len(buf) {
		c.attachActiveLocked(l)
		c.w.Raw(buf[written:])
		putPushBuffer(buf)
		return serveHandoff
	}
	putPushBuffer(buf)
	return servePark
}
