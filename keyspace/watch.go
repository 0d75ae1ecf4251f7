package keyspace

import (
	"sync"
	"sync/atomic"

	"github.com/kvserver/kvserver/object"
)

// WATCH is a per-key check at the keyspace's write points (DESIGN §4): each shard keeps a table
// of its watched (database, key) pairs, and every change to a key of the shard — a write, a
// delete, an expire set or removed, lazy and active expiry, eviction, FLUSHDB and FLUSHALL,
// SWAPDB — marks the connections watching that key dirty (Redis's touchWatchedKey,
// touchAllWatchedKeysInDb). When the shard watches nothing, a write pays one atomic load.
//
// Lock rules: a key is watched (Shard.WatchLocked) under its shard's lock, so no write of that
// shard can slip between WATCH's look at the key and its registration; writers touch under the
// shard's lock. The table itself is guarded by its own mutex, taken after the shard's (lock
// order: shard, then watch table), so that UNWATCH, DISCARD, EXEC's end and a closing
// connection forget their keys without taking any shard lock (Keyspace.Unwatch).

// Watcher is one connection's watched keys (Redis's c->watched_keys and CLIENT_DIRTY_CAS).
// Its key list belongs to the connection; dirty is set by writers of other connections.
type Watcher struct {
	dirty atomic.Bool  // a watched key changed since WATCH (Redis's CLIENT_DIRTY_CAS)
	n     atomic.Int32 // len(keys), for CLIENT LIST's watch= from other goroutines
	keys  []watchKey   // owned by the connection
}

// watchKey names a watched key: the shard that holds it, its database and its bytes.
type watchKey struct {
	shard int32
	db    int32
	key   string
}

// watchEntry is one connection's watch of one key. expired says the key was already logically
// expired when watched: its deletion by expiry is then no change (Redis 7's watchedKey.expired).
type watchEntry struct {
	w       *Watcher
	expired bool
}

// watchTable is a shard's watched keys. n is read without any lock by the write points.
type watchTable struct {
	n  atomic.Int32 // number of (connection, key) watches in the table
	mu struct {
		sync.Mutex
		keys map[dbKey][]watchEntry
	}
}

// dbKey is a key of one database, as the watch table's map key.
type dbKey struct {
	db  int32
	key string
}

// Dirty reports whether a watched key changed since it was watched: EXEC then fails.
func (w *Watcher) Dirty() bool { return w.dirty.Load() }

// Len is the number of keys watched (CLIENT LIST's watch=); safe from any goroutine.
func (w *Watcher) Len() int { return int(w.n.Load()) }

// AppendShards appends the shards of the watched keys to dst (EXEC locks them with its
// queued commands' shards, to check the keys under their locks). Not sorted, may repeat.
func (w *Watcher) AppendShards(dst []int) []int {
	for _, k := range w.keys {
		dst = append(dst, int(k.shard))
	}
	return dst
}

// WatchLocked makes w watch key in database db (WATCH); s must be key's shard, locked. A key w
// already watches is not added twice (Redis's watchForKey).
func (s *Shard) WatchLocked(w *Watcher, db int, key []byte) {
	for _, k := range w.keys {
		if int(k.db) == db && k.key == string(key) {
			return
		}
	}
	k := dbKey{int32(db), string(key)}
	expired := s.logicallyExpired(db, key)
	t := &s.watch
	t.mu.Lock()
	if t.mu.keys == nil {
		t.mu.keys = make(map[dbKey][]watchEntry)
	}
	t.mu.keys[k] = append(t.mu.keys[k], watchEntry{w: w, expired: expired})
	t.n.Add(1)
	t.mu.Unlock()
	w.keys = append(w.keys, watchKey{shard: int32(s.index), db: int32(db), key: k.key})
	w.n.Store(int32(len(w.keys)))
}

// Unwatch forgets every key w watches and clears its dirty flag (UNWATCH, EXEC, DISCARD,
// RESET, a closing connection). It takes no shard lock.
func (k *Keyspace) Unwatch(w *Watcher) {
	if len(w.keys) == 0 {
		w.dirty.Store(false)
		return
	}
	for _, wk := range w.keys {
		k.shards[wk.shard].watch.remove(w, dbKey{wk.db, wk.key})
	}
	clear(w.keys)
	w.keys = w.keys[:0]
	w.n.Store(0)
	// No writer can reach w any more: the flag is w's alone again.
	w.dirty.Store(false)
}

// remove drops w's watch of k.
func (t *watchTable) remove(w *Watcher, k dbKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	es := t.mu.keys[k]
	for i, e := range es {
		if e.w != w {
			continue
		}
		es[i] = es[len(es)-1]
		es[len(es)-1] = watchEntry{}
		es = es[:len(es)-1]
		t.n.Add(-1)
		break
	}
	if len(es) == 0 {
		delete(t.mu.keys, k)
	} else {
		t.mu.keys[k] = es
	}
}

// WatchedExpiredLocked reports whether a key w watches, not expired when watched, is now
// logically expired though still present (Redis 7's isWatchedKeyExpired: EXEC then fails).
// The caller holds the shards of all of w's keys.
func (k *Keyspace) WatchedExpiredLocked(w *Watcher) bool {
	for _, wk := range w.keys {
		s := k.shards[wk.shard]
		key := []byte(wk.key)
		if !s.logicallyExpired(int(wk.db), key) {
			continue
		}
		if !s.watch.expiredWhenWatched(w, dbKey{wk.db, wk.key}) {
			return true
		}
	}
	return false
}

// expiredWhenWatched reports w's entry's expired flag for k.
func (t *watchTable) expiredWhenWatched(w *Watcher, k dbKey) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.mu.keys[k] {
		if e.w == w {
			return e.expired
		}
	}
	return false
}

// logicallyExpired reports whether key is present in database db with an expire in the past
// (Redis's keyIsExpired), without deleting it.
func (s *Shard) logicallyExpired(db int, key []byte) bool {
	p, ok := s.db(db).keys.Find(key, Hash(key))
	if !ok {
		return false
	}
	when, has := object.Expire(s.arena, p.Handle())
	return has && expired(when, s.now())
}

// exists reports whether key is present in database db, expired or not (Redis's dictFind).
func (s *Shard) exists(db int, key []byte) bool {
	_, ok := s.db(db).keys.Find(key, Hash(key))
	return ok
}

// touchWatched is the write points' hook: key of database db changed; present says whether it
// exists after the change. One atomic load when the shard watches nothing.
func (s *Shard) touchWatched(db int, key []byte, present bool) {
	if s.watch.n.Load() == 0 {
		return
	}
	s.touchWatchedSlow(db, key, present)
}

// touchWatchedSlow marks the watchers of key dirty (Redis's touchWatchedKey): all of them,
// except those that watched it already expired when it is now gone (deleted by expiry: no
// logical change; their flag is cleared).
func (s *Shard) touchWatchedSlow(db int, key []byte, present bool) {
	t := &s.watch
	t.mu.Lock()
	defer t.mu.Unlock()
	es := t.mu.keys[dbKey{int32(db), string(key)}]
	for i := range es {
		e := &es[i]
		if e.expired && !present {
			e.expired = false
			continue
		}
		e.w.dirty.Store(true)
	}
}

// touchWatchedFlush marks dirty the watchers of keys of database db that exist in this shard,
// before FLUSHDB or FLUSHALL empties it (Redis's touchAllWatchedKeysInDb with no replacement).
func (s *Shard) touchWatchedFlush(db int) {
	if s.watch.n.Load() == 0 {
		return
	}
	s.touchWatchedSwap(db, -1)
}

// touchWatchedSwap marks dirty the watchers of database db's keys that SWAPDB with database
// other changes (other -1: a flush), before the swap — Redis's touchAllWatchedKeysInDb(db,
// other): a key changes when it exists in db or in other; a key watched already expired that
// stays absent or expired, or a key replaced by an expired one, is no change.
func (s *Shard) touchWatchedSwap(db, other int) {
	t := &s.watch
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, es := range t.mu.keys {
		if int(k.db) != db {
			continue
		}
		key := []byte(k.key)
		inEmptied := s.exists(db, key)
		inReplacement := other >= 0 && s.exists(other, key)
		if !inEmptied && !inReplacement {
			continue
		}
		replacementExpired := inReplacement && s.logicallyExpired(other, key)
		for i := range es {
			e := &es[i]
			switch {
			case e.expired && !inReplacement:
				e.expired = false // the expired key is deleted: no logical change
				continue
			case e.expired && replacementExpired:
				continue // expired it was, expired it stays
			case !e.expired && !inEmptied && replacementExpired:
				e.expired = true // a missing key replaced by an expired one
				continue
			}
			e.w.dirty.Store(true)
		}
	}
}

// WatchedKeys is the number of (connection, key) watches registered in all shards: 0 once
// every connection has unwatched, closed or ended its transactions. Safe from any goroutine.
func (k *Keyspace) WatchedKeys() int {
	n := 0
	for _, s := range k.shards {
		n += int(s.watch.n.Load())
	}
	return n
}
