package server

import (
	"runtime"
	"sync/atomic"
)

// Hand-off workers: a client taken from its loop (handoff) is served by a goroutine, and the
// goroutines that finish stay to serve the next ones instead of ending. A fresh goroutine starts
// on a small stack and grows it by copying as the command's frames go deeper, and the runtime
// frees a grown stack when its goroutine ends: with a goroutine per hand-off, ZRANGE -P 16 of
// 50 clients spent 17% of the server's CPU in starting goroutines and copying their stacks
// (go c.serve() 9%, copystack 8%).
//
// At most maxIdleWorkers wait at a time, so what idle workers hold is bounded (a grown stack
// each, 1-2 MiB in all); past that a finished worker ends, and a second without hand-offs ends
// all but keepIdleWorkers of them (trimWorkersCron). They wait on an unbuffered channel: a
// hand-off goes to a waiting worker, or, when none waits, to a new goroutine.
type handoffWorkers struct {
	next     chan *client  // nil tells a waiting worker to end
	idle     chan struct{} // a token per waiting worker, up to maxIdleWorkers
	handoffs atomic.Int64  // hand-offs since the start, for the cron
	started  atomic.Int64  // workers started since the start (tests: hand-offs reuse them)
	seen     int64         // handoffs at the cron's last look (the cron's own)
}

// maxIdleWorkers is how many finished workers may wait for the next hand-off: the clients of a
// burst that run at once (redis-benchmark's 50, all waiting for one shard's lock, need about
// that many; with one per P, most hand-offs still started a goroutine).
func maxIdleWorkers() int { return max(64, runtime.GOMAXPROCS(0)) }

// keepIdleWorkers is how many idle workers stay through a quiet second.
const keepIdleWorkers = 2

func newHandoffWorkers() handoffWorkers {
	return handoffWorkers{next: make(chan *client), idle: make(chan struct{}, maxIdleWorkers())}
}

// serveOnWorker serves c on a waiting worker, or on a new one.
func (s *Server) serveOnWorker(c *client) {
	s.workers.handoffs.Add(1)
	select {
	case s.workers.next <- c:
	default:
		s.workers.started.Add(1)
		go s.handoffWorker(c)
	}
}

// handoffWorker serves c, then the clients handed to it while it waits, until there are
// enough waiting workers or the server stops.
func (s *Server) handoffWorker(c *client) {
	for {
		c.serve()
		select {
		case s.workers.idle <- struct{}{}:
		default:
			return // enough workers wait
		}
		select {
		case c = <-s.workers.next:
			<-s.workers.idle
			if c == nil {
				return // retired by the cron
			}
		case <-s.done:
			<-s.workers.idle
			return
		}
	}
}

// trimWorkersCron ends the idle workers but keepIdleWorkers once a second passed without a
// hand-off, so that a burst's workers and their stacks do not stay for good.
func (s *Server) trimWorkersCron() {
	w := &s.workers
	n := w.handoffs.Load()
	quiet := n == w.seen
	w.seen = n
	if !quiet {
		return
	}
	for range len(w.idle) - keepIdleWorkers {
		select {
		case w.next <- nil:
		default:
			return
		}
	}
}
