package server

import (
	"runtime"
	"runtime/debug"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// Idle clients are parked without a goroutine: a goroutine waiting on a socket costs a few KB
// of stack, a parked client only its struct. A client whose read would block hands its fd to a
// readiness loop (epoll, one per P) and its goroutine ends — at once when there are more client
// goroutines than goroutineBudget, after parkAfterIdle of silence otherwise, so that active
// clients (pipelines, request/response at P=1) never pay for a hand-off. When the fd is
// readable, the loop starts a goroutine that serves the client again. New connections start
// parked.

const (
	// parkAfterIdle is how long a client with its own goroutine may wait for data before it is
	// parked: long enough that a client between two requests keeps its goroutine.
	parkAfterIdle = 2 * time.Second
	// goroutinesPerP is the budget of client goroutines per P; above it clients park at once.
	goroutinesPerP = 64
	// freeStacksAfterParks: after this many parks the cron returns freed stacks to the OS.
	freeStacksAfterParks = 256
)

// Client states.
const (
	clientActive uint32 = iota // a goroutine serves it
	clientParked               // its fd waits in a readiness loop; no goroutine
	clientClosed
)

// readinessLoop is one epoll instance and the goroutine waiting on it.
type readinessLoop struct {
	srv  *Server
	epfd int
}

// startReadinessLoops makes one loop per P. A failure leaves the server without parking:
// clients then keep their goroutines.
func (s *Server) startReadinessLoops() {
	for range runtime.GOMAXPROCS(0) {
		epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
		if err != nil {
			s.log.Warn("epoll unavailable: idle clients keep their goroutines", zap.Error(err))
			s.closeReadinessLoops()
			return
		}
		l := &readinessLoop{srv: s, epfd: epfd}
		s.loops = append(s.loops, l)
	}
	// Woken clients beyond the goroutine budget are served by a fixed set of workers, so that
	// a wave of wake-ups does not create (and leave behind, as the runtime keeps a dead
	// goroutine's descriptor for reuse) one goroutine per client.
	s.wakeQueue = make(chan *client, wakeQueueSize)
	for range s.goroutineBudget() / 2 {
		go s.wakeWorker()
	}
	for _, l := range s.loops {
		s.loopsRunning.Add(1)
		go l.run()
	}
}

// wakeQueueSize bounds the clients waiting for a worker; past it a wake-up gets a goroutine.
const wakeQueueSize = 4096

// goroutineBudget is the number of client goroutines above which clients park at once.
func (s *Server) goroutineBudget() int { return goroutinesPerP * len(s.loops) }

// wakeWorker serves woken clients one after the other until the queue closes at shutdown.
// A client served here parks again as soon as it has nothing to read (over budget), which
// frees the worker for the next.
func (s *Server) wakeWorker() {
	for c := range s.wakeQueue {
		c.serveOn(true)
	}
}

func (s *Server) closeReadinessLoops() {
	for _, l := range s.loops {
		_ = unix.Close(l.epfd)
	}
	s.loops = nil
}

// parkNew parks a new connection before it has a goroutine. It reports false when the client
// needs a goroutine instead.
func (s *Server) parkNew(c *client) bool {
	if len(s.loops) == 0 || c.fd < 0 {
		return false
	}
	c.epollArmed = true
	c.state.Store(clientParked)
	if s.armReadiness(c, false) {
		return true
	}
	c.state.Store(clientActive) // no goroutine can have it: the registration failed
	c.epollArmed = false
	return false
}

// overGoroutineBudget reports whether clients should park as soon as they have nothing to read.
func (s *Server) overGoroutineBudget() bool {
	return len(s.loops) > 0 && s.goroutines.Load() > int64(s.goroutineBudget())
}

// park hands client c, whose goroutine is about to end, to its readiness loop. It reports
// false if the client cannot be parked (no loop, no fd, closing), and then the goroutine goes on.
func (s *Server) park(c *client) bool {
	if len(s.loops) == 0 || c.fd < 0 || c.killed.Load() {
		return false
	}
	if c.parkDeadline != 0 {
		_ = c.conn.SetReadDeadline(time.Time{})
		c.parkDeadline = 0
	}
	c.mu.Lock()
	c.detachActiveLocked()
	c.mu.Unlock()
	wasArmed := c.epollArmed
	// Everything the next owner reads is written before the state says parked: once the fd is
	// registered, the loop may wake the client on another goroutine at any moment.
	c.epollArmed = true
	c.state.Store(clientParked)
	if !s.armReadiness(c, wasArmed) {
		if c.state.CompareAndSwap(clientParked, clientActive) {
			c.epollArmed = wasArmed
			c.mu.Lock()
			c.attachActiveLocked()
			c.mu.Unlock()
			return false
		}
		return true // killed meanwhile: the killer cleaned up
	}
	s.parks.Add(1)
	return true
}

// armReadiness registers c's fd with its loop for one readability event (EPOLL_CTL_MOD when it
// was registered before: EPOLLONESHOT disables it after each event). It touches nothing of c
// but its id and fd, which never change.
func (s *Server) armReadiness(c *client, registered bool) bool {
	l := s.loops[c.id%int64(len(s.loops))]
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP | unix.EPOLLONESHOT}
	*(*int64)(unsafePointerToFd(&ev)) = c.id
	op := unix.EPOLL_CTL_MOD
	if !registered {
		op = unix.EPOLL_CTL_ADD
	}
	if err := unix.EpollCtl(l.epfd, op, int(c.fd), &ev); err != nil {
		s.log.Debug("cannot park client", zap.Int64("id", c.id), zap.Error(err))
		return false
	}
	return true
}

// run waits for parked clients' fds and starts a goroutine for each that became readable.
func (l *readinessLoop) run() {
	defer l.srv.loopsRunning.Done()
	events := make([]unix.EpollEvent, 128)
	defer unix.Close(l.epfd)
	for !l.srv.closing.Load() {
		// A timeout, because closing an epoll fd does not wake a thread waiting on it: the loop
		// checks for shutdown twice a second.
		n, err := unix.EpollWait(l.epfd, events, 500)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return
		}
		for i := range events[:n] {
			// The id sits in the event's user data (see unsafePointerToFd).
			id := *(*int64)(unsafePointerToFd(&events[i]))
			l.srv.wake(id)
		}
	}
}

// wake resumes a parked client on a new goroutine.
func (s *Server) wake(id int64) {
	s.mu.Lock()
	c := s.mu.clients[id]
	s.mu.Unlock()
	if c == nil || !c.state.CompareAndSwap(clientParked, clientActive) {
		return
	}
	if s.goroutines.Load() >= int64(s.goroutineBudget()) {
		select {
		case s.wakeQueue <- c:
			return
		default:
		}
	}
	go c.serve()
}

// closeParked closes a parked client from another goroutine (CLIENT KILL, shutdown). It reports
// false if the client was not parked: its own goroutine then notices the closed connection.
func (s *Server) closeParked(c *client) bool {
	if !c.state.CompareAndSwap(clientParked, clientClosed) {
		return false
	}
	_ = c.conn.Close() // closing the fd also takes it out of its epoll set
	c.releaseBuffers()
	s.removeClient(c)
	return true
}

// parkedStacksCron returns the stacks of goroutines that ended by parking to the OS after a
// batch of parks: cheap, as the Go heap is small, and it is what makes an idle client cost
// only its struct.
//
// It runs after freeStacksAfterParks parks, or once parking has settled (some parks, then none
// for a second), so that the last few stacks of a wave are not left behind.
func (s *Server) parkedStacksCron() {
	parks := s.parks.Load()
	delta := parks - s.cron.parksAtLastFree
	if delta != s.cron.lastParkDelta {
		s.cron.lastParkDelta, s.cron.lastParkChange = delta, time.Now()
	}
	settled := delta > 0 && time.Since(s.cron.lastParkChange) > time.Second
	if delta < freeStacksAfterParks && !settled {
		return
	}
	s.cron.parksAtLastFree, s.cron.lastParkDelta = parks, 0
	debug.FreeOSMemory()
}

// parked counts the parked clients (INFO).
func (s *Server) parkedClients() int64 {
	var n int64
	for _, c := range s.clientsSnapshot() {
		if c.state.Load() == clientParked {
			n++
		}
	}
	return n
}
