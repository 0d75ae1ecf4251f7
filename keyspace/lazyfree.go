package keyspace

import (
	"sync/atomic"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/quicklist"
)

// Lazy freeing, as Redis 7.2's lazyfree.c: a deleted key whose value is costly to free — a
// hash or set kept as a table of more than LazyFreeThreshold entries, a list of more than
// LazyFreeThreshold quicklist nodes, a sorted set kept as a skiplist of more than
// LazyFreeThreshold members (the type's registered FreeStep: its table, then its index with the entries) —
// leaves its table at once
// (its record is freed), and the value's root goes on its shard's queue; the cron frees queued
// values a bounded amount per tick under the shard's lock (LazyFreeStep), where Redis hands
// them to a background thread. Which deletes go this way is Redis's choice, by the lazyfree-*
// directives (LazyFreeOptions): UNLINK and FLUSHALL/FLUSHDB ASYNC always; DEL and the flushes
// without an option when lazyfree-lazy-user-del / -user-flush say so; overwrites, RENAME's
// replaced key and other server-side deletes (Redis's dbDelete) with lazyfree-lazy-server-del;
// expiry with lazyfree-lazy-expire.
//
// A queued list is a quicklist, freed node by node from its head (quicklist.FreeStep): a node
// and its listpack hold no handle to anything else. A queued hash or set is an arena-rooted
// htable of the type's entries. It is destroyed with
// htable's DestroyStep, whose entries are gathered (in a buffer of the shard, reused) and then
// freed by the type itself: they are put into a small table of their own, rooted by a throwaway
// record of the same type, which object.Free frees through the type's registered
// CollectionOps. The keyspace so needs nothing of a type beyond the collection contract (a big
// hash or set is an htable of one allocation per entry), and each step frees about its budget
// of entries. The queue holds handles and the batch buffer handles: no Go pointer into the
// arena, and O(1) Go memory per shard besides one small item per queued value.
//
// INFO's lazyfree_pending_objects counts the queued values, lazyfreed_objects the values freed
// this way since the start (or CONFIG RESETSTAT).

// LazyFreeThreshold is Redis's LAZYFREE_THRESHOLD: a value whose free effort (the entries of
// its table; 1 for a listpack or intset, a string, anything in one allocation) is above it is
// freed lazily when the delete allows.
const LazyFreeThreshold = 64

// LazyFreeOptions are the lazyfree-* directives the keyspace acts on. The zero value frees
// everything at once, as Redis's defaults do (every directive is "no").
type LazyFreeOptions struct {
	UserDel   bool // lazyfree-lazy-user-del: DEL behaves as UNLINK
	UserFlush bool // lazyfree-lazy-user-flush: FLUSHALL/FLUSHDB without an option are ASYNC
	ServerDel bool // lazyfree-lazy-server-del: overwrites and DeleteLocked (Redis's dbDelete)
	Expire    bool // lazyfree-lazy-expire: keys removed by expiry, lazy or active
}

// lazyConfig holds LazyFreeOptions for lock-free reads on every delete.
type lazyConfig struct {
	userDel, userFlush, serverDel, expire atomic.Bool
}

// SetLazyFree installs the lazyfree-* options (at start and on CONFIG SET).
func (k *Keyspace) SetLazyFree(o LazyFreeOptions) {
	k.lazy.userDel.Store(o.UserDel)
	k.lazy.userFlush.Store(o.UserFlush)
	k.lazy.serverDel.Store(o.ServerDel)
	k.lazy.expire.Store(o.Expire)
}

// LazyFree returns the lazyfree-* options in force.
func (k *Keyspace) LazyFree() LazyFreeOptions {
	return LazyFreeOptions{UserDel: k.lazy.userDel.Load(), UserFlush: k.lazy.userFlush.Load(),
		ServerDel: k.lazy.serverDel.Load(), Expire: k.lazy.expire.Load()}
}

// lazyItem is one queued value: the root of a collection whose record is gone.
type lazyItem struct {
	typ       object.Type
	enc       object.Encoding
	root      alloc.Handle
	destroyed bool // the root's table is gone; its last entries may still wait in batch
}

// lazyQueue is a shard's values waiting to be freed.
type lazyQueue struct {
	// items and batch are guarded by the shard's lock. batch holds entries of items[0] taken
	// out of its table and not yet freed (a step that ran out of memory keeps them for the
	// next).
	items []lazyItem
	batch []alloc.Handle

	// pending is len(items); freed counts the values freed by steps. Written under the lock,
	// read by anyone (INFO).
	pending atomic.Int64
	freed   atomic.Int64
}

// freeEffort is Redis's lazyfreeGetFreeEffort for record h: the entries of a collection kept as
// a table, the nodes of a quicklist, 1 for anything else.
func freeEffort(a *alloc.Arena, h alloc.Handle) int64 {
	switch object.EncodingOf(a, h) {
	case object.EncHashtable:
		_, root := object.Root(a, h)
		t := htable.Open(a, nil, root)
		return t.Len()
	case object.EncQuicklist:
		_, root := object.Root(a, h)
		return int64(quicklist.FromHandle(root).Nodes(a))
	case object.EncSkiplist:
		if effort, _ := object.SteppedFree(object.TypeOf(a, h)); effort != nil {
			enc, root := object.Root(a, h)
			return effort(a, enc, root)
		}
	}
	return 1
}

// freeRecord frees record h, which has left its table: at once, or when lazy allows and its
// free effort is above LazyFreeThreshold, by queueing its value and freeing only the record
// (Redis's freeObjAsync).
func (s *Shard) freeRecord(h alloc.Handle, lazy bool) {
	if !lazy || freeEffort(s.arena, h) <= LazyFreeThreshold {
		object.Free(s.arena, h)
		return
	}
	enc, root := object.Root(s.arena, h)
	s.lazy.items = append(s.lazy.items, lazyItem{typ: object.TypeOf(s.arena, h), enc: enc, root: root})
	s.lazy.pending.Store(int64(len(s.lazy.items)))
	object.FreeRecordOnly(s.arena, h)
}

// LazyFreePendingLocked is the number of values queued in this shard.
func (s *Shard) LazyFreePendingLocked() int { return len(s.lazy.items) }

// LazyFreeStepLocked frees about budget entries of the shard's queued values, oldest first, and
// reports whether values remain queued. Requires the lock.
func (s *Shard) LazyFreeStepLocked(budget int) bool {
	for budget > 0 && len(s.lazy.items) > 0 {
		it := &s.lazy.items[0]
		if it.enc == object.EncQuicklist {
			// A list is freed node by node from its head: no batch.
			it.destroyed = quicklist.FromHandle(it.root).FreeStep(s.arena, budget)
			if !it.destroyed {
				budget = 0
			}
		} else if it.enc == object.EncSkiplist {
			// A big sorted set frees its table, then its index leaf by leaf with the entries.
			_, step := object.SteppedFree(it.typ)
			it.destroyed = step(s.arena, it.enc, it.root, budget)
			if !it.destroyed {
				budget = 0
			}
		} else if !it.destroyed {
			t := htable.Open(s.arena, nil, it.root)
			before := len(s.lazy.batch)
			it.destroyed = t.DestroyStep(func(h alloc.Handle) { s.lazy.batch = append(s.lazy.batch, h) }, budget)
			budget -= max(len(s.lazy.batch)-before, 1)
			if !it.destroyed {
				budget = 0 // DestroyStep spent it (buckets passed count too)
			}
		}
		if it.enc != object.EncQuicklist && it.enc != object.EncSkiplist && !s.freeBatch(it.typ) {
			break // out of memory for the batch's table: the next step tries again
		}
		if it.destroyed {
			s.lazy.items[0] = lazyItem{}
			s.lazy.items = s.lazy.items[1:]
			if len(s.lazy.items) == 0 {
				s.lazy.items = nil // give back what a burst of queued values grew
			}
			s.lazy.pending.Store(int64(len(s.lazy.items)))
			s.lazy.freed.Add(1)
		}
	}
	if cap(s.lazy.batch) > 4*lazyFreeBatchCap {
		s.lazy.batch = nil
	}
	return len(s.lazy.items) > 0
}

// lazyFreeBatchCap bounds the batch buffer a shard keeps between steps (4 × this, in handles).
const lazyFreeBatchCap = 4096

// freeBatch frees the entries in s.lazy.batch, which belong to a collection of type typ kept
// as a table, through the type's own Free: they become a table of their own under a throwaway
// record. Out of memory for that it keeps them and reports false.
func (s *Shard) freeBatch(typ object.Type) bool {
	if len(s.lazy.batch) == 0 {
		return true
	}
	root, err := htable.Create(s.arena)
	if err != nil {
		return false
	}
	t := htable.Open(s.arena, batchKey, root)
	t.ExpandForLoad(uint64(len(s.lazy.batch)))
	for i, h := range s.lazy.batch {
		// The hash only spreads the entries: the table is never searched, only freed.
		if t.Insert(uint64(h)*0x9e3779b97f4a7c15, h) != nil {
			s.lazy.batch = s.lazy.batch[:i]
			t.Destroy(func(h alloc.Handle) { s.lazy.batch = append(s.lazy.batch, h) })
			return false
		}
	}
	rec, err := object.NewCollection(s.arena, nil, typ, object.EncHashtable, root, 0)
	if err != nil {
		s.lazy.batch = s.lazy.batch[:0]
		t.Destroy(func(h alloc.Handle) { s.lazy.batch = append(s.lazy.batch, h) })
		return false
	}
	object.Free(s.arena, rec)
	s.lazy.batch = s.lazy.batch[:0]
	return true
}

// batchKey is the batch table's KeyFunc. The table is never searched, and sized for its
// entries by ExpandForLoad it does not resize; only if that found no memory does a resize read
// keys to place entries, and any bytes of an entry serve, since nothing looks them up.
func batchKey(a *alloc.Arena, h alloc.Handle) []byte { return a.Bytes(h, 1) }

// LazyFreeStep gives every shard with queued values up to budget entries of freeing, under
// its lock (the cron's share of Redis's lazyfree thread). It reports whether values remain
// queued somewhere.
func (k *Keyspace) LazyFreeStep(budget int) bool {
	more := false
	for _, s := range k.shards {
		if s.lazy.pending.Load() == 0 {
			continue
		}
		s.mu.Lock()
		if s.LazyFreeStepLocked(budget) {
			more = true
		}
		s.Unlock()
	}
	return more
}

// LazyFreePending is the number of values waiting to be freed (INFO lazyfree_pending_objects).
func (k *Keyspace) LazyFreePending() int64 {
	var n int64
	for _, s := range k.shards {
		n += s.lazy.pending.Load()
	}
	return n
}

// LazyFreed is the number of values freed lazily since the start or the last
// ResetLazyFreed (INFO lazyfreed_objects).
func (k *Keyspace) LazyFreed() int64 {
	var n int64
	for _, s := range k.shards {
		n += s.lazy.freed.Load()
	}
	return n - k.lazyFreedBase.Load()
}

// ResetLazyFreed starts lazyfreed_objects again from 0 (CONFIG RESETSTAT).
func (k *Keyspace) ResetLazyFreed() { k.lazyFreedBase.Add(k.LazyFreed()) }

// AsyncDeleteLocked removes key from database db, freeing a big value lazily (Redis's
// dbAsyncDelete: UNLINK, and DEL under lazyfree-lazy-user-del). It reports whether the key
// existed.
func (s *Shard) AsyncDeleteLocked(db int, key []byte) bool { return s.deleteLocked(db, key, true) }

// SyncDeleteLocked removes key from database db and frees its value at once (Redis's
// dbSyncDelete: DEL). It reports whether the key existed.
func (s *Shard) SyncDeleteLocked(db int, key []byte) bool { return s.deleteLocked(db, key, false) }

func (s *Shard) deleteLocked(db int, key []byte, lazy bool) bool {
	h, ok := s.UnlinkLocked(db, key)
	if ok {
		s.freeRecord(h, lazy)
	}
	return ok
}

// FlushDBAsyncLocked is FlushDBLocked freeing big values lazily (FLUSHDB ASYNC).
func (k *Keyspace) FlushDBAsyncLocked(db int) int64 {
	var n int64
	for _, s := range k.shards {
		n += s.flushLocked(db, true)
	}
	return n
}

// FlushAllAsyncLocked is FlushAllLocked freeing big values lazily (FLUSHALL ASYNC).
func (k *Keyspace) FlushAllAsyncLocked() int64 {
	var n int64
	for db := range k.databases {
		n += k.FlushDBAsyncLocked(db)
	}
	return n
}
