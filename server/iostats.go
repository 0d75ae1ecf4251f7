package server

import "sync/atomic"

// total_reads_processed and total_writes_processed: the reads of a client's socket that found
// bytes, an end or an error (Redis counts each read event; an EAGAIN here is the poll a parking
// goroutine makes, which Redis does not make), and the flushes of its replies (Redis counts
// each writeToClient). A counter per client would take the client struct past its 256 bytes,
// so a client served inline counts in its readiness loop's own counters (one writer, the loop:
// no locked instruction), and one served on a goroutine in a slot of ioCounters picked by its
// id, a cache line each, so that goroutines on different cores seldom share one.

// ioCounterSlots is how many slots ioCounters spreads the goroutines' counts over (a power of
// two).
const ioCounterSlots = 16

// ioCount is a pair of counts.
type ioCount struct{ reads, writes atomic.Int64 }

// ioCounters are the counts of clients served on goroutines, and the totals CONFIG RESETSTAT
// last saw (subtracted from what INFO prints).
type ioCounters struct {
	slots [ioCounterSlots]struct {
		ioCount
		_ [48]byte // to 64 bytes: one cache line a slot
	}
	baseReads, baseWrites atomic.Int64
}

// countRead counts a read of c's socket. The caller serves c.
func (c *client) countRead() {
	if l := c.loop; l != nil {
		l.io.reads.Store(l.io.reads.Load() + 1)
		return
	}
	c.srv.io.slots[c.id&(ioCounterSlots-1)].reads.Add(1)
}

// countWrite counts a flush of c's replies. The caller serves c.
func (c *client) countWrite() {
	if l := c.loop; l != nil {
		l.io.writes.Store(l.io.writes.Load() + 1)
		return
	}
	c.srv.io.slots[c.id&(ioCounterSlots-1)].writes.Add(1)
}

// ioTotals sums the loops' and the slots' counts since the last CONFIG RESETSTAT.
func (s *Server) ioTotals() (reads, writes int64) {
	reads, writes = s.ioSums()
	return reads - s.io.baseReads.Load(), writes - s.io.baseWrites.Load()
}

// ioSums sums the loops' and the slots' counts since the start.
func (s *Server) ioSums() (reads, writes int64) {
	for _, l := range s.loops {
		reads += l.io.reads.Load()
		writes += l.io.writes.Load()
	}
	for i := range s.io.slots {
		reads += s.io.slots[i].reads.Load()
		writes += s.io.slots[i].writes.Load()
	}
	return reads, writes
}

// resetIO is CONFIG RESETSTAT's part: the counts start again from 0.
func (s *Server) resetIO() {
	r, w := s.ioSums()
	s.io.baseReads.Store(r)
	s.io.baseWrites.Store(w)
}
