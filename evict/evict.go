// Package evict is the memory limit (Redis's evict.c): when used memory is over maxmemory,
// keys are evicted by maxmemory-policy until it is under again, before a command takes its
// locks; a denyoom command that would still be over is refused.
//
// Candidates are sampled across every shard and database into one pool of the most idle keys,
// as Redis's pool spans its databases, and each shard is locked only while it is sampled or a
// victim is deleted — one shard at a time, so eviction never holds a lock out of order. A
// readiness loop must never wait (DESIGN §4): eviction only tries locks, skipping a busy shard,
// and only one goroutine evicts at a time; the others go on as if it were still running.
package evict

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// Result is how an eviction attempt ended (Redis's EVICT_OK, EVICT_RUNNING, EVICT_FAIL).
type Result uint8

const (
	// OK: used memory is under the limit (or there is none).
	OK Result = iota
	// Running: still over, but eviction is making progress (its time ran out, or another
	// goroutine holds it); the cron goes on. Commands are not refused.
	Running
	// Fail: over the limit with nothing left that the policy may evict: denyoom commands are
	// refused.
	Fail
)

// Timed names what Evictor.Timing reports.
type Timed uint8

const (
	// Cycle is one Perform call that evicted, or tried to.
	Cycle Timed = iota
	// Delete is one evicted key's deletion.
	Delete
)

// keysPerTimeCheck is how many keys are evicted between two looks at the clock (Redis: 16).
const keysPerTimeCheck = 16

// Evictor keeps used memory under maxmemory. Its settings are atomics written by the
// configuration; Over is cheap enough for every command.
type Evictor struct {
	ks *keyspace.Keyspace
	// used is used_memory as the limit counts it: the keyspace's reported charge, the clients'
	// buffers and the Go runtime's live heap (not garbage awaiting collection, so that eviction
	// does not follow the GC cycle).
	used func() int64

	maxmemory atomic.Int64
	policy    atomic.Uint32
	samples   atomic.Int64
	tenacity  atomic.Int64

	evicted       atomic.Int64 // evicted_keys
	exceededSince atomic.Int64 // unix µs when used memory went over the limit; 0 when under
	exceededTotal atomic.Int64 // µs spent over the limit before the current stretch

	// Timing, when set before the evictor runs, is told how long each eviction call that had
	// work to do took (Cycle) and each evicted key's deletion (Delete): the latency monitor's
	// eviction-cycle and eviction-del events.
	Timing func(what Timed, d time.Duration)
	// OnEvicted, when set before the evictor runs, is told of each evicted key (database and
	// key, valid during the call) once its shard is unlocked: the `evicted` keyspace
	// notification.
	OnEvicted func(db int, key []byte)

	background atomic.Bool    // the background eviction is running (continueInBackground)
	bgMu       sync.Mutex     // orders starting the background eviction with Close
	bgDone     sync.WaitGroup // the background eviction, for Close
	closed     bool           // Close was called: no more background eviction; under bgMu

	mu     sync.Mutex // one eviction at a time: the pool and the rotation below
	pool   pool
	nextDB int // where random policies draw next (Redis's next_db)
	now    func() time.Time
}

// New makes an evictor for ks; used returns used memory as the limit counts it.
func New(ks *keyspace.Keyspace, used func() int64) *Evictor {
	e := &Evictor{ks: ks, used: used, now: time.Now}
	e.samples.Store(5)
	e.tenacity.Store(10)
	return e
}

// Settings are the configuration's knobs of the memory limit.
type Settings struct {
	MaxMemory    int64  // maxmemory, bytes; 0: no limit
	Policy       Policy // maxmemory-policy
	Samples      int64  // maxmemory-samples
	Tenacity     int64  // maxmemory-eviction-tenacity, 0 to 100
	LFULogFactor int64  // lfu-log-factor
	LFUDecayTime int64  // lfu-decay-time, minutes
}

// Configure applies the settings. A change of policy empties the pool (its ranking meant
// something else), and the keyspace's accesses keep LFU counters under an LFU policy.
func (e *Evictor) Configure(s Settings) {
	e.mu.Lock()
	if Policy(e.policy.Load()) != s.Policy {
		e.pool.clear()
	}
	e.policy.Store(uint32(s.Policy))
	e.samples.Store(max(s.Samples, 1))
	e.tenacity.Store(min(max(s.Tenacity, 0), 100))
	e.mu.Unlock()
	e.ks.SetAccessPolicy(s.Policy.LFU(), s.LFULogFactor, s.LFUDecayTime)
	e.maxmemory.Store(max(s.MaxMemory, 0))
}

// Policy is the policy in force.
func (e *Evictor) Policy() Policy { return Policy(e.policy.Load()) }

// MaxMemory is the limit in force, 0 when none.
func (e *Evictor) MaxMemory() int64 { return e.maxmemory.Load() }

// Over reports whether used memory is over maxmemory (false when there is no limit, or for a
// nil Evictor): the check before every command, two loads when there is no limit.
func (e *Evictor) Over() bool {
	if e == nil {
		return false
	}
	m := e.maxmemory.Load()
	return m > 0 && e.used() > m
}

// Evicted is evicted_keys.
func (e *Evictor) Evicted() int64 { return e.evicted.Load() }

// ResetStats clears evicted_keys and the exceeded time (CONFIG RESETSTAT).
func (e *Evictor) ResetStats() {
	e.evicted.Store(0)
	e.exceededTotal.Store(0)
	if e.exceededSince.Load() != 0 {
		e.exceededSince.Store(e.now().UnixMicro())
	}
}

// ExceededTime returns total_eviction_exceeded_time and current_eviction_exceeded_time: how
// long used memory has been over the limit in all, and in the current stretch.
func (e *Evictor) ExceededTime() (total, current time.Duration) {
	total = time.Duration(e.exceededTotal.Load()) * time.Microsecond
	if since := e.exceededSince.Load(); since != 0 {
		current = time.Duration(e.now().UnixMicro()-since) * time.Microsecond
	}
	return total + current, current
}

// noteOver records the start or end of a stretch over the limit.
func (e *Evictor) noteOver(over bool) {
	since := e.exceededSince.Load()
	switch {
	case over && since == 0:
		e.exceededSince.Store(e.now().UnixMicro())
	case !over && since != 0:
		e.exceededTotal.Add(e.now().UnixMicro() - since)
		e.exceededSince.Store(0)
	}
}

// Perform is Redis's performEvictions: while used memory is over the limit, evict keys by the
// policy. It stops when under (OK), when nothing the policy may evict is left (Fail), or when
// its time is up, a shard it needed was busy or another goroutine is evicting (Running). In the
// first two Running cases eviction goes on in the background (Redis's evictionTimeProc), so
// that the command that called it is not held up and the memory still comes down.
func (e *Evictor) Perform() Result {
	r, unfinished := e.perform()
	if unfinished {
		e.continueInBackground()
	}
	return r
}

// perform is Perform without the background continuation; unfinished reports that it stopped
// with work left that it was doing (not another goroutine's).
func (e *Evictor) perform() (r Result, unfinished bool) {
	limit := e.maxmemory.Load()
	if limit <= 0 || e.used() <= limit {
		e.noteOver(false)
		return OK, false
	}
	e.noteOver(true)
	policy := Policy(e.policy.Load())
	if policy == NoEviction {
		return Fail, false
	}
	if !e.mu.TryLock() {
		return Running, false
	}
	defer e.mu.Unlock()
	start := e.now()
	if e.Timing != nil {
		defer func() { e.Timing(Cycle, e.now().Sub(start)) }()
	}
	budget := timeLimit(e.tenacity.Load())
	for n := 1; ; n++ {
		found, busy := e.evictOne(policy)
		if !found {
			if busy {
				return Running, true
			}
			return Fail, false
		}
		if e.used() <= limit {
			e.noteOver(false)
			return OK, false
		}
		if n%keysPerTimeCheck == 0 && e.now().Sub(start) > budget {
			return Running, true
		}
	}
}

// continueInBackground starts the background eviction unless it is running: one goroutine
// that calls perform, yielding between calls, until it is done (OK or Fail), another goroutine
// holds the eviction, or Close is called.
func (e *Evictor) continueInBackground() {
	if !e.background.CompareAndSwap(false, true) {
		return
	}
	e.bgMu.Lock()
	defer e.bgMu.Unlock()
	if e.closed {
		e.background.Store(false)
		return
	}
	e.bgDone.Add(1)
	go func() {
		defer e.bgDone.Done()
		defer e.background.Store(false)
		for !e.isClosed() {
			if _, unfinished := e.perform(); !unfinished {
				return
			}
			runtime.Gosched()
		}
	}()
}

func (e *Evictor) isClosed() bool {
	e.bgMu.Lock()
	defer e.bgMu.Unlock()
	return e.closed
}

// Close stops the background eviction and waits for it: call it before the keyspace closes.
// A nil Evictor's Close does nothing.
func (e *Evictor) Close() {
	if e == nil {
		return
	}
	e.bgMu.Lock()
	e.closed = true
	e.bgMu.Unlock()
	e.bgDone.Wait()
}

// timeLimit is Redis's evictionTimeLimitUs: how long one call may evict, from
// maxmemory-eviction-tenacity — 50 µs per step up to 10 (500 µs at the default), then 15% more
// per step, unlimited at 100.
func timeLimit(tenacity int64) time.Duration {
	if tenacity <= 10 {
		return time.Duration(50*tenacity) * time.Microsecond
	}
	if tenacity < 100 {
		return time.Duration(500*math.Pow(1.15, float64(tenacity-10))) * time.Microsecond
	}
	return time.Duration(math.MaxInt64)
}

// evictOne deletes one key by the policy. found is false when no key could be evicted; busy
// then says whether a shard was skipped because another goroutine held it (so trying again
// later may find one).
func (e *Evictor) evictOne(policy Policy) (found, busy bool) {
	switch {
	case policy.Random():
		return e.evictRandom(policy.Volatile())
	case policy == VolatileTTL:
		return e.evictNearestExpire()
	default:
		return e.evictFromPool(policy)
	}
}

// evictFromPool samples every database (one shard each, at random) into the pool, then deletes
// the most idle candidate that still exists, as Redis's LRU and LFU eviction does.
func (e *Evictor) evictFromPool(policy Policy) (found, busy bool) {
	ks, samples := e.ks, int(e.samples.Load())
	for attempt := 0; attempt < 4*poolSize; attempt++ {
		for db := range ks.Databases() {
			if !e.hasCandidates(db, policy.Volatile()) {
				continue
			}
			i, ok := e.shardWithCandidates(db, policy.Volatile())
			if !ok {
				continue
			}
			sh := ks.Shard(i)
			if !sh.TryLock() {
				busy = true
				continue
			}
			sh.SampleLocked(db, samples, policy.Volatile(), func(h alloc.Handle) {
				key := object.Key(sh.Arena(), h)
				if !e.pool.contains(db, i, key) {
					e.pool.offer(e.idleness(policy, sh.Arena(), h), db, i, key)
				}
			})
			sh.Unlock()
		}
		for {
			c, ok := e.pool.takeBest()
			if !ok {
				break
			}
			switch e.deleteKey(c.shard, c.db, c.key) {
			case deleted:
				return true, busy
			case shardBusy:
				busy = true
			}
		}
		if !e.anyCandidates(policy.Volatile()) {
			return false, busy
		}
	}
	return false, busy
}

// idleness ranks record h for the policy: larger goes first.
func (e *Evictor) idleness(policy Policy, a *alloc.Arena, h alloc.Handle) uint64 {
	field := object.LRU(a, h)
	if policy.LFU() {
		return 255 - uint64(e.ks.LFUDecayed(field))
	}
	now := e.ks.LRUClock()
	if now >= field {
		return uint64(now - field)
	}
	return uint64(now + (1<<24 - 1) - field)
}

// evictNearestExpire deletes the key with the nearest expire of the whole server: each
// shard's first TTL entry in each database is a candidate, so volatile-ttl takes the true
// nearest, not the nearest of a sample.
func (e *Evictor) evictNearestExpire() (found, busy bool) {
	ks := e.ks
	for attempt := 0; attempt < 4; attempt++ {
		best := candidate{idle: 0}
		have := false
		for db := range ks.Databases() {
			if ks.Expires(db) == 0 {
				continue
			}
			for i := range ks.NumShards() {
				sh := ks.Shard(i)
				if !tryLockSoon(sh) {
					// The true nearest may be in this shard: evict nothing rather than the
					// nearest of the others; the cron tries again.
					return false, true
				}
				if h, ok := sh.NearestExpireLocked(db); ok {
					when, _ := object.Expire(sh.Arena(), h)
					if idle := math.MaxUint64 - uint64(when); !have || idle > best.idle {
						best = candidate{idle: idle, db: db, shard: i, key: append(best.key[:0], object.Key(sh.Arena(), h)...)}
						have = true
					}
				}
				sh.Unlock()
			}
		}
		if !have {
			return false, busy
		}
		switch e.deleteKey(best.shard, best.db, best.key) {
		case deleted:
			return true, busy
		case shardBusy:
			busy = true
		}
	}
	return false, busy
}

// evictRandom deletes a random key (of those with an expire when volatile), visiting the
// databases in rotation as Redis's next_db does.
func (e *Evictor) evictRandom(volatile bool) (found, busy bool) {
	ks := e.ks
	var key []byte
	for range ks.Databases() {
		db := e.nextDB
		e.nextDB = (e.nextDB + 1) % ks.Databases()
		if !e.hasCandidates(db, volatile) {
			continue
		}
		start := rand.IntN(ks.NumShards())
		for j := range ks.NumShards() {
			i := (start + j) % ks.NumShards()
			if !e.shardHasCandidates(i, db, volatile) {
				continue
			}
			sh := ks.Shard(i)
			if !sh.TryLock() {
				busy = true
				continue
			}
			picked := false
			sh.SampleLocked(db, 1, volatile, func(h alloc.Handle) {
				key = append(key[:0], object.Key(sh.Arena(), h)...)
				picked = true
			})
			if picked && e.timedDelete(sh, db, key) {
				sh.Unlock()
				e.evicted.Add(1)
				e.notifyEvicted(db, key)
				return true, busy
			}
			sh.Unlock()
		}
	}
	return false, busy
}

// hasCandidates reports whether database db has keys the policy may evict (counters read
// without locks).
func (e *Evictor) hasCandidates(db int, volatile bool) bool {
	if volatile {
		return e.ks.Expires(db) > 0
	}
	return e.ks.Keys(db) > 0
}

// shardHasCandidates is hasCandidates for one shard.
func (e *Evictor) shardHasCandidates(i, db int, volatile bool) bool {
	keys, vol := e.ks.Shard(i).Counts(db)
	if volatile {
		return vol > 0
	}
	return keys > 0
}

// shardWithCandidates picks the first shard from a random one on whose database db has keys
// the policy may evict.
func (e *Evictor) shardWithCandidates(db int, volatile bool) (int, bool) {
	n := e.ks.NumShards()
	start := rand.IntN(n)
	for j := range n {
		if i := (start + j) % n; e.shardHasCandidates(i, db, volatile) {
			return i, true
		}
	}
	return 0, false
}

// anyCandidates is hasCandidates for any database.
func (e *Evictor) anyCandidates(volatile bool) bool {
	for db := range e.ks.Databases() {
		if e.hasCandidates(db, volatile) {
			return true
		}
	}
	return false
}

// timedDelete deletes an evicted key (its shard locked), telling Timing how long it took.
func (e *Evictor) timedDelete(sh *keyspace.Shard, db int, key []byte) bool {
	if e.Timing == nil {
		return sh.DeleteLocked(db, key)
	}
	start := e.now()
	ok := sh.DeleteLocked(db, key)
	e.Timing(Delete, e.now().Sub(start))
	return ok
}

// tryLockSoon takes the shard's lock if it is free now or within a few yields: the cron and
// other commands hold a shard for microseconds, and eviction must not block a readiness loop
// in the lock's wait queue.
func tryLockSoon(sh *keyspace.Shard) bool {
	for range 8 {
		if sh.TryLock() {
			return true
		}
		runtime.Gosched()
	}
	return false
}

type deleteOutcome uint8

const (
	deleted deleteOutcome = iota
	gone                  // the key no longer exists
	shardBusy
)

// deleteKey evicts key from database db of shard i.
func (e *Evictor) deleteKey(i, db int, key []byte) deleteOutcome {
	sh := e.ks.Shard(i)
	if !tryLockSoon(sh) {
		return shardBusy
	}
	ok := e.timedDelete(sh, db, key)
	sh.Unlock()
	if !ok {
		return gone
	}
	e.evicted.Add(1)
	e.notifyEvicted(db, key)
	return deleted
}

// notifyEvicted tells OnEvicted of an evicted key; no lock is held.
func (e *Evictor) notifyEvicted(db int, key []byte) {
	if e.OnEvicted != nil {
		e.OnEvicted(db, key)
	}
}
