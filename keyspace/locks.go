package keyspace

import "slices"

// Several shards are always locked in ascending index order, so two commands that need the
// same shards cannot deadlock.

// ShardsFor appends the shards of keys to dst, sorted and without duplicates, ready for
// LockShards. It allocates only if dst is too small.
func (k *Keyspace) ShardsFor(dst []int, keys ...[]byte) []int {
	for _, key := range keys {
		dst = append(dst, k.ShardFor(key))
	}
	return sortShards(dst)
}

// sortShards sorts and deduplicates shard indexes in place.
func sortShards(idx []int) []int {
	slices.Sort(idx)
	return slices.Compact(idx)
}

// LockShards sorts and deduplicates idx in place, locks those shards in ascending order and
// returns the deduplicated prefix, which UnlockShards takes. It does not allocate.
func (k *Keyspace) LockShards(idx []int) []int {
	idx = sortShards(idx)
	for _, i := range idx {
		k.shards[i].mu.Lock()
	}
	return idx
}

// UnlockShards releases the shards that LockShards locked.
func (k *Keyspace) UnlockShards(idx []int) {
	for i := len(idx) - 1; i >= 0; i-- {
		k.shards[idx[i]].Unlock()
	}
}

// LockAll locks every shard in ascending order: SWAPDB, FLUSHDB, FLUSHALL and anything else
// that must see the whole keyspace at one instant.
func (k *Keyspace) LockAll() {
	for _, s := range k.shards {
		s.mu.Lock()
	}
}

// UnlockAll releases every shard's lock.
func (k *Keyspace) UnlockAll() {
	for i := len(k.shards) - 1; i >= 0; i-- {
		k.shards[i].Unlock()
	}
}
