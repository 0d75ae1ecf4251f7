package keyspace

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/alloc"
)

// Keyspace is every database's keys, split by key hash into shards, each with its own lock
// and arena. See the package documentation for the rules.
type Keyspace struct {
	shards    []*Shard
	shardMask uint64
	databases int
	clock     func() int64
	lru       atomic.Uint32 // the cached LRU clock plus one; 0 until TickLRUClock
	access    accessPolicy  // what an access writes in a record's clock field (access.go)
	usage     usage         // bytes charged to the shards' arenas, as last reported (usage.go)
	// snapPending is the bytes of records a running snapshot wrote before they changed and
	// holds in memory (snapshot.go).
	snapPending atomic.Int64
	// notify is the NotifyClass notify-keyspace-events enables, 0 when none is sent (events.go).
	notify atomic.Uint32
	// lazy is the lazyfree-* options; lazyFreedBase is lazyfreed_objects at the last
	// CONFIG RESETSTAT (lazyfree.go).
	lazy          lazyConfig
	lazyFreedBase atomic.Int64
	// onExpired publishes an `expired` event, with no lock held (SetOnExpired); set before use.
	onExpired func(db int, key []byte)
	// blocking counts the blocking-key registry's entries over all shards (blocking.go).
	blocking blockingCounts
}

// Options configures a Keyspace. The zero value gives the defaults.
type Options struct {
	// Shards is the number of shards: a power of two up to MaxShards. 0 means DefaultShards().
	Shards int
	// Databases is the number of databases (redis.conf "databases"). 0 means DefaultDatabases.
	Databases int
	// Clock returns the time in unix ms. nil means the system clock; tests pass a fake one and
	// advance it, so nothing sleeps.
	Clock func() int64
	// ArenaReserve is the address space each shard's arena reserves (alloc.NewArena); 0 means
	// alloc.DefaultReserve. Reserving costs no memory, but tests that make many keyspaces pass
	// less.
	ArenaReserve int64
}

const (
	// DefaultDatabases is Redis's default for "databases".
	DefaultDatabases = 16
	// MinShards is the fewest shards DefaultShards picks: enough that two busy keys rarely
	// share a lock even on a small machine.
	MinShards = 16
	// MaxShards bounds the shard count: a shard index takes 15 bits of a key's hash, and the
	// top bits of a SCAN cursor below bit 63 (cursors stay positive for clients that parse
	// them as signed).
	MaxShards = 1 << 15
	// scanShardShift is where a SCAN cursor keeps the shard index; the table's own cursor in
	// the bits below needs at most 29 (an arena holds at most 2^29 buckets).
	scanShardShift = 48
	// lruClockMax masks Redis's 24-bit LRU clock (seconds).
	lruClockMax = 1<<24 - 1
)

// DefaultShards is 4 × GOMAXPROCS rounded up to a power of two, at least MinShards: with four
// times as many locks as running goroutines, two commands rarely wait for each other.
func DefaultShards() int {
	n := 4 * runtime.GOMAXPROCS(0)
	n = 1 << bits.Len(uint(n-1))
	return min(max(n, MinShards), MaxShards)
}

// New makes an empty keyspace.
func New(opts Options) (*Keyspace, error) {
	n := opts.Shards
	if n == 0 {
		n = DefaultShards()
	}
	if n < 1 || n > MaxShards || n&(n-1) != 0 {
		return nil, fmt.Errorf("keyspace: %d shards: want a power of two from 1 to %d", n, MaxShards)
	}
	dbs := opts.Databases
	if dbs == 0 {
		dbs = DefaultDatabases
	}
	if dbs < 1 {
		return nil, fmt.Errorf("keyspace: %d databases", dbs)
	}
	k := &Keyspace{shardMask: uint64(n - 1), databases: dbs, clock: opts.Clock}
	if k.clock == nil {
		k.clock = func() int64 { return time.Now().UnixMilli() }
	}
	for i := range n {
		a, err := alloc.NewArena(opts.ArenaReserve)
		if err != nil {
			k.Close()
			return nil, fmt.Errorf("keyspace: shard %d: %w", i, err)
		}
		k.shards = append(k.shards, newShard(k, i, a))
	}
	return k, nil
}

// Close gives back all of the keyspace's memory. Nothing of it may be used afterwards.
func (k *Keyspace) Close() {
	for _, s := range k.shards {
		s.arena.Close()
	}
	k.shards = nil
}

// NumShards is the number of shards.
func (k *Keyspace) NumShards() int { return len(k.shards) }

// Databases is the number of databases.
func (k *Keyspace) Databases() int { return k.databases }

// ShardFor is the index of the shard that holds key, in every database.
func (k *Keyspace) ShardFor(key []byte) int { return int(Hash(key) >> shardShift & k.shardMask) }

// Shard returns shard i.
func (k *Keyspace) Shard(i int) *Shard { return k.shards[i] }

// Now is the keyspace's clock, unix ms.
func (k *Keyspace) Now() int64 { return k.clock() }

// LRUClock is Redis's LRU clock: seconds, in 24 bits. Once TickLRUClock has been called it is
// the value cached there, as Redis's server.lruclock, so that a lookup does not read the clock.
func (k *Keyspace) LRUClock() uint32 {
	if v := k.lru.Load(); v != 0 {
		return v - 1
	}
	return uint32(k.clock()/1000) & lruClockMax
}

// TickLRUClock caches the LRU clock for LRUClock. The server's cron calls it every tick (at
// least once a second, the clock's resolution), as Redis's serverCron updates server.lruclock.
func (k *Keyspace) TickLRUClock() { k.lru.Store(uint32(k.clock()/1000)&lruClockMax + 1) }

// SwapDBLocked swaps databases a and b (SWAPDB) by swapping their tables and TTL indexes in
// every shard: nothing is copied and no arena is crossed. The caller holds every shard's lock
// (LockAll).
func (k *Keyspace) SwapDBLocked(a, b int) {
	for _, s := range k.shards {
		if s.watch.n.Load() != 0 {
			s.touchWatchedSwap(a, b)
			s.touchWatchedSwap(b, a)
		}
		da, db := s.dbs[a].Load(), s.dbs[b].Load()
		s.dbs[a].Store(db)
		s.dbs[b].Store(da)
		if len(s.block.queues) != 0 {
			s.signalExisting(a)
			s.signalExisting(b)
		}
	}
}

// FlushDBLocked empties database db (FLUSHDB) and returns how many keys it had. The caller
// holds every shard's lock (LockAll), so no command sees it half flushed.
func (k *Keyspace) FlushDBLocked(db int) int64 {
	var n int64
	for _, s := range k.shards {
		n += s.FlushLocked(db)
	}
	return n
}

// FlushAllLocked empties every database (FLUSHALL) and returns how many keys there were. The
// caller holds every shard's lock.
func (k *Keyspace) FlushAllLocked() int64 {
	var n int64
	for db := range k.databases {
		n += k.FlushDBLocked(db)
	}
	return n
}

// The counters below read the shards' atomics without their locks: each is exact for its
// shard at some instant, and the sum is what INFO and DBSIZE report.

// Keys is the number of keys in database db (DBSIZE; INFO keyspace "keys").
func (k *Keyspace) Keys(db int) int64 {
	var n int64
	for _, s := range k.shards {
		n += s.db(db).keys.Len()
	}
	return n
}

// Expires is the number of keys with an expire in database db (INFO keyspace "expires").
func (k *Keyspace) Expires(db int) int64 {
	var n int64
	for _, s := range k.shards {
		n += s.db(db).expires.len()
	}
	return n
}

// AvgTTL is the average time to live in ms of database db's keys with an expire (INFO keyspace
// "avg_ttl"), to the second; 0 when none has one.
func (k *Keyspace) AvgTTL(db int) int64 {
	var n, secs int64
	for _, s := range k.shards {
		x := s.db(db).expires
		n += x.len()
		secs += x.whenSecs.Load()
	}
	if n == 0 {
		return 0
	}
	return max(secs/n*1000-k.Now(), 0)
}

// ExpiredKeys is the number of keys removed because their time passed (INFO expired_keys).
func (k *Keyspace) ExpiredKeys() int64 {
	var n int64
	for _, s := range k.shards {
		n += s.expiredKeys.Load()
	}
	return n
}

// UsedMemory is everything charged to the shards' arenas: records, values, tables and TTL
// indexes (INFO used_memory_dataset).
func (k *Keyspace) UsedMemory() int64 {
	var n int64
	for _, s := range k.shards {
		n += s.arena.Used()
	}
	return n
}

// RehashStep gives every shard that is free at the moment up to budget rehash steps per
// resizing table (the cron's incrementallyRehash); a busy shard is skipped, its commands rehash
// it. It reports whether a resize is still in progress somewhere.
func (k *Keyspace) RehashStep(budget int) bool {
	more := false
	for _, s := range k.shards {
		if !s.mu.TryLock() {
			more = true
			continue
		}
		if s.RehashStepLocked(budget) {
			more = true
		}
		s.Unlock()
	}
	return more
}

// Dirty is the number of changes to keys since the keyspace was made (Redis's server.dirty,
// which never goes down here: a save remembers the count it started at).
func (k *Keyspace) Dirty() int64 {
	var n int64
	for _, s := range k.shards {
		n += s.dirty.Load()
	}
	return n
}

// ExpandForLoad sizes database db's empty tables for keys keys in all, shared by the shards
// (RDB's RESIZEDB hint): a load then inserts without resizing. Shrinking waits for EndLoad.
func (k *Keyspace) ExpandForLoad(db int, keys int64) {
	if db < 0 || db >= k.databases || keys <= 0 {
		return
	}
	// A shard's share, with room for the hash's unevenness (a few standard deviations).
	per := keys/int64(len(k.shards)) + 1
	per += 4*int64(math.Sqrt(float64(per))) + 16
	for _, s := range k.shards {
		s.mu.Lock()
		s.db(db).keys.ExpandForLoad(uint64(per))
		s.Unlock()
	}
}

// EndLoad ends what ExpandForLoad began: the tables may shrink again.
func (k *Keyspace) EndLoad() {
	for _, s := range k.shards {
		s.mu.Lock()
		for i := range s.dbs {
			s.db(i).keys.EndLoad()
		}
		s.Unlock()
	}
}
