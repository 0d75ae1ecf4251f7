package server

import (
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// shard is a keyspace shard; handlers lock it, work on it, and copy what they reply under the
// lock.
type shard = keyspace.Shard

// shardOf returns the shard holding key.
func (s *Server) shardOf(key []byte) *shard { return s.ks.Shard(s.ks.ShardFor(key)) }

// lookupReadLocked is Redis's lookupKeyRead: a lookup that counts keyspace hits and misses.
func (c *client) lookupReadLocked(sh *shard, key []byte) (h alloc.Handle, ok bool) {
	h, ok = sh.LookupLocked(c.db, key)
	if ok {
		c.hits.Store(c.hits.Load() + 1)
	} else {
		c.misses.Store(c.misses.Load() + 1)
	}
	return h, ok
}

// setStringLocked stores val under key with the given expire (unix ms, 0 for none), replacing
// any value: Redis's setKey. A time already past deletes the key instead, which is what a
// client observes of Redis's set-then-expire.
func (c *client) setStringLocked(sh *shard, key, val []byte, expireAt int64) error {
	if expireAt != 0 && expireAt <= nowMs() {
		sh.DeleteLocked(c.db, key)
		return nil
	}
	a := sh.Arena()
	h, err := c.newStringRecordLocked(sh, key, val, expireAt)
	if err != nil {
		return err
	}
	if _, err := sh.ReplaceLocked(c.db, key, h); err != nil {
		object.Free(a, h)
		return err
	}
	return nil
}

// lockKeys locks the shards of args[from:] (all keys) in ascending order and returns them for
// unlock. It reuses the client's index buffer, so it does not allocate in steady state.
func (c *client) lockKeys(args querybuf.Args, from int) []int {
	idx := c.shardIdx[:0]
	for i := from; i < args.Len(); i++ {
		idx = append(idx, c.srv.ks.ShardFor(args.Arg(i)))
	}
	c.shardIdx = idx
	return c.srv.ks.LockShards(idx)
}

func (c *client) unlock(idx []int) { c.srv.ks.UnlockShards(idx) }

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
	deadline := time.Now().Add(cronExpireBudget)
	for s.activeExpireEnabled() { // turned off meanwhile: stop at once, not at the deadline
		_, more := s.ks.ActiveExpireCycle(expireEntriesPerCall)
		if !more || time.Now().After(deadline) {
			return
		}
	}
}
