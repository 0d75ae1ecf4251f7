package zsetval

import "sync/atomic"

// Redis 7.2's defaults of zset-max-listpack-entries and zset-max-listpack-value.
const (
	DefaultMaxListpackEntries = 128
	DefaultMaxListpackValue   = 64
)

// limits are the conversion thresholds. CONFIG SET writes them from its own goroutine while
// shards read them under their locks, hence atomics; a change applies to later writes only
// (a listpack over a lowered limit stays one until a write converts it, as in Redis).
var limits struct {
	entries atomic.Int64
	value   atomic.Int64
}

func init() { SetLimits(DefaultMaxListpackEntries, DefaultMaxListpackValue) }

// SetLimits sets zset-max-listpack-entries and zset-max-listpack-value (the config's values;
// negative ones count as 0, as Redis's size_t config would refuse them).
func SetLimits(entries, value int64) {
	limits.entries.Store(max(entries, 0))
	limits.value.Store(max(value, 0))
}

// Limits returns zset-max-listpack-entries and zset-max-listpack-value.
func Limits() (entries, value int64) { return limits.entries.Load(), limits.value.Load() }

func maxEntries() int { return int(limits.entries.Load()) }
func maxValue() int   { return int(limits.value.Load()) }
