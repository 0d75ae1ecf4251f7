package evict

import (
	"math"
	"runtime/debug"
	"strconv"

	"github.com/kvserver/kvserver/config"
)

// followedParams are the directives the evictor follows.
var followedParams = []string{"maxmemory", "maxmemory-policy", "maxmemory-samples",
	"maxmemory-eviction-tenacity", "lfu-log-factor", "lfu-decay-time"}

// Follow applies cfg's settings of the memory limit now and whenever CONFIG SET changes one.
// The Go runtime's soft memory limit follows maxmemory, so that the heap is collected before
// the limit is reached rather than counted against it as garbage.
func (e *Evictor) Follow(cfg *config.Config) {
	e.apply(cfg)
	for _, name := range followedParams {
		cfg.OnChange(name, func(string) { e.apply(cfg) })
	}
}

func (e *Evictor) apply(cfg *config.Config) {
	intValue := func(name string) int64 {
		v, _ := cfg.Value(name)
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	}
	policy, _ := ParsePolicy(cfg.MaxMemoryPolicy())
	maxmemory := int64(min(cfg.MaxMemory(), math.MaxInt64))
	e.Configure(Settings{
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
