package server

import (
	"slices"
	"time"

	"go.uber.org/zap"
)

// minClientsPerTick: the cron visits clients/hz clients per tick, at least this many, so every
// client is seen about once a second.
const minClientsPerTick = 5

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
	if maxIdleMs > 0 {
		// A client's last interaction is stamped with the cron's clock of the tick before it
		// (cronState.nowMs), up to a tick early: two ticks of slack, so that no client is closed
		// before its timeout (Redis's whole-second stamps give it a second of slack).
		maxIdleMs += 2 * 1000 / int64(hz)
	}
	for i := range min(n, len(clients)) {
		c := clients[(start+i)%len(clients)]
		c.cronVisit(now, maxIdleMs)
		s.cron.nextClientID = c.id + 1
	}
}

// cronVisit closes a client idle too long (clientsCronHandleTimeout) or trims its buffers:
// the private query buffer (querybuf.Private.Trim) and the argument arena of a client that
// keeps one (querybuf.Parser.Trim). A client busy with a batch is skipped, not waited for.
func (c *client) cronVisit(now, maxIdleMs int64) {
	if c.handleTimeout(now, maxIdleMs) {
		return
	}
	if !c.mu.TryLock() {
		return
	}
	defer c.mu.Unlock()
	c.qb.Trim(c.srv.clientBuffers(), now-c.lastInteraction.Load()) // Redis's rules, DESIGN §5
	if c.activeState != nil {
		c.parser.Trim()
	}
	c.publishBufferUse()
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
