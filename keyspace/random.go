package keyspace

import (
	"math/bits"
	"math/rand/v2"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// randomTries bounds how many random buckets table.random draws before it walks the array
// from a random start instead: a table is at least 13.75% full outside a resize, so that many
// empty draws in a row essentially only happen in a table mostly emptied during a resize.
const randomTries = 64

// random returns a random entry, as Redis's dictGetRandomKey: a random non-empty bucket (of
// either array while moving, where ht[0]'s moved buckets are skipped), then a random entry of
// its chain. Entries of long chains are a little less likely than others.
func (t *table) random() (alloc.Handle, bool) {
	if t.len() == 0 {
		return 0, false
	}
	if t.resizing() {
		t.rehashStep()
	}
	var lo, n0, n uint64 // buckets [lo, lo+n0) of ht[0], then all of ht[1] while moving
	lo, n0 = 0, t.ht[0].size
	if t.moving() {
		lo, n0 = t.rehashIdx, t.ht[0].size-t.rehashIdx
	}
	n = n0
	if t.moving() {
		n += t.ht[1].size
	}
	at := func(r uint64) *bucket {
		if r < n0 {
			return t.ht[0].at(lo + r)
		}
		return t.ht[1].at(r - n0)
	}
	var r uint64
	for try := 0; ; try++ {
		if try < randomTries {
			r = rand.Uint64N(n)
		} else {
			r = (r + 1) % n
		}
		head := at(r)
		if head.presence == 0 && head.chained == 0 {
			continue
		}
		total := 0
		for b := head; b != nil; b = t.next(b) {
			total += b.entries()
		}
		k := rand.IntN(total)
		for b := head; b != nil; b = t.next(b) {
			if c := b.entries(); k >= c {
				k -= c
				continue
			}
			m := b.presence
			for range k {
				m &= m - 1
			}
			return b.handles[bits.TrailingZeros16(m)], true
		}
	}
}

// RandomKeyLocked returns a random key of database db in this shard (RANDOMKEY), deleting the
// expired keys it draws on the way, as Redis does.
func (s *Shard) RandomKeyLocked(db int) (alloc.Handle, bool) {
	d := s.db(db)
	for {
		h, ok := d.keys.random()
		if !ok {
			return 0, false
		}
		when, has := object.Expire(s.arena, h)
		if !has || !expired(when, s.ks.Now()) {
			return h, true
		}
		key := object.Key(s.arena, h)
		hash := Hash(key)
		p, ok := d.keys.find(key, hash)
		if !ok {
			return h, true // cannot happen: random returned it
		}
		s.removeAt(d, p, hash)
		s.noteExpired(db, key)
		s.touchWatched(db, key, false)
		object.Free(s.arena, h)
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
			if r -= s.db(db).keys.len(); r < 0 {
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
