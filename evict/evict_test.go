package evict

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

const epochMs = 1_700_000_000_000

// world is a keyspace of 8 shards and 4 databases on a fake clock, whose "used memory" is
// perKey bytes a key: the limit is then a key count, and each test knows which keys must go.
type world struct {
	ks    *keyspace.Keyspace
	clock atomic.Int64
	e     *Evictor
}

const perKey = 100

func newWorld(t *testing.T) *world {
	w := &world{}
	w.clock.Store(epochMs)
	ks, err := keyspace.New(keyspace.Options{Shards: 8, Databases: 4, Clock: w.clock.Load, ArenaReserve: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	w.ks = ks
	t.Cleanup(func() { w.e.Close() }) // before the keyspace's Close (cleanups run last first)
	w.e = New(ks, func() int64 {
		var n int64
		for db := range ks.Databases() {
			n += ks.Keys(db)
		}
		return n * perKey
	})
	return w
}

// limitKeys sets the policy and a limit of n keys.
func (w *world) limitKeys(n int64, p Policy) {
	w.e.Configure(Settings{MaxMemory: n * perKey, Policy: p, Samples: 5, Tenacity: 100, LFULogFactor: 10, LFUDecayTime: 1})
}

func (w *world) set(t *testing.T, db int, key string, expireAt int64) {
	t.Helper()
	sh := w.ks.Shard(w.ks.ShardFor([]byte(key)))
	sh.Lock()
	defer sh.Unlock()
	h, err := object.NewString(sh.Arena(), []byte(key), []byte("v"), expireAt, object.WriteSet)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sh.ReplaceLocked(db, []byte(key), h); err != nil {
		t.Fatal(err)
	}
}

func (w *world) read(db int, key string) bool {
	sh := w.ks.Shard(w.ks.ShardFor([]byte(key)))
	sh.Lock()
	defer sh.Unlock()
	_, ok := sh.LookupLocked(db, []byte(key))
	return ok
}

func (w *world) exists(db int, key string) bool {
	sh := w.ks.Shard(w.ks.ShardFor([]byte(key)))
	sh.Lock()
	defer sh.Unlock()
	_, ok := sh.LookupFlagsLocked(db, []byte(key), keyspace.LookupNoTouch)
	return ok
}

func (w *world) keys() (n int64) {
	for db := range w.ks.Databases() {
		n += w.ks.Keys(db)
	}
	return n
}

func TestNoLimitAndNoEviction(t *testing.T) {
	w := newWorld(t)
	for i := range 50 {
		w.set(t, 0, fmt.Sprint("k", i), 0)
	}
	if w.e.Over() || w.e.Perform() != OK {
		t.Fatal("over the limit without one")
	}
	w.limitKeys(40, NoEviction)
	if !w.e.Over() {
		t.Fatal("50 keys not over a limit of 40")
	}
	if got := w.e.Perform(); got != Fail || w.keys() != 50 || w.e.Evicted() != 0 {
		t.Fatalf("noeviction: %v with %d keys, %d evicted; want Fail, 50 keys, none evicted", got, w.keys(), w.e.Evicted())
	}
	w.limitKeys(60, NoEviction)
	if got := w.e.Perform(); got != OK {
		t.Fatalf("under the limit: %v, want OK", got)
	}
}

// Every policy that may evict brings the key count down to the limit, and no further.
func TestEvictsDownToTheLimit(t *testing.T) {
	for _, p := range []Policy{AllKeysLRU, AllKeysLFU, AllKeysRandom, VolatileLRU, VolatileLFU, VolatileRandom, VolatileTTL} {
		t.Run(p.String(), func(t *testing.T) {
			w := newWorld(t)
			for i := range 400 {
				w.set(t, i%4, fmt.Sprint("k", i), epochMs+int64(1000+i)*1000)
			}
			w.limitKeys(300, p)
			if got := w.e.Perform(); got != OK {
				t.Fatalf("Perform: %v, want OK", got)
			}
			if w.keys() != 300 || w.e.Evicted() != 100 {
				t.Fatalf("%d keys left, %d evicted; want 300 and 100", w.keys(), w.e.Evicted())
			}
		})
	}
}

// volatile-* policies never take a key without an expire, and fail when only those are left.
func TestVolatileSparesPersistentKeys(t *testing.T) {
	for _, p := range []Policy{VolatileLRU, VolatileLFU, VolatileRandom, VolatileTTL} {
		t.Run(p.String(), func(t *testing.T) {
			w := newWorld(t)
			for i := range 100 {
				w.set(t, 0, fmt.Sprint("persistent", i), 0)
			}
			for i := range 20 {
				w.set(t, 1, fmt.Sprint("volatile", i), epochMs+int64(100+i)*1000)
			}
			w.limitKeys(90, p)
			if got := w.e.Perform(); got != Fail {
				t.Fatalf("Perform: %v, want Fail", got)
			}
			if w.ks.Keys(0) != 100 || w.ks.Keys(1) != 0 {
				t.Fatalf("persistent keys left %d (want 100), volatile %d (want 0)", w.ks.Keys(0), w.ks.Keys(1))
			}
		})
	}
}

// volatile-ttl takes the nearest expires of the whole server, whatever shard or database
// holds them.
func TestVolatileTTLTakesNearestAcrossShards(t *testing.T) {
	w := newWorld(t)
	order := rand.Perm(300)
	for _, i := range order {
		w.set(t, i%4, fmt.Sprint("k", i), epochMs+int64(i+1)*1000)
	}
	w.limitKeys(280, VolatileTTL)
	if got := w.e.Perform(); got != OK {
		t.Fatalf("Perform: %v", got)
	}
	for i := range 300 {
		if gone := !w.exists(i%4, fmt.Sprint("k", i)); gone != (i < 20) {
			t.Errorf("k%d (expires in %d s): gone %v, want %v", i, i+1, gone, i < 20)
		}
	}
}

// allkeys-lru keeps a key read recently while older ones go.
func TestLRUKeepsRecentlyRead(t *testing.T) {
	w := newWorld(t)
	w.limitKeys(1000, AllKeysLRU)
	w.set(t, 0, "hot", 0)
	for i := range 2000 {
		if i%100 == 0 {
			w.clock.Add(1000) // the LRU clock counts seconds
			if !w.read(0, "hot") {
				t.Fatalf("hot was evicted after %d writes", i)
			}
		}
		w.set(t, i%4, fmt.Sprint("k", i), 0)
		w.e.Perform()
	}
	if !w.exists(0, "hot") || w.keys() != 1000 {
		t.Fatalf("hot exists %v, keys %d; want true and 1000", w.exists(0, "hot"), w.keys())
	}
}

// allkeys-lfu keeps a key read often over keys read once.
func TestLFUKeepsFrequentlyRead(t *testing.T) {
	w := newWorld(t)
	w.limitKeys(1000, AllKeysLFU)
	w.set(t, 0, "hot", 0)
	for range 200 {
		w.read(0, "hot")
	}
	for i := range 2000 {
		w.set(t, i%4, fmt.Sprint("k", i), 0)
		w.e.Perform()
	}
	if !w.exists(0, "hot") {
		t.Fatal("the frequently read key was evicted")
	}
	sh := w.ks.Shard(w.ks.ShardFor([]byte("hot")))
	sh.Lock()
	h, _ := sh.LookupFlagsLocked(0, []byte("hot"), keyspace.LookupNoTouch)
	freq := w.ks.LFUDecayed(object.LRU(sh.Arena(), h))
	sh.Unlock()
	if freq <= keyspace.LFUInitVal {
		t.Fatalf("LFU counter after 200 reads: %d, want above %d", freq, keyspace.LFUInitVal)
	}
}

// A busy shard is skipped, not waited for: with every shard held elsewhere, Perform reports
// Running at once.
func TestBusyShardsAreNotWaitedFor(t *testing.T) {
	w := newWorld(t)
	for i := range 100 {
		w.set(t, 0, fmt.Sprint("k", i), epochMs+1e6)
	}
	w.limitKeys(50, AllKeysLRU)
	w.ks.LockAll()
	got := w.e.Perform()
	w.ks.UnlockAll()
	if got != Running {
		t.Fatalf("all shards busy: %v, want Running", got)
	}
	// The first call left the work to the background eviction, which may still hold the
	// evictor: until it lets go, Perform answers Running.
	deadline := time.Now().Add(10 * time.Second)
	got = w.e.Perform()
	for got == Running && time.Now().Before(deadline) {
		runtime.Gosched()
		got = w.e.Perform()
	}
	if got != OK || w.keys() != 50 {
		t.Fatalf("after release: %v with %d keys, want OK with 50", got, w.keys())
	}
}

func TestPool(t *testing.T) {
	var p pool
	for i := range 40 {
		idle := uint64((i * 7) % 40)
		p.offer(idle, 0, 0, []byte(fmt.Sprint("k", idle)))
	}
	if p.n != poolSize {
		t.Fatalf("pool holds %d, want %d", p.n, poolSize)
	}
	for want := 39; want >= 40-poolSize; want-- {
		c, ok := p.takeBest()
		if !ok || c.idle != uint64(want) || string(c.key) != fmt.Sprint("k", want) {
			t.Fatalf("took %d %q, want %d", c.idle, c.key, want)
		}
	}
	if _, ok := p.takeBest(); ok {
		t.Fatal("empty pool gave a candidate")
	}
}

func TestTimeLimit(t *testing.T) {
	for _, tc := range []struct {
		tenacity int64
		wantUs   int64
	}{{0, 0}, {1, 50}, {10, 500}, {11, 575}, {20, 2022}} {
		if got := timeLimit(tc.tenacity).Microseconds(); got != tc.wantUs {
			t.Errorf("tenacity %d: %d µs, want %d", tc.tenacity, got, tc.wantUs)
		}
	}
	if timeLimit(100) < 1<<62 {
		t.Error("tenacity 100 is not unlimited")
	}
}

// Timing is told of each eviction call that had work to do and of each key deleted.
func TestTiming(t *testing.T) {
	w := newWorld(t)
	for i := range 30 {
		w.set(t, 0, fmt.Sprint("k", i), 0)
	}
	var cycles, deletes int
	w.e.Timing = func(what Timed, d time.Duration) {
		if d < 0 {
			t.Errorf("negative duration %v", d)
		}
		switch what {
		case Cycle:
			cycles++
		case Delete:
			deletes++
		}
	}
	w.limitKeys(20, AllKeysRandom)
	if w.e.Perform() != OK || cycles != 1 || deletes != 10 {
		t.Fatalf("cycles %d, deletes %d; want 1 and 10", cycles, deletes)
	}
	if w.e.Perform() != OK || cycles != 1 {
		t.Fatalf("a call with nothing to evict was timed: cycles %d", cycles)
	}
}

// TestOnEvicted: every evicted key is reported once, after its shard is unlocked, for the
// random policies and the pool's alike.
func TestOnEvicted(t *testing.T) {
	for _, p := range []Policy{AllKeysRandom, AllKeysLRU} {
		w := newWorld(t)
		var got []string
		w.e.OnEvicted = func(db int, key []byte) {
			sh := w.ks.Shard(w.ks.ShardFor(key))
			if !sh.TryLock() {
				t.Errorf("OnEvicted(%q) with its shard locked", key)
			} else {
				sh.Unlock()
			}
			if w.exists(db, string(key)) {
				t.Errorf("evicted key %q still exists", key)
			}
			got = append(got, fmt.Sprintf("%d/%s", db, key))
		}
		for i := range 20 {
			w.set(t, i%4, fmt.Sprint("k", i), 0)
		}
		w.limitKeys(12, p)
		w.e.Perform()
		if int64(len(got)) != w.e.Evicted() || len(got) != 8 {
			t.Errorf("%v: %d keys reported, %d evicted, want 8", p, len(got), w.e.Evicted())
		}
	}
}
