package keyspace

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// fakeClock is the tests' clock: it moves only when told to.
type fakeClock struct{ ms atomic.Int64 }

func (c *fakeClock) now() int64       { return c.ms.Load() }
func (c *fakeClock) advance(ms int64) { c.ms.Add(ms) }

const testEpoch = 1_700_000_000_000 // unix ms

func newTestKeyspace(t testing.TB, opts Options) (*Keyspace, *fakeClock) {
	t.Helper()
	clk := &fakeClock{}
	clk.ms.Store(testEpoch)
	opts.Clock = clk.now
	if opts.ArenaReserve == 0 {
		opts.ArenaReserve = 1 << 30
	}
	k, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k, clk
}

// set stores a string (expireAt 0: none) as SET does.
func set(t testing.TB, k *Keyspace, db int, key, val string, expireAt int64) {
	t.Helper()
	s := k.Shard(k.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	h, err := object.NewString(s.Arena(), []byte(key), []byte(val), expireAt, object.WriteSet)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplaceLocked(db, []byte(key), h); err != nil {
		t.Fatal(err)
	}
}

// get is GET: the value copied under the lock.
func get(k *Keyspace, db int, key string) (string, bool) {
	s := k.Shard(k.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	h, ok := s.LookupLocked(db, []byte(key))
	if !ok {
		return "", false
	}
	return string(object.Value(s.Arena(), h, nil)), true
}

func del(k *Keyspace, db int, key string) bool {
	s := k.Shard(k.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	return s.DeleteLocked(db, []byte(key))
}

// checkAccounting: every byte charged to the shards is a record, a table or a TTL index.
func checkAccounting(t testing.TB, k *Keyspace) {
	t.Helper()
	k.LockAll()
	defer k.UnlockAll()
	for i := range k.NumShards() {
		s := k.Shard(i)
		var want int64
		for db := range k.Databases() {
			tab, exp := s.OverheadLocked(db)
			want += tab + exp
			d := s.db(db)
			if err := d.keys.Check(); err != nil {
				t.Fatalf("shard %d db %d: %v", i, db, err)
			}
			if _, err := d.expires.check(); err != nil {
				t.Fatalf("shard %d db %d: TTL index: %v", i, db, err)
			}
			var withExpire int64
			var cursor uint64
			for {
				cursor = d.keys.Scan(cursor, func(h alloc.Handle) {
					want += int64(object.MemoryUsage(s.Arena(), h))
					if when, has := object.Expire(s.Arena(), h); has {
						withExpire++
						hash := Hash(object.Key(s.Arena(), h))
						if !d.expires.has(ttlEntry{when, hash}) {
							t.Fatalf("key %q: expire missing from the TTL index", object.Key(s.Arena(), h))
						}
					}
				})
				if cursor == 0 {
					break
				}
			}
			if withExpire != d.expires.len() {
				t.Fatalf("shard %d db %d: %d keys with an expire, %d TTL entries", i, db, withExpire, d.expires.len())
			}
		}
		if used := s.Arena().Used(); used != want {
			t.Fatalf("shard %d: arena uses %d bytes, records + tables + indexes %d", i, used, want)
		}
	}
}

func TestNewOptions(t *testing.T) {
	for _, n := range []int{3, -1, MaxShards * 2} {
		if _, err := New(Options{Shards: n, ArenaReserve: 1 << 30}); err == nil {
			t.Errorf("%d shards accepted", n)
		}
	}
	k, _ := newTestKeyspace(t, Options{})
	if k.NumShards() != DefaultShards() || k.NumShards() < MinShards || k.Databases() != DefaultDatabases {
		t.Fatalf("defaults: %d shards, %d databases", k.NumShards(), k.Databases())
	}
}

func TestKeyspaceBasic(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 4})
	for i := range 2000 {
		set(t, k, i%3, fmt.Sprint("k", i), fmt.Sprint("value-", i), 0)
	}
	for i := range 2000 {
		if v, ok := get(k, i%3, fmt.Sprint("k", i)); !ok || v != fmt.Sprint("value-", i) {
			t.Fatalf("k%d: %q %v", i, v, ok)
		}
		if _, ok := get(k, (i+1)%3, fmt.Sprint("k", i)); ok {
			t.Fatalf("k%d found in another database", i)
		}
	}
	if n := k.Keys(0) + k.Keys(1) + k.Keys(2); n != 2000 {
		t.Fatalf("Keys: %d", n)
	}
	// Overwrite with values of every encoding (int, embstr, raw).
	for i := 0; i < 2000; i += 2 {
		set(t, k, i%3, fmt.Sprint("k", i), []string{"12345", "short", string(make([]byte, 500))}[i%3], 0)
	}
	for i := 0; i < 2000; i += 4 {
		if !del(k, i%3, fmt.Sprint("k", i)) {
			t.Fatalf("k%d not deleted", i)
		}
		if del(k, i%3, fmt.Sprint("k", i)) {
			t.Fatalf("k%d deleted twice", i)
		}
	}
	if n := k.Keys(0) + k.Keys(1) + k.Keys(2); n != 1500 {
		t.Fatalf("Keys after deletes: %d", n)
	}
	checkAccounting(t, k)
	k.LockAll()
	n := k.FlushAllLocked()
	k.UnlockAll()
	if n != 1500 {
		t.Fatalf("FLUSHALL removed %d keys", n)
	}
	if used := k.UsedMemory(); used != 0 {
		t.Fatalf("after FLUSHALL the shards hold %d bytes", used)
	}
}

func TestInsertUpdateUnlink(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 1})
	s := k.Shard(0)
	s.Lock()
	defer s.Unlock()
	a := s.Arena()
	h1, _ := object.NewString(a, []byte("x"), []byte("one"), 0, object.WriteSet)
	if err := s.InsertLocked(0, []byte("x"), h1); err != nil {
		t.Fatal(err)
	}
	h2, _ := object.NewString(a, []byte("x"), []byte("two"), 0, object.WriteSet)
	if err := s.InsertLocked(0, []byte("x"), h2); err != ErrKeyExists {
		t.Fatalf("second insert: %v", err)
	}
	object.Free(a, h2)
	// APPEND moves the record: UpdateLocked points the table at the new one.
	h3, _, err := object.Append(a, h1, []byte("-more"))
	if err != nil {
		t.Fatal(err)
	}
	if !s.UpdateLocked(0, []byte("x"), h1, h3) {
		t.Fatal("update: key missing")
	}
	if h, ok := s.LookupLocked(0, []byte("x")); !ok || string(object.Value(a, h, nil)) != "one-more" {
		t.Fatal("lookup after append")
	}
	// MOVE: unlink from db 0, insert into db 5.
	h, ok := s.UnlinkLocked(0, []byte("x"))
	if !ok {
		t.Fatal("unlink")
	}
	if err := s.InsertLocked(5, []byte("x"), h); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.LookupLocked(0, []byte("x")); ok {
		t.Fatal("moved key still in db 0")
	}
	if s.DBSizeLocked(5) != 1 || s.DBSizeLocked(0) != 0 {
		t.Fatal("DBSIZE after move")
	}
}

func TestSwapDB(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 4})
	for i := range 100 {
		set(t, k, 1, fmt.Sprint("a", i), "in-1", 0)
		set(t, k, 2, fmt.Sprint("b", i), "in-2", testEpoch+1000)
	}
	k.LockAll()
	k.SwapDBLocked(1, 2)
	k.UnlockAll()
	if k.Keys(1) != 100 || k.Expires(1) != 100 || k.Expires(2) != 0 {
		t.Fatalf("after SWAPDB: keys(1)=%d expires(1)=%d expires(2)=%d", k.Keys(1), k.Expires(1), k.Expires(2))
	}
	if v, ok := get(k, 2, "a7"); !ok || v != "in-1" {
		t.Fatal("a7 not in db 2 after SWAPDB")
	}
	clk.advance(1001)
	if n, _ := k.ActiveExpireCycle(1000); n != 100 {
		t.Fatalf("active expiry after SWAPDB removed %d keys", n)
	}
	if k.Keys(1) != 0 {
		t.Fatal("db 1 (formerly 2) not expired")
	}
	checkAccounting(t, k)
}

func TestLockShards(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 16})
	buf := make([]int, 0, 8)
	keys := [][]byte{[]byte("a"), []byte("b"), []byte("a"), []byte("c"), []byte("b")}
	idx := k.ShardsFor(buf, keys...)
	for i := 1; i < len(idx); i++ {
		if idx[i] <= idx[i-1] {
			t.Fatalf("shards not sorted and unique: %v", idx)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		idx := k.LockShards(append(buf[:0], 9, 3, 9, 1, 3))
		if len(idx) != 3 || idx[0] != 1 || idx[1] != 3 || idx[2] != 9 {
			t.Fatalf("LockShards: %v", idx)
		}
		k.UnlockShards(idx)
	})
	if allocs != 0 {
		t.Fatalf("LockShards allocates %.0f times", allocs)
	}
}

// TestConcurrentTransfers: goroutines move units between keys of different shards, each
// transfer locking both shards (LockShards); the total never changes and nothing deadlocks.
// Under -race this also checks the lock discipline of the whole path.
func TestConcurrentTransfers(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 8})
	const nkeys, perKey = 64, 1000
	keys := make([][]byte, nkeys)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "acct:%d", i)
		set(t, k, 0, string(keys[i]), fmt.Sprint(perKey), 0)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]int, 0, 2)
			for i := range 2000 {
				from, to := keys[(g*7+i)%nkeys], keys[(g*13+i*5+1)%nkeys]
				if string(from) == string(to) {
					continue
				}
				idx := k.LockShards(append(buf[:0], k.ShardFor(from), k.ShardFor(to)))
				sf, st := k.Shard(k.ShardFor(from)), k.Shard(k.ShardFor(to))
				hf, _ := sf.LookupLocked(0, from)
				ht, _ := st.LookupLocked(0, to)
				vf, _ := object.IntValue(sf.Arena(), hf)
				vt, _ := object.IntValue(st.Arena(), ht)
				nf, _ := object.SetInt(sf.Arena(), hf, vf-1)
				sf.UpdateLocked(0, from, hf, nf)
				nt, _ := object.SetInt(st.Arena(), ht, vt+1)
				st.UpdateLocked(0, to, ht, nt)
				k.UnlockShards(idx)
			}
		}()
	}
	// Readers sum everything under all locks meanwhile.
	for range 20 {
		k.LockAll()
		var sum int64
		for _, key := range keys {
			s := k.Shard(k.ShardFor(key))
			h, _ := s.LookupLocked(0, key)
			v, _ := object.IntValue(s.Arena(), h)
			sum += v
		}
		k.UnlockAll()
		if sum != nkeys*perKey {
			t.Fatalf("sum %d, want %d", sum, nkeys*perKey)
		}
	}
	wg.Wait()
	checkAccounting(t, k)
}

func TestRandomKey(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 4})
	if k.RandomKey(0, func(*Shard, alloc.Handle) {}) {
		t.Fatal("random key of an empty database")
	}
	seen := map[string]int{}
	for i := range 50 {
		set(t, k, 0, fmt.Sprint("live", i), "v", 0)
		set(t, k, 0, fmt.Sprint("dying", i), "v", testEpoch+10)
	}
	clk.advance(11)
	for range 2000 {
		if !k.RandomKey(0, func(s *Shard, h alloc.Handle) { seen[string(object.Key(s.Arena(), h))]++ }) {
			t.Fatal("no random key")
		}
	}
	for key := range seen {
		if key[:4] != "live" {
			t.Fatalf("RANDOMKEY returned expired key %q", key)
		}
	}
	if len(seen) < 45 {
		t.Fatalf("2000 draws saw only %d of 50 keys", len(seen))
	}
	if k.Keys(0) != 50 {
		// Every expired key drawn was deleted; the rest remain until expiry finds them.
		if n, _ := k.ActiveExpireCycle(100); k.Keys(0) != 50 {
			t.Fatalf("%d keys left after active expiry removed %d", k.Keys(0), n)
		}
	}
	checkAccounting(t, k)
}

// TestLRUClockCached: until TickLRUClock the LRU clock follows the clock; afterwards it is the
// value of the last tick, as Redis's cached server.lruclock.
func TestLRUClockCached(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 1})
	start := k.LRUClock()
	clk.ms.Add(5000)
	if got := k.LRUClock(); got != start+5 {
		t.Fatalf("before any tick: LRU clock %d, want %d", got, start+5)
	}
	k.TickLRUClock()
	clk.ms.Add(3000)
	if got := k.LRUClock(); got != start+5 {
		t.Fatalf("after a tick, the clock moved on: LRU clock %d, want the tick's %d", got, start+5)
	}
	k.TickLRUClock()
	if got := k.LRUClock(); got != start+8 {
		t.Fatalf("after the next tick: LRU clock %d, want %d", got, start+8)
	}
}
