package server

import (
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/sds"
)

// Query buffer trimming thresholds, Redis's (clientsCronResizeQueryBuffer).
const (
	// qbufMinWaste: a buffer is only resized when more than this is unused — a smaller saving
	// is not worth a copy.
	qbufMinWaste = 4 << 10
	// qbufIdleMs: a client idle longer than this gives its empty private buffer back (Redis's
	// "idletime > 2", in seconds).
	qbufIdleMs = 2000
	// qbufResizeThreshold: an active client's buffer is trimmed only above this size
	// (PROTO_RESIZE_THRESHOLD) and when it is more than twice its recent peak.
	qbufResizeThreshold = 32 << 10
	// minClientsPerTick: the cron visits clients/hz clients per tick, at least this many, so
	// every client is seen about once a second.
	minClientsPerTick = 5
)

// clientsCron visits the next slice of clients, in id order, resuming after the last one
// visited.
func (s *Server) clientsCron(hz int) {
	clients := s.clientsSnapshot()
	if len(clients) == 0 {
		return
	}
	slices.SortFunc(clients, func(a, b *client) int { return int(a.id - b.id) })
	n := max(len(clients)/hz, minClientsPerTick)
	start, _ := slices.BinarySearchFunc(clients, s.cron.nextClientID, func(c *client, id int64) int {
		return int(c.id - id)
	})
	now := time.Now().UnixMilli()
	maxIdleMs := s.cfg.Timeout().Milliseconds() // read each tick: CONFIG SET applies at once
	for i := range min(n, len(clients)) {
		c := clients[(start+i)%len(clients)]
		c.cronVisit(now, maxIdleMs)
		s.cron.nextClientID = c.id + 1
	}
}

// cronVisit closes a client idle too long (clientsCronHandleTimeout) or trims its buffers. A
// client busy with a batch is skipped, not waited for.
func (c *client) cronVisit(now, maxIdleMs int64) {
	if c.handleTimeout(now, maxIdleMs) {
		return
	}
	if !c.mu.TryLock() {
		return
	}
	defer c.mu.Unlock()
	c.resizeQueryBufferLocked(now)
	if c.activeState != nil {
		c.parser.Trim()
	}
	c.publishBufferUse()
}

// resizeQueryBufferLocked applies Redis's rules to the private query buffer:
//   - nothing unless more than 4 KiB of it is unused;
//   - idle over 2 s: an empty buffer is freed (the client goes back to shared buffers), a
//     non-empty one is trimmed to its contents;
//   - otherwise a buffer above 32 KiB and more than twice its recent peak is trimmed to
//     max(contents, peak) — never below what the client just needed;
//
// then the peak restarts from what is in use. Resize is a no-op within a size class, and the
// buffer grows exactly below 16 KiB, which together keep a client out of a shrink/grow loop.
func (c *client) resizeQueryBufferLocked(now int64) {
	if c.qb.IsNil() {
		c.qbPeak = 0
		return
	}
	a := c.srv.clientArena
	length, size := c.qb.Len(a), c.qb.AllocSize(a)
	if c.qb.Avail(a) > qbufMinWaste {
		c.srv.clientArenaMu.Lock()
		switch {
		case now-c.lastInteraction.Load() > qbufIdleMs:
			if length == 0 {
				c.qb.Free(a)
				c.qb = sds.String{}
			} else {
				c.qb = c.qb.RemoveFreeSpace(a, true)
			}
		case size > qbufResizeThreshold && size/2 > c.qbPeak:
			c.qb = c.qb.Resize(a, max(length, c.qbPeak), true)
		}
		c.srv.clientArenaMu.Unlock()
	}
	c.qbPeak = c.qb.Len(a)
}

// handleTimeout is Redis's clientsCronHandleTimeout: with timeout set (maxIdleMs > 0), a client
// that has sent nothing for longer — idle, or holding half a command — is closed, and it
// reports true. Only a parked client is closed, as CLIENT KILL closes one (closeParked); a
// client being served is busy, not idle, and is left for a later visit.
//
// Redis exempts replicas, its master, blocked clients (their own timeout applies) and Pub/Sub
// subscribers; kvserver has none of these yet, and their checks belong in timeoutExempt.
func (c *client) handleTimeout(now, maxIdleMs int64) bool {
	if maxIdleMs <= 0 || now-c.lastInteraction.Load() <= maxIdleMs || c.timeoutExempt() {
		return false
	}
	if !c.srv.closeParked(c) {
		return false
	}
	if ce := c.srv.log.Check(zap.DebugLevel, "Closing idle client"); ce != nil { // Redis: verbose
		ce.Write(zap.Int64("id", c.id), zap.String("addr", c.remoteAddr()))
	}
	return true
}

// timeoutExempt reports whether the idle timeout does not apply to c: a replica, a master, a
// blocked client or a Pub/Sub subscriber in Redis — none of which exists yet.
func (c *client) timeoutExempt() bool { return false }
