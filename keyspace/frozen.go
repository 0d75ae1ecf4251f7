package keyspace

// A script's run sees time stand still at its start for the keys it holds (Redis 7's script
// time snapshot): a key that expires while the script runs is expired for the script only if it
// was at the start, so that two reads of one key inside one script agree. The script sets the
// frozen clock on each shard it holds, under the lock, and clears it before releasing it;
// nothing else changes, and other shards (other clients) keep the real clock.

// now is the time the shard's expiry checks use: the frozen clock while a script holds the
// shard, else the keyspace's clock. Requires the lock.
func (s *Shard) now() int64 {
	if s.frozenNow != 0 {
		return s.frozenNow
	}
	return s.ks.Now()
}

// FreezeClockLocked makes the shard's expiry checks use ms (unix ms) until ThawClockLocked:
// a script's start, set by the script holding the shard.
func (s *Shard) FreezeClockLocked(ms int64) { s.frozenNow = ms }

// ThawClockLocked gives the shard's expiry checks the real clock back.
func (s *Shard) ThawClockLocked() { s.frozenNow = 0 }

// NowLocked is the time the shard's expiry checks use now (unix ms): the frozen clock while a
// script holds the shard, else the keyspace's clock.
func (s *Shard) NowLocked() int64 { return s.now() }
