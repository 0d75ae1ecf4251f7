package hashval

import "sync/atomic"

// Redis 7.2's defaults of hash-max-listpack-entries and hash-max-listpack-value.
const (
	DefaultMaxListpackEntries = 512
	DefaultMaxListpackValue   = 64
)

// limits are the conversion thresholds. CONFIG SET writes them from its own goroutine while
// shards read them under their locks, hence atomics; a change applies to later writes only
// (a listpack over a lowered limit stays one until its next write checks, as in Redis).
var limits struct {
	entries atomic.Int64
	value   atomic.Int64
}

func init() { SetLimits(DefaultMaxListpackEntries, DefaultMaxListpackValue) }

// SetLimits sets hash-max-listpack-entries and hash-max-listpack-value (the config's values;
// negative ones count as 0, as Redis's size_t config would refuse them).
func SetLimits(maxListpackEntries, maxListpackValue int64) {
	limits.entries.Store(max(maxListpackEntries, 0))
	limits.value.Store(max(maxListpackValue, 0))
}

func maxEntries() int { return int(limits.entries.Load()) }
func maxValue() int   { return int(limits.value.Load()) }
