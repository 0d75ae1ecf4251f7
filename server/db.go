package server

import (
	"time"

	"github.com/kvserver/kvserver/latency"
)

// Cron budgets for the keyspace, in the keyspace's units: rehash steps per resizing table and
// TTL entries per shard per call. The cron calls again while due keys remain and its time
// allows (cronExpireBudget).
const (
	rehashStepsPerTick   = 256
	expireEntriesPerCall = 200
)

// keyspaceCron gives idle shards rehash steps and removes due keys within the time budget,
// unless DEBUG SET-ACTIVE-EXPIRE 0 turned active expiry off.
func (s *Server) keyspaceCron() {
	s.ks.RehashStep(rehashStepsPerTick)
	if !s.activeExpireEnabled() {
		return
	}
	s.debug().expiring.Lock()
	defer s.debug().expiring.Unlock()
	start := time.Now()
	// The cycle's time is the latency monitor's expire-cycle event, as in Redis's
	// activeExpireCycle, and expire_cycle_cpu_milliseconds.
	defer func() {
		elapsed := time.Since(start)
		s.stats.expireCycleNanos.Add(int64(elapsed))
		s.observe.latency.AddSampleIfNeeded(latency.EventExpireCycle, elapsed.Milliseconds())
	}()
	deadline := start.Add(cronExpireBudget)
	for s.activeExpireEnabled() { // turned off meanwhile: stop at once, not at the deadline
		_, more := s.ks.ActiveExpireCycle(expireEntriesPerCall)
		if !more {
			return
		}
		if time.Now().After(deadline) {
			s.stats.expireCapReached.Add(1)
			return
		}
	}
}
