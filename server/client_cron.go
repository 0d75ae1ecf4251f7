package server

import (
	"slices"
	"time"

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
	for i := range min(n, len(clients)) {
		c := clients[(start+i)%len(clients)]
		c.cronVisit(now)
		s.cron.nextClientID = c.id + 1
	}
}

// cronVisit trims a client's buffers. A client busy with a batch is skipped, not waited for.
func (c *client) cronVisit(now int64) {
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
