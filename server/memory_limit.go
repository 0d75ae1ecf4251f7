package server

import (
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/evict"
	"github.com/kvserver/kvserver/latency"
)

// The memory limit's side of the server: the evictor the pipeline consults before each
// command (package evict), fed by the configuration and by the cron.

// startMemoryLimit makes the evictor, hands it to the pipeline and keeps it configured; its
// timings go to the latency monitor (eviction-cycle, eviction-del).
func (s *Server) startMemoryLimit() {
	s.evictor = evict.New(s.ks, s.usedMemoryForEviction)
	s.evictor.Timing = func(what evict.Timed, d time.Duration) {
		event := latency.EventEvictionCycle
		if what == evict.Delete {
			event = latency.EventEvictionDel
		}
		s.observe.latency.AddSampleIfNeeded(event, d.Milliseconds())
	}
	s.pipeline.Evictor = s.evictor
	s.cron.goLive.Store(alloc.GoRuntimeLive())
	s.evictor.Follow(s.cfg)
}

// usedMemoryForEviction is used_memory as the limit counts it, cheap enough for every
// command: the shards' charge as last reported (within 32 KiB a shard), the clients' buffers,
// and the Go runtime's live heap and stacks as the cron last read them — live objects, not
// garbage awaiting collection, so that eviction does not follow the GC cycle.
func (s *Server) usedMemoryForEviction() int64 {
	return s.ks.UsedMemoryApprox() + s.clientArena.Used() + s.cron.goLive.Load()
}

// evictionCron finishes what commands could not within maxmemory-eviction-tenacity (Redis's
// evictionTimeProc), and notes the end of a stretch over the limit.
func (s *Server) evictionCron() {
	s.cron.goLive.Store(alloc.GoRuntimeLive())
	if s.evictor.MaxMemory() > 0 {
		s.evictor.Perform()
	}
}
