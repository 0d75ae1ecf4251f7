package server

import (
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/alloc"
)

// Cron budgets. Each tick gives the keyspace a slice of time for incremental rehashing of idle
// shards and for active expiry; Redis's activeExpireCycle takes 25% of a tick at most, and we
// stay well below that so that commands keep their cores.
const (
	cronExpireBudget = time.Millisecond
	// opsSamples is the window of instantaneous_ops_per_sec, as Redis's STATS_METRIC_SAMPLES.
	opsSamples = 16
)

// cronState is what the cron keeps between ticks. Written by the cron goroutine; the atomics
// are read by INFO.
type cronState struct {
	goRuntime       atomic.Int64 // Go heap in use and stacks, from runtime/metrics
	opsPerSec       atomic.Int64
	nextClientID    int64       // the clients cron resumes at the first client with this id or above
	paused          atomic.Bool // DEBUG PAUSE-CRON
	parksAtLastFree int64       // parks counted at the last return of stacks to the OS
	lastParkDelta   int64       // parks since then, when last seen changing
	lastParkChange  time.Time   // when that was
	lastOpsTime     time.Time
	lastOps         int64
	opsSamples      [opsSamples]int64
	opsIdx          int
}

// runCron runs the background tasks hz times a second until shutdown.
func (s *Server) runCron() {
	defer s.wg.Done()
	s.ks.TickLRUClock()
	s.cronTick(time.Now())
	for {
		hz := max(1, min(500, s.cfg.Hz()))
		t := time.NewTimer(time.Second / time.Duration(hz))
		select {
		case <-s.done:
			t.Stop()
			return
		case now := <-t.C:
			s.ks.TickLRUClock() // even with the cron paused: the keys' idle times go on
			if !s.cron.paused.Load() {
				s.cronTick(now)
				s.clientsCron(hz)
				s.parkedStacksCron()
			}
		}
	}
}

// cronTick is one run of the background tasks.
func (s *Server) cronTick(now time.Time) {
	s.keyspaceCron()
	s.cron.goRuntime.Store(alloc.GoRuntimeInUse())
	if used := s.usedMemory(); used > s.stats.usedMemoryPeak.Load() {
		s.stats.usedMemoryPeak.Store(used)
	}
	s.sampleOps(now)
}

// sampleOps keeps instantaneous_ops_per_sec: the mean rate over the last opsSamples samples,
// one every 100 ms at most, as Redis's trackInstantaneousMetric.
func (s *Server) sampleOps(now time.Time) {
	cs := &s.cron
	if !cs.lastOpsTime.IsZero() && now.Sub(cs.lastOpsTime) < 100*time.Millisecond {
		return
	}
	ops := s.totalCommands()
	if !cs.lastOpsTime.IsZero() {
		elapsed := now.Sub(cs.lastOpsTime).Seconds()
		cs.opsSamples[cs.opsIdx] = int64(float64(ops-cs.lastOps) / elapsed)
		cs.opsIdx = (cs.opsIdx + 1) % opsSamples
		var sum int64
		for _, v := range cs.opsSamples {
			sum += v
		}
		cs.opsPerSec.Store(sum / opsSamples)
	}
	cs.lastOpsTime, cs.lastOps = now, ops
}

// totalCommands is total_commands_processed: live clients' counters and those of clients gone.
func (s *Server) totalCommands() int64 {
	n := s.stats.closedCmds.Load()
	for _, c := range s.clientsSnapshot() {
		n += c.totCmds.Load()
	}
	return n
}

// usedMemory is used_memory: every arena's charge plus the Go runtime's heap and stacks (as
// last sampled by the cron).
func (s *Server) usedMemory() int64 {
	return s.ks.UsedMemory() + s.clientArena.Used() + s.cron.goRuntime.Load()
}

// resetStats is CONFIG RESETSTAT.
func (s *Server) resetStats() {
	s.stats.rejectedConnections.Store(0)
	s.stats.queryBufLimitDisconnections.Store(0)
	s.stats.outputLimitDisconnections.Store(0)
	s.stats.usedMemoryPeak.Store(s.usedMemory())
	s.stats.expiredBase.Store(s.ks.ExpiredKeys())
	s.stats.hitsBase.Store(s.keyspaceHits())
	s.stats.missesBase.Store(s.keyspaceMisses())
	s.observe.cmdStats.Reset()
}

// keyspaceHits sums keyspace_hits over live and closed clients.
func (s *Server) keyspaceHits() int64 {
	n := s.stats.closedHits.Load()
	for _, c := range s.clientsSnapshot() {
		n += c.keyStats.Hits.Load()
	}
	return n
}

// keyspaceMisses sums keyspace_misses over live and closed clients.
func (s *Server) keyspaceMisses() int64 {
	n := s.stats.closedMisses.Load()
	for _, c := range s.clientsSnapshot() {
		n += c.keyStats.Misses.Load()
	}
	return n
}
