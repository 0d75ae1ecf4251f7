package server

import (
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/latency"
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
	goLive atomic.Int64 // Go heap live at the last GC, and stacks (alloc.GoRuntimeLive)
	// nowMs is the time at the last tick, unix ms: the clients' last-interaction stamp, as
	// Redis stamps c->lastinteraction with its cached server.unixtime rather than read the
	// clock for every request (a clock read is 20-40 ns, a request at -P 1 about 250). Idle
	// times and the timeout are then exact to a tick (1/hz).
	nowMs           atomic.Int64
	opsPerSec       atomic.Int64
	nextClientID    int64       // the clients cron resumes at the first client with this id or above
	paused          atomic.Bool // DEBUG PAUSE-CRON
	parksAtLastFree int64       // parks counted at the last return of stacks to the OS
	lastParkDelta   int64       // parks since then, when last seen changing
	lastParkChange  time.Time   // when that was
	lastSpanRelease time.Time   // when the arenas last gave empty spans back (releaseSpansCron)
	lastBufferTrim  time.Time   // when the shared buffer pools were last trimmed (trimBuffersCron)
	lastOpsTime     time.Time
	// The instantaneous metrics, as Redis's trackInstantaneousMetric: commands, bytes read and
	// bytes written a second.
	ops, netIn, netOut instantMetric
	// inputBps and outputBps are instantaneous_input_kbps and _output_kbps, in bytes a second.
	inputBps, outputBps atomic.Int64
}

// instantMetric is one of Redis's instantaneous metrics: the rate of a counter over the last
// opsSamples samples.
type instantMetric struct {
	last    int64
	samples [opsSamples]int64
	idx     int
}

// sample records the rate of the counter, now at v, over elapsed seconds, and returns the mean
// of the samples.
func (m *instantMetric) sample(v int64, elapsed float64) int64 {
	m.samples[m.idx] = int64(float64(v-m.last) / elapsed)
	m.idx = (m.idx + 1) % opsSamples
	m.last = v
	var sum int64
	for _, x := range m.samples {
		sum += x
	}
	return sum / opsSamples
}

// runCron runs the background tasks hz times a second until shutdown.
func (s *Server) runCron() {
	defer s.wg.Done()
	s.ks.TickLRUClock()
	s.cron.nowMs.Store(time.Now().UnixMilli())
	s.cronTick(time.Now())
	for {
		hz := max(1, min(500, s.cfg.Hz()))
		t := time.NewTimer(time.Second / time.Duration(hz))
		select {
		case <-s.done:
			t.Stop()
			return
		case now := <-t.C:
			// Even with the cron paused: the keys' and the clients' idle times go on.
			s.ks.TickLRUClock()
			s.cron.nowMs.Store(now.UnixMilli())
			if !s.cron.paused.Load() {
				s.cronTick(now)
				s.clientsCron(hz)
				s.parkedStacksCron()
				// The whole tick is kvserver's own latency event "cron" (Redis has none: its
				// serverCron's parts have theirs, as expire-cycle and eviction-cycle here).
				s.observe.latency.AddSampleIfNeeded(latency.EventCron, time.Since(now).Milliseconds())
			}
		}
	}
}

// cronTick is one run of the background tasks.
func (s *Server) cronTick(now time.Time) {
	s.keyspaceCron()
	s.lazyFreeCron()
	s.releaseSpansCron(now)
	s.trimBuffersCron(now)
	s.evictionCron()
	s.evictClientsCron()
	if !s.persist.Loading() {
		s.persist.Cron(now)
	}
	if used := s.usedMemory(); used > s.stats.usedMemoryPeak.Load() {
		s.stats.usedMemoryPeak.Store(used)
	}
	s.sampleOps(now)
}

// releaseSpansCron gives the shards' empty slab spans back to the OS once a second
// (keyspace.ReleaseEmptySpans): what values that grew through many size classes left
// resident. Shards busy at that moment are skipped until the next second.
func (s *Server) releaseSpansCron(now time.Time) {
	if now.Sub(s.cron.lastSpanRelease) < time.Second {
		return
	}
	s.cron.lastSpanRelease = now
	s.ks.ReleaseEmptySpans()
}

// sharedBuffersMax bounds each pool of shared buffers (readPool, replyPool): 64 buffers, 1 MiB,
// cover the clients of a burst that hold one at once (redis-benchmark's 50 handed-off clients
// waiting for one shard's lock took 50 reply buffers: with 4 kept, ZRANGE -P 16 allocated 16 KiB
// per batch, and its ops per server CPU-second were 0.55-0.75 of what they are with 64).
const sharedBuffersMax = 64

// trimBuffersCron gives back, once a second, the shared buffers that a whole second left
// unused in their pools (querybuf.Pool.Trim), and ends the hand-off workers a quiet second
// left idle (trimWorkersCron).
func (s *Server) trimBuffersCron(now time.Time) {
	if now.Sub(s.cron.lastBufferTrim) < time.Second {
		return
	}
	s.cron.lastBufferTrim = now
	s.readPool.Trim()
	s.replyPool.Trim()
	s.trimWorkersCron()
}

// sampleOps keeps instantaneous_ops_per_sec and instantaneous_input_kbps / _output_kbps: the
// mean rates over the last opsSamples samples, one every 100 ms at most, as Redis's
// trackInstantaneousMetric.
func (s *Server) sampleOps(now time.Time) {
	cs := &s.cron
	if !cs.lastOpsTime.IsZero() && now.Sub(cs.lastOpsTime) < 100*time.Millisecond {
		return
	}
	ops := s.totalCommands()
	in, out := s.netBytes()
	if cs.lastOpsTime.IsZero() {
		cs.ops.last, cs.netIn.last, cs.netOut.last = ops, in, out
	} else {
		elapsed := now.Sub(cs.lastOpsTime).Seconds()
		cs.opsPerSec.Store(cs.ops.sample(ops, elapsed))
		cs.inputBps.Store(cs.netIn.sample(in, elapsed))
		cs.outputBps.Store(cs.netOut.sample(out, elapsed))
	}
	cs.lastOpsTime = now
}

// netBytes is total_net_input_bytes and total_net_output_bytes: live clients' counters and
// those of clients gone.
func (s *Server) netBytes() (in, out int64) {
	in, out = s.stats.closedNetIn.Load(), s.stats.closedNetOut.Load()
	for _, c := range s.clientsSnapshot() {
		in += c.netIn.Load()
		out += c.netOut.Load()
	}
	return in, out
}

// totalCommands is total_commands_processed: live clients' counters and those of clients gone.
func (s *Server) totalCommands() int64 {
	n := s.stats.closedCmds.Load()
	for _, c := range s.clientsSnapshot() {
		n += c.totCmds.Load()
	}
	return n
}

// usedMemory is used_memory: every arena's charge plus the Go runtime's live heap and stacks
// (as last sampled by the cron) — the memory limit's measure, summed exactly.
func (s *Server) usedMemory() int64 {
	return s.ks.UsedMemory() + s.clientArena.Used() + s.cron.goLive.Load()
}

// resetStats is CONFIG RESETSTAT.
func (s *Server) resetStats() {
	s.stats.rejectedConnections.Store(0)
	s.stats.queryBufLimitDisconnections.Store(0)
	s.stats.outputLimitDisconnections.Store(0)
	s.stats.evictedClients.Store(0)
	s.stats.usedMemoryPeak.Store(s.usedMemory())
	s.stats.expiredBase.Store(s.ks.ExpiredKeys())
	s.stats.hitsBase.Store(s.keyspaceHits())
	s.stats.missesBase.Store(s.keyspaceMisses())
	s.evictor.ResetStats()
	s.stats.authFailures.Store(0)
	s.acl.step.DeniedCmd.Store(0)
	s.acl.step.DeniedKey.Store(0)
	s.acl.step.DeniedChannel.Store(0)
	s.stats.expireCapReached.Store(0)
	s.stats.expireCycleNanos.Store(0)
	s.ks.ResetLazyFreed()
	s.resetIO()
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
