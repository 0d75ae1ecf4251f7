package keyspace

import (
	"math/rand/v2"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// What eviction (package evict) asks of a shard: random records to rank, the record that
// expires first, and the deletion of the key it chose. All need the shard's lock.

// Counts is the number of keys of database db in this shard, and how many of them have an
// expire: exact at some instant, read without the lock.
func (s *Shard) Counts(db int) (keys, volatile int64) {
	d := s.db(db)
	return d.keys.Len(), d.expires.len()
}

// SampleLocked calls fn with up to n records of database db drawn at random (with
// repetition, as Redis's dictGetSomeKeys may), or with records that have an expire only when
// volatile is set: those are drawn from the TTL index, so a database with few volatile keys
// among many is sampled as quickly as one with only volatile keys.
func (s *Shard) SampleLocked(db, n int, volatile bool, fn func(h alloc.Handle)) {
	d := s.db(db)
	for range n {
		if !volatile {
			h, ok := d.keys.Random()
			if !ok {
				return
			}
			fn(h)
			continue
		}
		e, ok := d.expires.random()
		if !ok {
			return
		}
		if h, ok := s.recordOf(d, e); ok {
			fn(h)
		}
	}
}

// NearestExpireLocked returns the record of database db that expires first in this shard.
func (s *Shard) NearestExpireLocked(db int) (alloc.Handle, bool) {
	d := s.db(db)
	e, ok := d.expires.first()
	if !ok {
		return 0, false
	}
	return s.recordOf(d, e)
}

// recordOf is the record TTL entry e stands for.
func (s *Shard) recordOf(d *database, e ttlEntry) (alloc.Handle, bool) {
	p, ok := d.keys.FindMatch(e.hash, func(h alloc.Handle) bool {
		when, has := object.Expire(s.arena, h)
		return has && when == e.when && Hash(object.Key(s.arena, h)) == e.hash
	})
	if !ok {
		return 0, false
	}
	return p.Handle(), true
}

// random returns a random entry: a random child at every level, then a random entry of the
// leaf. Entries of fuller nodes are a little less likely than others, which eviction's
// sampling can afford.
func (x *expireIndex) random() (ttlEntry, bool) {
	if x.root == 0 {
		return ttlEntry{}, false
	}
	h := x.root
	for lvl := x.height; lvl > 0; lvl-- {
		in := x.inner(h)
		h = in.kids[rand.IntN(int(in.n)+1)]
	}
	l := x.leaf(h)
	if l.n == 0 {
		return ttlEntry{}, false
	}
	return l.e[rand.IntN(int(l.n))], true
}
