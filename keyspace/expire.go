package keyspace

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// Expiry as Redis does it, lazy and active: a lookup deletes a key whose time has passed
// (LookupLocked), and the cron removes due keys nobody reads (ActiveExpireCycle). Unlike
// Redis's activeExpireCycle, which samples keys with an expire at random and so leaves up to
// 10% of them stale, the active side reads the due keys off each database's TTL index in time
// order: an idle key is gone within a cron tick of its time, however many keys expire later.

// expired reports whether a key whose expire is when has expired at now: Redis's keyIsExpired
// (now > when).
func expired(when, now int64) bool { return now > when }

// ActiveExpireLocked removes keys whose time has passed at now, taking at most budget entries
// off the shard's TTL indexes (each one key removed, or a stale entry dropped), database after
// database in round robin. It returns the number of keys removed and whether due keys remain.
func (s *Shard) ActiveExpireLocked(now int64, budget int) (removed int, more bool) {
	n := len(s.dbs)
	for i := 0; i < n; i++ {
		db := (s.expireNext + i) % n
		d := s.db(db)
		for {
			e, ok := d.expires.first()
			if !ok || !expired(e.when, now) {
				break
			}
			if budget == 0 {
				s.expireNext = db
				return removed, true
			}
			budget--
			d.expires.delete(e)
			if s.expireEntry(db, d, e) {
				removed++
			}
		}
	}
	s.expireNext = (s.expireNext + 1) % n
	return removed, false
}

// expireEntry deletes the key that TTL entry e (already out of the index) stands for: the
// record of e's chain whose expire and key hash are e's.
func (s *Shard) expireEntry(db int, d *database, e ttlEntry) bool {
	p, ok := d.keys.FindMatch(e.hash, func(h alloc.Handle) bool {
		when, has := object.Expire(s.arena, h)
		return has && when == e.when && Hash(object.Key(s.arena, h)) == e.hash
	})
	if !ok {
		return false
	}
	h := p.Handle()
	s.beforeChange(d, h)
	d.keys.DeleteAt(p)
	s.noteExpired(db, object.Key(s.arena, h))
	s.touchWatched(db, object.Key(s.arena, h), false)
	s.freeRecord(h, s.ks.lazy.expire.Load())
	return true
}

// ActiveExpireCycle is the cron's active expiry: every shard in turn, locked, removes due keys
// within budget TTL entries (ActiveExpireLocked). It returns how many keys were removed and
// whether due keys remain in some shard, for the cron to call again while its time allows.
// The `expired` events of each shard's log (the keys this cycle removed, and any a lock holder
// outside the command pipeline left there) go to SetOnExpired's function once the shard is
// unlocked.
func (k *Keyspace) ActiveExpireCycle(budget int) (removed int, more bool) {
	now := k.Now()
	var log EventLog
	for _, s := range k.shards {
		s.mu.Lock()
		n, m := s.ActiveExpireLocked(now, budget)
		s.takeExpiredLocked(&log)
		s.Unlock()
		removed += n
		more = more || m
		if log.Len() > 0 {
			k.publishExpired(&log)
		}
	}
	return removed, more
}

// publishExpired hands log's entries to the OnExpired function and resets it.
func (k *Keyspace) publishExpired(log *EventLog) {
	if k.onExpired != nil {
		for i := range log.Len() {
			k.onExpired(log.At(i))
		}
	}
	log.Reset()
}
