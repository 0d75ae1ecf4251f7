package keyspace

import "sync/atomic"

// usageGrain is how far a shard's arena may drift from what it last reported to the keyspace's
// total before it reports again: the total is then off by less than shards × usageGrain
// (256 KiB with 8 shards, 8 MiB with 256), and a command that changes less than this pays two
// loads and a compare when it unlocks, not an atomic add on a line every core writes.
const usageGrain = 32 << 10

// usage is the bytes charged to every shard's arena, kept close enough for the memory limit
// to be checked before every command without summing the shards (UsedMemoryApprox).
type usage struct {
	total atomic.Int64
}

// reportUsage adds the shard's change since its last report to the keyspace's total, when it
// exceeds usageGrain. Called with the shard's lock held, before releasing it.
func (s *Shard) reportUsage() {
	d := s.arena.Used() - s.reported
	if d >= usageGrain || d <= -usageGrain {
		s.reported += d
		s.ks.usage.total.Add(d)
	}
}

// UsedMemoryApprox is UsedMemory as last reported by the shards: within shards × 32 KiB of it,
// and cheap enough to read before every command (the memory limit's check).
func (k *Keyspace) UsedMemoryApprox() int64 { return k.usage.total.Load() }
