package keyspace

import (
	"math/bits"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// scan is Redis's dictScan over one table: it calls fn for every entry of the bucket chain(s)
// that cursor v names and returns the next cursor, 0 when the table has been covered.
//
// The cursor counts over bucket indexes with its bits reversed: it increments the top bit of
// the mask first. Doubling an array splits bucket i into i and i+size, halving merges them, and
// in both cases the reversed order visits the new buckets after the ones whose entries were
// already returned, so every entry present for the whole scan is returned at least once (some
// may come twice). While entries move between two arrays, the bucket of the smaller array and
// every bucket of the larger one that it expands to are visited in one call. This rests on an
// entry never leaving the chain its hash selects, which the table guarantees.
//
// scan does no rehash step, and fn must not change the table.
func (t *table) scan(v uint64, fn func(h alloc.Handle)) uint64 {
	if t.ht[0].size == 0 {
		return 0
	}
	if !t.moving() {
		m0 := t.ht[0].mask()
		t.emitChain(0, v&m0, fn)
		return nextCursor(v, m0)
	}
	small, large := 0, 1
	if t.ht[0].size > t.ht[1].size {
		small, large = 1, 0
	}
	m0, m1 := t.ht[small].mask(), t.ht[large].mask()
	t.emitChain(small, v&m0, fn)
	// The indexes of the larger array that are expansions of v's index in the smaller one.
	for {
		t.emitChain(large, v&m1, fn)
		v = nextCursor(v, m1)
		if v&(m0^m1) == 0 {
			break
		}
	}
	return v
}

// nextCursor increments the reversed bits of v under mask m.
func nextCursor(v, m uint64) uint64 {
	v |= ^m
	v = bits.Reverse64(v)
	v++
	return bits.Reverse64(v)
}

// emitChain calls fn for every entry of the chain of bucket i of ht[a].
func (t *table) emitChain(a int, i uint64, fn func(h alloc.Handle)) {
	if t.moved(a, i) {
		return
	}
	for b := t.ht[a].at(i); b != nil; b = t.next(b) {
		for m := b.presence; m != 0; m &= m - 1 {
			fn(b.handles[bits.TrailingZeros16(m)])
		}
	}
}

// ScanLocked is one step of SCAN in this shard's part of database db: it calls fn for the keys
// of the bucket chain(s) that the shard-local cursor names and returns the next shard-local
// cursor, 0 when the shard is done. Keys whose time has passed are deleted on the way (as
// Redis's SCAN does) and not passed to fn. fn runs under the lock, must not keep the handle, and
// must not add or delete keys of this shard.
func (s *Shard) ScanLocked(db int, cursor uint64, fn func(h alloc.Handle)) uint64 {
	d := s.db(db)
	s.scratch = s.scratch[:0]
	next := d.keys.scan(cursor, func(h alloc.Handle) { s.scratch = append(s.scratch, h) })
	var now int64
	for _, h := range s.scratch {
		if when, has := object.Expire(s.arena, h); has {
			if now == 0 {
				now = s.ks.Now()
			}
			if expired(when, now) {
				key := object.Key(s.arena, h)
				hash := Hash(key)
				if p, ok := d.keys.findMatch(hash, func(x alloc.Handle) bool { return x == h }); ok {
					s.removeAt(d, p, hash)
					s.noteExpired(db, key)
					s.touchWatched(db, key, false)
					object.Free(s.arena, h)
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

// each calls fn for every entry of the table once, as Redis's dict iterator: both arrays while
// entries move between them, the current one otherwise (an array being cleared holds nothing
// yet). It does no rehash step, and fn must not change the table.
func (t *table) each(fn func(h alloc.Handle)) {
	for a := range t.ht {
		if a == 1 && !t.moving() {
			break
		}
		for i := uint64(0); i < t.ht[a].size; i++ {
			t.emitChain(a, i, fn)
		}
	}
}

// EachLocked calls fn for every key of database db in this shard, each once, keys whose time
// has passed but that are not yet removed included: nothing is deleted, expired or touched
// (DEBUG DIGEST reads the dataset as it is). fn runs under the lock, must not keep the handle,
// and must not add or delete keys of this shard.
func (s *Shard) EachLocked(db int, fn func(h alloc.Handle)) { s.db(db).keys.each(fn) }
