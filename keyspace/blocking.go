package keyspace

import (
	"slices"
	"sync/atomic"

	"github.com/kvserver/kvserver/object"
)

// The blocking-key registry (DESIGN §2, §4): each shard keeps, for each key of its own that
// clients block on (BLPOP …), the queue of their Waiters in the order they blocked, and the keys
// that were added since someone waited on them ("ready" keys, Redis's server.ready_keys). A key
// becomes ready where Redis's dbAdd signals it — at every key the keyspace adds (InsertLocked,
// ReplaceFlagsLocked) and at SWAPDB — so that a push, LMOVE, RENAME, MOVE, COPY, RESTORE, SORT
// STORE, a transaction or a script wakes the waiters alike, and no command has to know about
// them. Whoever wrote takes the ready keys (TakeReadyLocked) and, after unlocking, serves their
// waiters in order (command's pipeline).
//
// Everything here is guarded by the shard's lock. When no client blocks anywhere, a write
// pays one atomic load (Keyspace.Blocking).

// Waiter is one blocked connection's registration: the type of value it waits for and the keys
// it waits on. Its owner (the pipeline) registers it on each key's shard with BlockLocked and
// removes it with UnblockLocked, under those shards' locks.
type Waiter struct {
	// Type is the value type that serves the waiter: a key added with another type leaves it
	// waiting (Redis's handleClientsBlockedOnKey checks the blocked type).
	Type object.Type
	// Owner is the pipeline's blocked command; the keyspace never looks at it.
	Owner any
	keys  []WaitKey // the keys it is registered on, in the order given
}

// WaitKey is a key a waiter waits on: its shard, database and bytes.
type WaitKey struct {
	Shard int
	DB    int
	Key   string
}

// Keys returns the keys w is registered on. The slice is w's.
func (w *Waiter) Keys() []WaitKey { return w.keys }

// blockTable is a shard's share of the registry. Queues are kept by value: one allocation
// fewer per waited key (10,000 clients blocked on as many keys cost 10,000 map slots).
type blockTable struct {
	queues map[dbKey]waitQueue
	ready  []WaitKey // keys made ready and not yet taken, in the order they became ready
}

// waitQueue is the waiters of one key, first blocked first.
type waitQueue struct {
	waiters []*Waiter
	ready   bool // listed in ready
}

// BlockLocked registers w on key of database db, at the end of the key's queue; s must be
// key's shard, locked. A key w is already registered on is not added twice.
func (s *Shard) BlockLocked(w *Waiter, db int, key []byte) {
	for _, k := range w.keys {
		if k.Shard == s.index && k.DB == db && k.Key == string(key) {
			return
		}
	}
	k := dbKey{int32(db), string(key)}
	if s.block.queues == nil {
		s.block.queues = make(map[dbKey]waitQueue)
	}
	q, ok := s.block.queues[k]
	if !ok {
		s.ks.blocking.keys.Add(1)
	}
	q.waiters = append(q.waiters, w)
	s.block.queues[k] = q
	w.keys = append(w.keys, WaitKey{Shard: s.index, DB: db, Key: k.key})
	s.ks.blocking.waits.Add(1)
}

// UnblockLocked removes w from the queues of its keys in shard s (locked); the caller does so
// for each shard of w.Keys(), and w forgets them once all are done (Forget).
func (s *Shard) UnblockLocked(w *Waiter) {
	for _, wk := range w.keys {
		if wk.Shard != s.index {
			continue
		}
		k := dbKey{int32(wk.DB), wk.Key}
		q, ok := s.block.queues[k]
		if !ok {
			continue
		}
		for i, o := range q.waiters {
			if o == w {
				q.waiters = slices.Delete(q.waiters, i, i+1) // zeroes the freed slot
				s.ks.blocking.waits.Add(-1)
				break
			}
		}
		if len(q.waiters) == 0 {
			delete(s.block.queues, k)
			s.ks.blocking.keys.Add(-1)
		} else {
			s.block.queues[k] = q
		}
	}
}

// Forget clears w's key list once it is unregistered from every shard, so that it can be
// registered again.
func (w *Waiter) Forget() {
	clear(w.keys)
	w.keys = w.keys[:0]
}

// WaitersLocked returns the waiters of key in database db, first blocked first; s must be key's
// shard, locked. The slice is the shard's: read it only under the lock, and do not keep it.
func (s *Shard) WaitersLocked(db int, key string) []*Waiter {
	return s.block.queues[dbKey{int32(db), key}].waiters
}

// TakeReadyLocked appends the shard's ready keys to dst, oldest first, and forgets them: the
// caller serves their waiters.
func (s *Shard) TakeReadyLocked(dst []WaitKey) []WaitKey {
	for _, k := range s.block.ready {
		dk := dbKey{int32(k.DB), k.Key}
		if q, ok := s.block.queues[dk]; ok {
			q.ready = false
			s.block.queues[dk] = q
		}
		dst = append(dst, k)
	}
	clear(s.block.ready)
	s.block.ready = s.block.ready[:0]
	return dst
}

// HasReadyLocked reports whether the shard has ready keys not yet taken.
func (s *Shard) HasReadyLocked() bool { return len(s.block.ready) > 0 }

// signalReady marks key of database db ready if someone waits on it (Redis's
// signalKeyAsReady). Called at every key the shard adds, when the shard has waited keys (the
// callers test len(s.block.queues) themselves: one load on the path of every SET).
func (s *Shard) signalReady(db int, key []byte) {
	dk := dbKey{int32(db), string(key)}
	q, ok := s.block.queues[dk]
	if !ok || q.ready {
		return
	}
	q.ready = true
	s.block.queues[dk] = q
	s.block.ready = append(s.block.ready, WaitKey{Shard: s.index, DB: db, Key: string(key)})
}

// signalExisting marks ready every key of database db that someone waits on and that exists
// (SWAPDB: Redis's scanDatabaseForReadyKeys).
func (s *Shard) signalExisting(db int) {
	for k := range s.block.queues {
		if int(k.db) != db {
			continue
		}
		key := []byte(k.key)
		if _, ok := s.db(db).keys.Find(key, Hash(key)); ok {
			s.signalReady(db, key)
		}
	}
}

// blockingCounts are the registry's totals over all shards, read without locks (INFO).
type blockingCounts struct {
	keys  atomic.Int64 // keys with at least one waiter (INFO total_blocking_keys)
	waits atomic.Int64 // (waiter, key) registrations: 0 when nobody blocks
}

// Blocking reports whether any client is registered on any key: the pipeline looks for ready
// keys only then.
func (k *Keyspace) Blocking() bool { return k.blocking.waits.Load() != 0 }

// BlockingKeys is the number of keys clients block on (INFO total_blocking_keys).
func (k *Keyspace) BlockingKeys() int64 { return k.blocking.keys.Load() }
