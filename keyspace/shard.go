package keyspace

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/object"
)

// Shard is one lock's worth of the keyspace: its own arena, and one table and one TTL index per
// database for the keys whose hash selects it (ShardFor).
//
// Methods ending in Locked require s's lock (Lock, or the keyspace's LockShards/LockAll). A
// handle or view they return is valid only while the lock is held, and a handle only until the
// next call that may free or move records; handlers copy what they reply under the lock.
type Shard struct {
	_ [64]byte // keep neighbouring shards' locks off this cache line

	// mu is the shard's only lock, exclusive: a read writes too (the LRU clock, lazy expiry,
	// a rehash step).
	mu sync.Mutex

	// Set at creation, then read-only.
	ks    *Keyspace
	index int
	arena *alloc.Arena // records, tables and TTL indexes of this shard: all of its memory

	// dbs[i] is database i. The pointers change only under mu (SWAPDB); they are atomic so that
	// the keyspace's counters can be read without the lock.
	dbs []atomic.Pointer[database]

	// Guarded by mu.
	expireNext int            // the database active expiry starts with next (round robin)
	scratch    []alloc.Handle // ScanLocked's entries of one step

	// expiredLog holds the keys expired under mu whose `expired` events are not yet taken
	// (events.go). Guarded by mu.
	expiredLog EventLog

	// expiredKeys counts keys removed by expiry (INFO expired_keys). Written under mu, read by
	// anyone.
	expiredKeys atomic.Int64

	// refuse holds the Refusal bits: poisoned when a command panicked holding the shard for a
	// write, frozen after a shutdown's save (poison.go).
	refuse atomic.Uint32

	// reported is the arena's charge as last added to the keyspace's usage total (usage.go).
	// Guarded by mu.
	reported int64

	// snap is this shard's part of the running snapshot, nil when none (snapshot.go).
	// Guarded by mu.
	snap *shardSnapshot

	// dirty counts changes to keys (Redis's server.dirty: INFO rdb_changes_since_last_save and
	// the save points). Written under mu, read by anyone.
	dirty atomic.Int64

	// watch is the shard's WATCHed keys, touched at each write point (watch.go).
	watch watchTable

	// lazy is the shard's values waiting to be freed (lazyfree.go).
	lazy lazyQueue

	// block is the shard's blocking-key registry (blocking.go). Guarded by mu.
	block blockTable

	// frozenNow, when not 0, is the time (unix ms) the shard's expiry checks use instead of
	// the clock: a script's start while the script holds the shard (FreezeClockLocked), as
	// Redis 7's script time snapshot. Guarded by mu.
	frozenNow int64

	_ [64]byte
}

// database is one database's share of a shard.
type database struct {
	keys    *htable.Table
	expires *expireIndex
}

func newShard(ks *Keyspace, index int, arena *alloc.Arena) *Shard {
	s := &Shard{ks: ks, index: index, arena: arena, dbs: make([]atomic.Pointer[database], ks.databases)}
	for i := range s.dbs {
		s.dbs[i].Store(&database{keys: htable.New(arena, object.Key), expires: newExpireIndex(arena)})
	}
	return s
}

// Lock takes the shard's lock. To take several, use the keyspace's LockShards.
func (s *Shard) Lock() { s.mu.Lock() }

// TryLock takes the shard's lock if it is free (the readiness loop's inline commands, the cron).
func (s *Shard) TryLock() bool { return s.mu.TryLock() }

// Unlock releases the shard's lock, reporting the arena's charge to the keyspace's total
// first when it has moved far enough (usage.go).
func (s *Shard) Unlock() {
	s.reportUsage()
	s.mu.Unlock()
}

// Index is the shard's number in its keyspace.
func (s *Shard) Index() int { return s.index }

// Arena is the shard's arena: records of this shard's keys are made in it (object.NewString),
// under the shard's lock.
func (s *Shard) Arena() *alloc.Arena { return s.arena }

func (s *Shard) db(i int) *database { return s.dbs[i].Load() }

// LookupFlags change what a lookup does besides finding the key (Redis's LOOKUP_* flags).
type LookupFlags uint8

const (
	// LookupNoTouch leaves the LRU clock alone (OBJECT, TYPE, TTL: Redis's LOOKUP_NOTOUCH).
	LookupNoTouch LookupFlags = 1 << iota
	// LookupNoExpire returns a key even when its time has passed, and does not delete it.
	LookupNoExpire
	// LookupForWrite announces that the caller may change the record in place (Redis's
	// lookupKeyWrite): a running snapshot writes it first, as it still is.
	LookupForWrite
	// LookupNoNotify: a read miss raises no `keymiss` notification (Redis's LOOKUP_NONOTIFY:
	// OBJECT). The keyspace itself ignores it.
	LookupNoNotify
)

// LookupLocked is Redis's lookupKey: the record of key in database db, if the key exists. An
// expired key is deleted on the way (lazy expiry, counted in expired_keys) and reported
// missing; a found key's LRU clock is set to now.
func (s *Shard) LookupLocked(db int, key []byte) (alloc.Handle, bool) {
	return s.LookupFlagsLocked(db, key, 0)
}

// LookupFlagsLocked is LookupLocked with flags.
func (s *Shard) LookupFlagsLocked(db int, key []byte, flags LookupFlags) (alloc.Handle, bool) {
	d := s.db(db)
	hash := Hash(key)
	p, ok := d.keys.Find(key, hash)
	if !ok {
		return 0, false
	}
	h := p.Handle()
	if when, has := object.Expire(s.arena, h); has && flags&LookupNoExpire == 0 && expired(when, s.now()) {
		s.removeAt(d, p, hash)
		s.noteExpired(db, key)
		s.touchWatched(db, key, false)
		s.freeRecord(h, s.ks.lazy.expire.Load())
		return 0, false
	}
	if flags&LookupForWrite != 0 {
		s.beforeChange(d, h)
	}
	if flags&LookupNoTouch == 0 {
		s.touch(h)
	}
	return h, true
}

// InsertLocked adds record h (made in s.Arena()) as key in database db; the key must not exist
// (ErrKeyExists: Redis's dbAdd). The record's expire, if it has one, goes into the TTL index.
// On error the record still belongs to the caller.
func (s *Shard) InsertLocked(db int, key []byte, h alloc.Handle) error {
	d := s.db(db)
	hash := Hash(key)
	if _, ok := d.keys.Find(key, hash); ok {
		return ErrKeyExists
	}
	if err := s.add(d, hash, h); err != nil {
		return err
	}
	s.touchWatched(db, key, true)
	if len(s.block.queues) != 0 {
		s.signalReady(db, key)
	}
	return nil
}

// add indexes a new record. Its clock field starts now, as Redis's createObject.
func (s *Shard) add(d *database, hash uint64, h alloc.Handle) error {
	s.stampNew(h)
	s.markNew(h)
	when, has := object.Expire(s.arena, h)
	if has {
		if err := d.expires.insert(ttlEntry{when, hash}); err != nil {
			return err
		}
	}
	if err := d.keys.Insert(hash, h); err != nil {
		if has {
			d.expires.delete(ttlEntry{when, hash})
		}
		return ErrOOM // the table's only error
	}
	s.countDirty(1)
	return nil
}

// ReplaceLocked stores record h as key in database db, adding the key or replacing (and
// freeing) the record it had — Redis's setKey. h must be a new record, not the key's own. It
// reports whether a live record was replaced. The TTL index follows the new record's expire (a
// SET with KEEPTTL makes the new record with the old expire). A replaced record whose time had
// passed counts in expired_keys, and as expired for notifications, as Redis's lookupKeyWrite
// would have expired it first (a plain SET need not look the key up before): replaced is then
// false, the key being new. On error nothing changed and h still belongs to the
// caller.
func (s *Shard) ReplaceLocked(db int, key []byte, h alloc.Handle) (replaced bool, err error) {
	return s.ReplaceFlagsLocked(db, key, h, 0)
}

// ReplaceFlagsLocked is ReplaceLocked with lookup flags: LookupNoTouch (a CLIENT NO-TOUCH
// connection) keeps an overwritten key's LFU counter as it was.
func (s *Shard) ReplaceFlagsLocked(db int, key []byte, h alloc.Handle, flags LookupFlags) (replaced bool, err error) {
	d := s.db(db)
	hash := Hash(key)
	p, ok := d.keys.Find(key, hash)
	if !ok {
		if err := s.add(d, hash, h); err != nil {
			return false, err
		}
		s.touchWatched(db, key, true)
		if len(s.block.queues) != 0 {
			s.signalReady(db, key)
		}
		return false, nil
	}
	old := p.Handle()
	if invariantsOn && (h == old || !bytes.Equal(object.Key(s.arena, h), key)) {
		panic("keyspace: ReplaceLocked with the old record or a record of another key")
	}
	s.beforeChange(d, old)
	oldWhen, oldHas := object.Expire(s.arena, old)
	newWhen, newHas := object.Expire(s.arena, h)
	same := oldHas && newHas && oldWhen == newWhen
	replaced = true
	if oldHas && expired(oldWhen, s.now()) {
		s.noteExpired(db, key)
		replaced = false
	}
	if newHas && !same {
		if err := d.expires.insert(ttlEntry{newWhen, hash}); err != nil {
			return false, err
		}
	}
	if s.ks.access.lfu.Load() {
		// Under LFU an overwritten key keeps its counter, incremented for this write (Redis's
		// setKey looks the key up for writing, then dbSetValue copies old->lru to the value).
		object.SetLRU(s.arena, h, object.LRU(s.arena, old))
		if flags&LookupNoTouch == 0 {
			s.touch(h)
		}
	} else {
		s.stampNew(h)
	}
	s.markNew(h)
	d.keys.ReplaceAt(p, h)
	if oldHas && !same {
		s.unindexExpire(d, oldWhen, hash)
	}
	s.freeRecord(old, s.ks.lazy.serverDel.Load())
	s.countDirty(1)
	s.touchWatched(db, key, true)
	if len(s.block.queues) != 0 {
		s.signalReady(db, key) // a waiter may wait for this type where another was (Redis's dbAdd after a delete)
	}
	return replaced, nil
}

// UpdateLocked makes key, whose record was old, name record h instead: an object function
// that may move a record (APPEND, SETRANGE, INCR) returned h, and old is already freed, so the
// entry is found by its handle, not by reading its key. The expire must be unchanged (expires
// change through SetExpireLocked and PersistLocked). It reports whether key had record old.
func (s *Shard) UpdateLocked(db int, key []byte, old, h alloc.Handle) bool {
	d := s.db(db)
	s.countDirty(1)
	s.touchWatched(db, key, true)
	if old == h {
		return true
	}
	p, ok := d.keys.FindMatch(Hash(key), func(x alloc.Handle) bool { return x == old })
	if ok {
		s.markNew(h)
		d.keys.ReplaceAt(p, h)
	}
	return ok
}

// DeleteLocked removes key from database db and frees its record — Redis's dbDelete, lazily
// under lazyfree-lazy-server-del (lazyfree.go). It reports whether the key existed (an expired
// key still present counts as existing: callers that care look it up first).
func (s *Shard) DeleteLocked(db int, key []byte) bool {
	return s.deleteLocked(db, key, s.ks.lazy.serverDel.Load())
}

// UnlinkLocked removes key from database db without freeing its record, which now belongs to
// the caller (MOVE inserts it into another database of the same shard; RENAME under another
// key).
func (s *Shard) UnlinkLocked(db int, key []byte) (alloc.Handle, bool) {
	d := s.db(db)
	hash := Hash(key)
	p, ok := d.keys.Find(key, hash)
	if !ok {
		return 0, false
	}
	h := p.Handle()
	s.removeAt(d, p, hash)
	s.countDirty(1)
	s.touchWatched(db, key, false)
	return h, true
}

// removeAt takes the entry at p out of the table and its expire out of the TTL index (a
// running snapshot writes it first).
func (s *Shard) removeAt(d *database, p htable.Position, hash uint64) {
	s.beforeChange(d, p.Handle())
	if when, has := object.Expire(s.arena, p.Handle()); has {
		s.unindexExpire(d, when, hash)
	}
	d.keys.DeleteAt(p)
}

func (s *Shard) unindexExpire(d *database, when int64, hash uint64) {
	if !d.expires.delete(ttlEntry{when, hash}) && invariantsOn {
		panic("keyspace: a record's expire is missing from the TTL index")
	}
}

// SetExpireLocked sets key's expire to when (unix ms) — EXPIRE and friends, after their
// checks. The record may move (object.SetExpire); the table follows. Errors: ErrNoSuchKey,
// ErrOOM (then nothing changed). A time in the past is stored as it is: Redis's EXPIRE deletes
// such a key instead, which is the caller's decision.
func (s *Shard) SetExpireLocked(db int, key []byte, when int64) error {
	d := s.db(db)
	hash := Hash(key)
	p, ok := d.keys.Find(key, hash)
	if !ok {
		return ErrNoSuchKey
	}
	h := p.Handle()
	old, had := object.Expire(s.arena, h)
	if had && old == when {
		return nil
	}
	s.beforeChange(d, h)
	if err := d.expires.insert(ttlEntry{when, hash}); err != nil {
		return err
	}
	nh, err := object.SetExpire(s.arena, h, when)
	if err != nil {
		d.expires.delete(ttlEntry{when, hash})
		return err
	}
	s.markNew(nh)
	d.keys.ReplaceAt(p, nh)
	if had {
		s.unindexExpire(d, old, hash)
	}
	s.countDirty(1)
	s.touchWatched(db, key, true)
	return nil
}

// PersistLocked removes key's expire (PERSIST) and reports whether it had one. The record
// never moves.
func (s *Shard) PersistLocked(db int, key []byte) bool {
	d := s.db(db)
	hash := Hash(key)
	p, ok := d.keys.Find(key, hash)
	if !ok {
		return false
	}
	h := p.Handle()
	when, had := object.Expire(s.arena, h)
	if had {
		s.beforeChange(d, h)
		s.unindexExpire(d, when, hash)
		object.ClearExpire(s.arena, h)
		s.countDirty(1)
		s.touchWatched(db, key, true)
	}
	return had
}

// DBSizeLocked is the number of keys of database db in this shard, expired ones not yet
// removed included (as Redis's DBSIZE).
func (s *Shard) DBSizeLocked(db int) int64 { return s.db(db).keys.Len() }

// FlushLocked removes every key of database db in this shard, frees their records, the table
// and the TTL index, and returns how many keys there were.
func (s *Shard) FlushLocked(db int) int64 { return s.flushLocked(db, false) }

// flushLocked is FlushLocked; lazy queues big values instead of freeing them (ASYNC).
func (s *Shard) flushLocked(db int, lazy bool) int64 {
	d := s.db(db)
	n := d.keys.Len()
	s.touchWatchedFlush(db)
	s.beforeFlush(d)
	s.countDirty(n)
	d.keys.Clear(func(h alloc.Handle) { s.freeRecord(h, lazy) })
	d.expires.clear()
	return n
}

// OverheadLocked is the memory database db's table and TTL index hold in this shard — what
// MEMORY STATS calls overhead.hashtable.main and .expires.
func (s *Shard) OverheadLocked(db int) (table, expires int64) {
	d := s.db(db)
	return d.keys.Bytes(), d.expires.bytes()
}

// RehashStepLocked does up to budget rehash steps in each database of the shard that is
// resizing (the cron's incrementallyRehash, for shards that stopped receiving commands), and
// reports whether any resize is still in progress. A step moves one bucket chain or clears one
// 4 KiB page of a new array.
func (s *Shard) RehashStepLocked(budget int) bool {
	more := false
	for i := range s.dbs {
		if s.db(i).keys.Rehash(budget) {
			more = true
		}
	}
	return more
}

// countDirty adds n changes to the shard's dirty counter (single writer: the lock holder).
func (s *Shard) countDirty(n int64) { s.dirty.Store(s.dirty.Load() + n) }

// ReleaseEmptySpans gives every shard's empty slab spans back to the OS (alloc's
// ReleaseEmptySpans), skipping the shards whose lock is taken, and returns how many it gave.
func (k *Keyspace) ReleaseEmptySpans() int {
	n := 0
	for _, s := range k.shards {
		if s.TryLock() {
			n += s.arena.ReleaseEmptySpans()
			s.Unlock()
		}
	}
	return n
}
