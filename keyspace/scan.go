package keyspace

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// ScanLocked is one step of SCAN in this shard's part of database db: it calls fn for the keys
// of the bucket chain(s) that the shard-local cursor names and returns the next shard-local
// cursor, 0 when the shard is done. Keys whose time has passed are deleted on the way (as
// Redis's SCAN does) and not passed to fn. fn runs under the lock, must not keep the handle, and
// must not add or delete keys of this shard.
func (s *Shard) ScanLocked(db int, cursor uint64, fn func(h alloc.Handle)) uint64 {
	d := s.db(db)
	s.scratch = s.scratch[:0]
	next := d.keys.Scan(cursor, func(h alloc.Handle) { s.scratch = append(s.scratch, h) })
	var now int64
	for _, h := range s.scratch {
		if when, has := object.Expire(s.arena, h); has {
			if now == 0 {
				now = s.now()
			}
			if expired(when, now) {
				key := object.Key(s.arena, h)
				hash := Hash(key)
				if p, ok := d.keys.FindMatch(hash, func(x alloc.Handle) bool { return x == h }); ok {
					s.removeAt(d, p, hash)
					s.noteExpired(db, key)
					s.touchWatched(db, key, false)
					s.freeRecord(h, s.ks.lazy.expire.Load())
				}
				continue
			}
		}
		fn(h)
	}
	return next
}

// Scan is SCAN over database db: starting at cursor, it calls fn (under the shard's lock) for
// keys until at least count have been returned or ten times count buckets have been visited
// (Redis's bound for sparse tables), and returns the cursor to continue from, 0 when every
// shard has been covered. The cursor holds the shard index in its bits 48 and up and the
// shard's table cursor below: shards are scanned one after another, each with Redis's
// guarantee (every key present for the whole scan is returned at least once, even if tables
// resize between calls).
func (k *Keyspace) Scan(db int, cursor uint64, count int, fn func(s *Shard, h alloc.Handle)) uint64 {
	// As dictScan ignores a cursor's bits above its table's mask, the shard index's bits above
	// the shard count (a power of two) are ignored: every 64-bit cursor names a place. So
	// 2^64-1 (SCAN -1) visits the last bucket of the last shard and ends, as Redis visits its
	// last bucket, and 2^63 is cursor 0 for both.
	si := (cursor >> scanShardShift) & uint64(len(k.shards)-1)
	c := cursor & (1<<scanShardShift - 1)
	count = max(count, 1)
	returned, steps := 0, 0
	for si < uint64(len(k.shards)) {
		s := k.shards[si]
		s.mu.Lock()
		for {
			c = s.ScanLocked(db, c, func(h alloc.Handle) { fn(s, h); returned++ })
			steps++
			if c == 0 || returned >= count || steps >= 10*count {
				break
			}
		}
		s.Unlock()
		if c == 0 {
			si++
		}
		if returned >= count || steps >= 10*count {
			break
		}
	}
	if si >= uint64(len(k.shards)) {
		return 0
	}
	return si<<scanShardShift | c
}

// EachLocked calls fn for every key of database db in this shard, each once, keys whose time
// has passed but that are not yet removed included: nothing is deleted, expired or touched
// (DEBUG DIGEST reads the dataset as it is). fn runs under the lock, must not keep the handle,
// and must not add or delete keys of this shard.
func (s *Shard) EachLocked(db int, fn func(h alloc.Handle)) { s.db(db).keys.Each(fn) }
