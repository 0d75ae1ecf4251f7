package server

import (
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/kvserver/kvserver/querybuf"
)

// Clients are served by readiness loops (one per two Ps, see loopCount), as Redis's event loop
// serves them: a client socket waits in a loop's epoll set, and when it is readable the loop
// reads it once, runs the commands that arrived and writes the replies itself — no goroutine,
// no hand-off, one read and one write per request. An idle client therefore costs only its
// struct: no goroutine, no buffer, no netpoller registration (the socket is a bare fd).
//
// A command that may take long (see runsInline) or a reply that cannot be written at once hands
// the client to a goroutine of its own, which runs until the client has nothing more to read
// and then gives it back to its loop (its socket is out of the epoll set meanwhile). Such a
// goroutine waits for a full socket to drain through the loop too (waitWritable): the
// netpoller never sees a client socket.
//
// A loop's epoll fd is itself registered with Go's netpoller, so a loop with nothing to do is a
// parked goroutine like any other, and the Go scheduler wakes it: there is no thread blocked in
// epoll_wait.

// Client states: who owns the client.
const (
	clientActive uint32 = iota // a goroutine, or its loop running it inline, serves it
	clientParked               // it waits in its loop's epoll set; nobody is running it
	clientClosed
	clientBlocked // parked in a blocking command: its loop watches for hang-ups only (blocked.go)
)

// loopEvents is how many ready sockets one epoll_wait returns at most.
const loopEvents = 256

// readinessLoop is one epoll set and the goroutine serving it.
type readinessLoop struct {
	srv    *Server
	epfd   int
	file   *os.File // epfd, registered with the netpoller
	raw    syscall.RawConn
	events []unix.EpollEvent
	pollFn func(fd uintptr) bool // l.poll, made once
	states []*activeState        // free active states, this loop's own (no locking)

	// The loop's own shared buffers, for the clients it serves inline. One client at a time
	// reads into readBuf. Each client whose replies wait for the end of the round (deferred)
	// holds a reply buffer: replyBufs are the free ones, at most loopReplyBuffers (beyond, the
	// clients borrow from the server's pool; a client handed to a goroutine with unwritten
	// replies keeps its buffer).
	readBuf   []byte
	replyBufs [][]byte
	// deferred are the clients served in this round whose replies are not written yet
	// (writeDeferred), in the order they ran.
	deferred []*client
	// sharedRounds counts the rounds that wrote the replies of two clients or more together
	// (written by the loop, read by tests).
	sharedRounds atomic.Int64
	// io counts the reads and flushes of the clients it serves inline (iostats.go); written
	// by the loop only, read by INFO.
	io ioCount
	// pushes are the pub/sub messages waiting for its parked clients (pushes.go).
	pushes loopPushes
}

// freeStatesPerLoop bounds a loop's free list of active states: it covers the clients a loop
// serves in one round, and the rest go back to the server's pool or the collector.
const freeStatesPerLoop = 64

// loopReplyBuffers bounds a loop's free reply buffers, and maxDeferred the clients whose
// replies wait for the end of a round: redis-benchmark's 50 clients at -P 16 come about 13 to
// a round (Redis's figure too), and a round with more writes the rest at once, so that a burst
// of clients never holds more than maxDeferred shared buffers.
const (
	loopReplyBuffers = 16
	maxDeferred      = 32
)

// loopCount is how many readiness loops a server runs: one per two Ps. A loop's thread does
// the kernel's share of its sockets' network work in its syscalls, and its clients wait while
// the OS runs something else on that thread: as many loops as cores, on a machine where the
// clients (or anything else) want cores too, had the OS time-slice them, and redis-benchmark
// -P 16 on this 2-core machine saw p99 latencies of 15-17 ms (1 loop: 2.5-3.5 ms, at the same
// throughput). The other Ps run hand-offs, the cron and the collector.
func loopCount() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// startReadinessLoops makes the loops.
func (s *Server) startReadinessLoops() error {
	for range loopCount() {
		l, err := newReadinessLoop(s)
		if err != nil {
			s.closeReadinessLoops()
			return err
		}
		s.loops = append(s.loops, l)
	}
	for _, l := range s.loops {
		s.loopsRunning.Add(1)
		go l.run()
	}
	return nil
}

func newReadinessLoop(s *Server) (*readinessLoop, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	// O_NONBLOCK makes os.NewFile register the fd with the netpoller; epoll_wait itself is
	// always called with a zero timeout.
	if err := unix.SetNonblock(epfd, true); err != nil {
		unix.Close(epfd)
		return nil, err
	}
	file := os.NewFile(uintptr(epfd), "epoll")
	raw, err := file.SyscallConn()
	if err != nil {
		file.Close()
		return nil, err
	}
	l := &readinessLoop{srv: s, epfd: epfd, file: file, raw: raw, events: make([]unix.EpollEvent, loopEvents),
		readBuf: make([]byte, querybuf.SharedBufferSize), replyBufs: [][]byte{make([]byte, querybuf.SharedBufferSize)}}
	l.pollFn = l.poll
	if err := l.initPushes(); err != nil {
		file.Close()
		return nil, err
	}
	return l, nil
}

// closeReadinessLoops closes the epoll sets once the loops have ended (or never started).
func (s *Server) closeReadinessLoops() {
	for _, l := range s.loops {
		l.closePushes()
		_ = l.file.Close()
	}
	s.loops = nil
}

// stopReadinessLoops makes every loop return once the clients are gone.
func (s *Server) stopReadinessLoops() {
	for _, l := range s.loops {
		_ = l.file.SetReadDeadline(time.Unix(1, 0))
	}
}

// run serves the loop's clients until Shutdown stops it.
func (l *readinessLoop) run() {
	defer l.srv.loopsRunning.Done()
	for {
		err := l.raw.Read(l.pollFn)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) && !l.srv.closing.Load() {
				continue
			}
			return
		}
	}
}

// poll is the RawConn.Read callback: it serves the ready sockets round after round, until an
// epoll_wait finds none, and then reports false — wait for the netpoller. It never reports true:
// each Read would begin by clearing the readiness the netpoller recorded meanwhile. Within one
// Read nothing is lost: every event after an epoll_wait notifies the netpoller (an epoll set
// wakes its pollers on each new event), so the wait returns at once if one came in between.
//
// Polling again after a round, rather than waiting at once, costs an epoll_wait when nothing
// came, and saves a trip through the scheduler (park, netpoll, wake) when something did, which
// under load is most of the time: at P=1 with 50 clients it took the server's ops per CPU-second
// from 0.97-0.98x Redis's to 1.02-1.03x (medians of 5 alternating rounds).
//
// A round reads and runs every ready client before it writes any reply (writeDeferred), as
// Redis writes its replies in beforeSleep: the clients then get their replies together and
// send their next requests together, so that the next epoll_wait finds many of them ready
// rather than one — fewer waits, and fewer trips through the netpoller, per command.
func (l *readinessLoop) poll(uintptr) bool {
	for {
		n := epollWaitNow(l.epfd, l.events)
		if n <= 0 {
			return false
		}
		for i := range l.events[:n] {
			l.dispatch(&l.events[i])
		}
		if len(l.deferred) > 0 {
			l.writeDeferred()
		}
	}
}

// dispatch serves the client of one event: inline if it is parked, or wakes its goroutine if
// one waits for the socket to drain. An event for a client a goroutine is about to give back
// (it arms the socket before it says parked) is reported again by the next epoll_wait, as the
// socket is level-triggered.
func (l *readinessLoop) dispatch(ev *unix.EpollEvent) {
	fd, id := eventClient(ev)
	if l.isPushEvent(fd) {
		l.deliverQueuedPushes()
		return
	}
	c := l.srv.clientByFD(fd)
	if c == nil || uint32(c.id) != id {
		return // closed since the event
	}
	if !c.state.CompareAndSwap(clientParked, clientActive) {
		switch {
		case c.state.CompareAndSwap(clientBlocked, clientActive):
			l.blockedEvent(c, ev.Events)
		case c.state.Load() == clientActive:
			c.notifyWritable()
		}
		return
	}
	l.serveInline(c)
}

// serveInline reads once from client c and runs what arrived. Its replies are written at once,
// or, deferred, when the round ends (writeDeferred). Unless deferred, the client ends parked
// again, closed, or handed to a goroutine.
func (l *readinessLoop) serveInline(c *client) {
	action := serveClose
	defer func() {
		if r := recover(); r != nil {
			c.logPanic(r)
			action = serveClose
		}
		l.afterStep(c, action)
	}()
	action = l.step(c)
}

// afterStep does what a step's action says, with the client's lock released.
func (l *readinessLoop) afterStep(c *client, action serveAction) {
	switch action {
	case serveDeferred:
		// Still active: writeDeferred finishes the step.
	case serveClose:
		c.close()
	case serveHandoff:
		c.srv.handoff(c)
	case serveBlock:
		if !c.srv.parkBlocked(c, true) {
			c.close()
		}
	default:
		c.state.Store(clientParked)
		c.afterParked() // pub/sub messages queued meanwhile
		// A kill that found the client busy shut its socket down: the next round reads EOF
		// and closes it.
	}
}

// step runs one step of client c under its lock, taken once: the active state attached (from
// the loop's free list), the loop's buffers lent, and the state given back after unless
// something is half-parsed or unwritten or a goroutine takes over.
func (l *readinessLoop) step(c *client) serveAction {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.attachActiveLocked(l)
	c.loop = l
	action := l.stepLocked(c)
	c.loop = nil // a panic leaves it set: detachActiveLocked clears it when the client closes
	if action == serveContinue || action == servePark || action == serveBlock {
		c.detachActiveLocked(l)
	}
	return action
}

// stepLocked is client.stepLocked for a socket served inline, but for its end: replies wait for
// the end of the round (serveDeferred) while fewer than maxDeferred clients' do.
func (l *readinessLoop) stepLocked(c *client) serveAction {
	err := c.readLocked()
	if c.readKind == readNone && err == nil && c.readErr == nil {
		return servePark // EAGAIN
	}
	if action, done := c.runReadLocked(true, err); done {
		return action
	}
	if c.w.Len() > 0 && len(l.deferred) < maxDeferred {
		l.deferred = append(l.deferred, c)
		return serveDeferred
	}
	return c.replyLocked(true)
}

// writeDeferred ends the round: the deferred clients' replies written, in the order the clients
// ran, each client then parked, closed or handed over as its step says.
func (l *readinessLoop) writeDeferred() {
	if len(l.deferred) > 1 {
		l.sharedRounds.Store(l.sharedRounds.Load() + 1)
	}
	for i, c := range l.deferred {
		l.deferred[i] = nil
		l.finishDeferred(c)
	}
	l.deferred = l.deferred[:0]
}

// finishDeferred is the end of a deferred step: client c's replies written (replyLocked).
func (l *readinessLoop) finishDeferred(c *client) {
	action := serveClose
	defer func() {
		if r := recover(); r != nil {
			c.logPanic(r)
			action = serveClose
		}
		l.afterStep(c, action)
	}()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loop = l
	action = c.replyLocked(true)
	c.loop = nil
	if action == serveContinue || action == serveBlock {
		c.detachActiveLocked(l)
	}
}

// handoff gives client c, taken from its loop, to a goroutine of its own. Its socket leaves the
// epoll set meanwhile (see park for why not merely disabled).
func (s *Server) handoff(c *client) {
	if err := s.epollCtl(c, unix.EPOLL_CTL_DEL, 0); err != nil {
		s.log.Debug("cannot take client socket out of its loop", zap.Int64("id", c.id), zap.Error(err))
	}
	c.inEpoll, c.hupOnly = false, false
	s.serveOnWorker(c)
}

// park gives client c, served by a goroutine that found nothing more to read, back to its loop.
// It reports false if the client cannot be parked (killed, or the loop is gone), and then the
// goroutine closes it. The socket is armed before the state says parked, so that nothing
// touches the fd after another goroutine (a killer) may have closed it.
//
// The socket is added anew (or modified after a one-shot write wait, which leaves it off the
// ready list): modifying a registration the epoll set still holds on its ready list from an
// earlier round wakes nobody, and data that came meanwhile would wait for the next event.
func (s *Server) park(c *client) bool {
	if c.killed.Load() || s.closing.Load() {
		return false
	}
	c.mu.Lock()
	c.detachActiveLocked(nil)
	c.mu.Unlock()
	if err := s.armRead(c); err != nil {
		s.log.Debug("cannot park client", zap.Int64("id", c.id), zap.Error(err))
		return false
	}
	c.state.Store(clientParked)
	c.afterParked() // pub/sub messages queued meanwhile
	s.parks.Add(1)
	return true
}

// register adds a new client's socket to its loop, parked. Until the state says so, the loop
// leaves an early event for later (see dispatch).
func (s *Server) register(c *client) error {
	if err := s.armRead(c); err != nil {
		return err
	}
	c.state.Store(clientParked)
	return nil
}

// armRead registers c's socket for readability, level-triggered: while data is unread, every
// round of the loop reports it.
func (s *Server) armRead(c *client) error {
	return s.epollSet(c, unix.EPOLLIN|unix.EPOLLRDHUP)
}

// armWrite asks for one report when c's socket can take more output (waitWritable).
func (s *Server) armWrite(c *client) error {
	return s.epollSet(c, unix.EPOLLOUT|unix.EPOLLRDHUP|unix.EPOLLONESHOT)
}

// epollSet adds c's socket to its loop's epoll set, or modifies its registration there.
func (s *Server) epollSet(c *client, events uint32) error {
	op := unix.EPOLL_CTL_ADD
	if c.inEpoll {
		op = unix.EPOLL_CTL_MOD
	}
	if err := s.epollCtl(c, op, events); err != nil {
		return err
	}
	c.inEpoll = true
	return nil
}

func (s *Server) epollCtl(c *client, op int, events uint32) error {
	l := s.loopOf(c)
	ev := unix.EpollEvent{Events: events}
	setEventClient(&ev, c.fd, uint32(c.id))
	return unix.EpollCtl(l.epfd, op, int(c.fd), &ev)
}

// loopOf is the loop that serves c.
func (s *Server) loopOf(c *client) *readinessLoop { return s.loops[c.id%int64(len(s.loops))] }

// eventClient and setEventClient keep a client's fd and the low half of its id in an event's
// 8 bytes of user data (the EpollEvent's Fd and Pad fields): the fd finds the client, the id
// tells a reused fd from the one the event was for.
func eventClient(ev *unix.EpollEvent) (fd int32, id uint32) {
	return ev.Fd, uint32(ev.Pad)
}

func setEventClient(ev *unix.EpollEvent, fd int32, id uint32) {
	ev.Fd, ev.Pad = fd, int32(id)
}

// epollWaitNow is epoll_wait with a zero timeout, as a raw syscall: it never blocks, so it
// needs no entersyscall (see rawRead).
func epollWaitNow(epfd int, events []unix.EpollEvent) int {
	r, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(epfd),
		uintptr(unsafe.Pointer(unsafe.SliceData(events))), uintptr(len(events)), 0, 0, 0)
	if e != 0 {
		return 0
	}
	return int(r)
}

// notifyWritable wakes c's goroutine if it waits for its socket to drain.
func (c *client) notifyWritable() {
	if ch := c.writeWaiter.Load(); ch != nil {
		select {
		case *ch <- struct{}{}:
		default:
		}
	}
}

// waitWritable blocks c's goroutine until its loop reports the socket writable (or hung up),
// or, with a positive limit, until that much time has passed (the output soft limit's).
func (c *client) waitWritable(limit time.Duration) error {
	if c.writable == nil {
		c.writable = make(chan struct{}, 1)
	}
	select {
	case <-c.writable:
	default:
	}
	c.writeWaiter.Store(&c.writable)
	defer c.writeWaiter.Store(nil)
	if err := c.srv.armWrite(c); err != nil {
		return err
	}
	if limit <= 0 {
		<-c.writable
		return nil
	}
	// Over the output soft limit: wait no longer than its time; the caller checks again.
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-c.writable:
	case <-t.C:
	}
	return nil
}

// closeParked closes a parked client from another goroutine (CLIENT KILL, shutdown). It reports
// false if the client was not parked: whoever serves it then finds the socket shut down.
func (s *Server) closeParked(c *client) bool {
	if !c.state.CompareAndSwap(clientParked, clientClosed) {
		return false
	}
	c.closeOwned()
	return true
}

// parkedStacksCron returns memory to the OS after a wave of clients went idle: the goroutines
// that served them ended, and their active states went to the collector. It runs after
// freeStacksAfterParks parks, or once parking has settled (some parks, then none for a second),
// so that the last few of a wave are not left behind. Cheap: the Go heap is small.
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

// freeStacksAfterParks: after this many parks the cron returns freed memory to the OS.
const freeStacksAfterParks = 256
