package keyspace

import (
	"math/rand/v2"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// randomTries bounds how many shards RandomKey draws before it reports no key: a shard drawn
// by counts read without its lock may have emptied since.
const randomTries = 64

// RandomKeyLocked returns a random key of database db in this shard (RANDOMKEY), deleting the
// expired keys it draws on the way, as Redis does.
func (s *Shard) RandomKeyLocked(db int) (alloc.Handle, bool) {
	d := s.db(db)
	for {
		h, ok := d.keys.Random()
		if !ok {
			return 0, false
		}
		when, has := object.Expire(s.arena, h)
		if !has || !expired(when, s.now()) {
			return h, true
		}
		key := object.Key(s.arena, h)
		hash := Hash(key)
		p, ok := d.keys.Find(key, hash)
		if !ok {
			return h, true // cannot happen: random returned it
		}
		s.removeAt(d, p, hash)
		s.noteExpired(db, key)
		s.touchWatched(db, key, false)
		s.freeRecord(h, s.ks.lazy.expire.Load())
	}
}

// RandomKey calls fn, under the shard's lock, with a random key of database db, and reports
// whether there was one. A shard is drawn in proportion to its number of keys, then a key in
// it.
func (k *Keyspace) RandomKey(db int, fn func(s *Shard, h alloc.Handle)) bool {
	for range randomTries {
		total := k.Keys(db)
		if total == 0 {
			return false
		}
		r := rand.Int64N(total)
		var s *Shard
		for _, s = range k.shards {
			if r -= s.db(db).keys.Len(); r < 0 {
				break
			}
		}
		s.mu.Lock()
		h, ok := s.RandomKeyLocked(db)
		if ok {
			fn(s, h)
		}
		s.Unlock()
		if ok {
			return true
		}
	}
	return false
}
