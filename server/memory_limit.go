package server

import (
	"math"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/evict"
	"github.com/kvserver/kvserver/latency"
)

// The memory limit's side of the server: the evictor the pipeline consults before each
// command (package evict), fed by the configuration and by the cron.

// memoryLimitParams are the directives the evictor follows.
var memoryLimitParams = []string{"maxmemory", "maxmemory-policy", "maxmemory-samples",
	"maxmemory-eviction-tenacity", "lfu-log-factor", "lfu-decay-time"}

// startMemoryLimit makes the evictor, hands it to the pipeline and keeps it configured.
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
	s.configureMemoryLimit()
	for _, name := range memoryLimitParams {
		s.cfg.OnChange(name, func(string) { s.configureMemoryLimit() })
	}
}

// configureMemoryLimit applies the current settings. The Go runtime's soft memory limit
// follows maxmemory, so that the heap is collected before the limit is reached rather than
// counted against it as garbage.
func (s *Server) configureMemoryLimit() {
	intValue := func(name string) int64 {
		v, _ := s.cfg.Value(name)
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	}
	policy, _ := evict.ParsePolicy(s.cfg.MaxMemoryPolicy())
	maxmemory := int64(min(s.cfg.MaxMemory(), math.MaxInt64))
	s.evictor.Configure(evict.Settings{
		MaxMemory:    maxmemory,
		Policy:       policy,
		Samples:      intValue("maxmemory-samples"),
		Tenacity:     intValue("maxmemory-eviction-tenacity"),
		LFULogFactor: intValue("lfu-log-factor"),
		LFUDecayTime: intValue("lfu-decay-time"),
	})
	if maxmemory > 0 {
		debug.SetMemoryLimit(maxmemory)
	} else {
		debug.SetMemoryLimit(math.MaxInt64)
	}
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
