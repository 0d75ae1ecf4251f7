package keyspace

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

func TestLazyExpire(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 2})
	set(t, k, 0, "k", "v", testEpoch+100)
	set(t, k, 0, "forever", "v", 0)
	if k.Expires(0) != 1 || k.Keys(0) != 2 {
		t.Fatalf("keys %d expires %d", k.Keys(0), k.Expires(0))
	}
	clk.advance(100) // now == expire: still there (Redis expires when now > when)
	if _, ok := get(k, 0, "k"); !ok {
		t.Fatal("key gone at its expire time")
	}
	clk.advance(1)
	if _, ok := get(k, 0, "k"); ok {
		t.Fatal("expired key found")
	}
	if k.ExpiredKeys() != 1 || k.Expires(0) != 0 || k.Keys(0) != 1 {
		t.Fatalf("after lazy expiry: expired_keys %d, expires %d, keys %d", k.ExpiredKeys(), k.Expires(0), k.Keys(0))
	}
	// LookupNoExpire sees an expired key without deleting it.
	set(t, k, 0, "k2", "v", clk.now()-1)
	s := k.Shard(k.ShardFor([]byte("k2")))
	s.Lock()
	_, ok := s.LookupFlagsLocked(0, []byte("k2"), LookupNoExpire|LookupNoTouch)
	s.Unlock()
	if !ok || k.Keys(0) != 2 {
		t.Fatal("LookupNoExpire")
	}
	checkAccounting(t, k)
}

func TestActiveExpire(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 4})
	for i := range 1000 {
		set(t, k, i%2, fmt.Sprint("long", i), "v", testEpoch+3_600_000)
	}
	for i := range 100 {
		set(t, k, i%3, fmt.Sprint("short", i), "v", testEpoch+50+int64(i))
	}
	if n, more := k.ActiveExpireCycle(1000); n != 0 || more {
		t.Fatalf("nothing is due yet: removed %d, more %v", n, more)
	}
	clk.advance(100) // keys with expire < now: short0..short49
	if n, more := k.ActiveExpireCycle(1000); n != 50 || more {
		t.Fatalf("removed %d (more %v), want 50", n, more)
	}
	clk.advance(100)
	// A small budget: due keys remain after one cycle, not after enough of them.
	n, more := k.ActiveExpireCycle(3)
	if !more || n > 3*k.NumShards() {
		t.Fatalf("budget 3: removed %d, more %v", n, more)
	}
	for more {
		var m int
		m, more = k.ActiveExpireCycle(3)
		n += m
	}
	if n != 50 || k.ExpiredKeys() != 100 || k.Keys(0)+k.Keys(1)+k.Keys(2) != 1000 {
		t.Fatalf("removed %d, expired_keys %d", n, k.ExpiredKeys())
	}
	for i := range 100 {
		if _, ok := get(k, i%3, fmt.Sprint("short", i)); ok {
			t.Fatalf("short%d still there", i)
		}
	}
	checkAccounting(t, k)
}

// TestActiveExpireIdleKey is issue 8's case on the keyspace alone: one PX 100 key among
// 1,000,000 keys with 1-hour TTLs, never read, is removed by the first active expiry cycle
// after its time, which touches only the due key (the index is ordered by time: nothing is
// sampled).
func TestActiveExpireIdleKey(t *testing.T) {
	n := 1_000_000
	if raceEnabled || testing.Short() {
		n = 50_000
	}
	k, clk := newTestKeyspace(t, Options{})
	var kb, vb []byte
	for i := range n {
		kb = fmt.Appendf(kb[:0], "key:%012d", i)
		vb = fmt.Appendf(vb[:0], "value:%d", i)
		s := k.Shard(k.ShardFor(kb))
		s.Lock()
		h, err := object.NewString(s.Arena(), kb, vb, testEpoch+3_600_000+int64(i%1000), object.WriteSet)
		if err == nil {
			err = s.InsertLocked(0, kb, h)
		}
		s.Unlock()
		if err != nil {
			t.Fatal(err)
		}
	}
	set(t, k, 0, "idle", "v", testEpoch+100)
	clk.advance(101)
	start := time.Now()
	removed, more := k.ActiveExpireCycle(20)
	took := time.Since(start)
	if removed != 1 || more {
		t.Fatalf("removed %d, more %v", removed, more)
	}
	if k.ExpiredKeys() != 1 || k.Keys(0) != int64(n) {
		t.Fatalf("expired_keys %d, keys %d", k.ExpiredKeys(), k.Keys(0))
	}
	t.Logf("%d keys with 1 h TTLs: the idle PX 100 key removed by one cycle over %d shards in %v",
		n, k.NumShards(), took)
}

func TestSetExpirePersist(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 1})
	s := k.Shard(0)
	key := []byte("key-of-18-bytes-xx")
	set(t, k, 0, string(key), string(make([]byte, 85)), 0) // 111 bytes: no room for an expire
	s.Lock()
	h0, _ := s.LookupLocked(0, key)
	if err := s.SetExpireLocked(0, key, testEpoch+1000); err != nil {
		t.Fatal(err)
	}
	h1, ok := s.LookupLocked(0, key)
	if !ok || h1 == h0 {
		t.Fatalf("record without an expire slot did not move (%v %v)", h0, h1)
	}
	if when, has := object.Expire(s.Arena(), h1); !has || when != testEpoch+1000 {
		t.Fatal("expire not set")
	}
	if err := s.SetExpireLocked(0, key, testEpoch+2000); err != nil { // in place now
		t.Fatal(err)
	}
	if err := s.SetExpireLocked(0, []byte("nope"), 1); err != ErrNoSuchKey {
		t.Fatalf("SetExpireLocked of a missing key: %v", err)
	}
	s.Unlock()
	if k.Expires(0) != 1 {
		t.Fatalf("expires %d", k.Expires(0))
	}
	clk.advance(1500) // past the first expire, not the second
	if n, _ := k.ActiveExpireCycle(10); n != 0 {
		t.Fatal("expired at its old time")
	}
	s.Lock()
	if !s.PersistLocked(0, key) || s.PersistLocked(0, key) {
		t.Fatal("PERSIST")
	}
	s.Unlock()
	clk.advance(1000)
	if n, _ := k.ActiveExpireCycle(10); n != 0 || k.Expires(0) != 0 {
		t.Fatal("persisted key expired")
	}
	if _, ok := get(k, 0, string(key)); !ok {
		t.Fatal("persisted key gone")
	}
	// SET over a key with an expire: the new record's expire replaces it in the index.
	set(t, k, 0, string(key), "v", clk.now()+10)
	set(t, k, 0, string(key), "w", 0)
	if k.Expires(0) != 0 {
		t.Fatal("SET without expire kept the TTL entry")
	}
	checkAccounting(t, k)
}

// TestKeyspaceScan: a full SCAN returns every key once on a quiet keyspace, skips (and
// deletes) expired ones, and with keys coming and going between calls still returns every key
// present throughout.
func TestKeyspaceScan(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 8})
	for i := range 3000 {
		set(t, k, 0, fmt.Sprint("s", i), "v", 0)
	}
	for i := range 100 {
		set(t, k, 0, fmt.Sprint("x", i), "v", testEpoch+5)
	}
	clk.advance(10)
	seen := map[string]int{}
	var cursor uint64
	calls := 0
	for {
		cursor = k.Scan(0, cursor, 10, func(s *Shard, h alloc.Handle) { seen[string(object.Key(s.Arena(), h))]++ })
		calls++
		if cursor == 0 {
			break
		}
		if shard := cursor >> scanShardShift; shard >= uint64(k.NumShards()) {
			t.Fatalf("cursor %#x names shard %d", cursor, shard)
		}
	}
	if len(seen) != 3000 {
		t.Fatalf("scan returned %d keys, want 3000 (expired ones skipped)", len(seen))
	}
	if k.Keys(0) != 3000 || k.ExpiredKeys() != 100 {
		t.Fatalf("expired keys met by SCAN not deleted: keys %d", k.Keys(0))
	}
	t.Logf("3000 keys in %d SCAN calls of COUNT 10", calls)

	// Keys come and go between calls, in waves that resize the shards' tables.
	rng := rand.New(rand.NewPCG(1, 1))
	clear(seen)
	var churn []int
	next := 0
	cursor = 0
	for calls = 0; ; calls++ {
		cursor = k.Scan(0, cursor, 20, func(s *Shard, h alloc.Handle) { seen[string(object.Key(s.Arena(), h))]++ })
		if cursor == 0 {
			break
		}
		target := 0
		if (calls/20)%2 == 0 {
			target = 40000
		}
		for range rng.IntN(1500) {
			if len(churn) < target {
				set(t, k, 0, fmt.Sprint("c", next), "v", 0)
				churn = append(churn, next)
				next++
			} else if len(churn) > target {
				i := rng.IntN(len(churn))
				del(k, 0, fmt.Sprint("c", churn[i]))
				churn[i] = churn[len(churn)-1]
				churn = churn[:len(churn)-1]
			}
		}
	}
	for i := range 3000 {
		if seen[fmt.Sprint("s", i)] == 0 {
			t.Fatalf("s%d, present for the whole scan, not returned", i)
		}
	}
	checkAccounting(t, k)
}

// TestShardModel runs random commands against one shard and a Go model with expire times,
// moving the clock and running active expiry, then checks both agree and the memory adds up.
func TestShardModel(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 1, Databases: 3})
	s := k.Shard(0)
	a := s.Arena()
	type entry struct {
		val    string
		expire int64
	}
	model := [3]map[string]entry{{}, {}, {}}
	live := func(db int, key string) (entry, bool) {
		e, ok := model[db][key]
		if ok && e.expire != 0 && expired(e.expire, clk.now()) {
			return entry{}, false
		}
		return e, ok
	}
	rng := rand.New(rand.NewPCG(11, 12))
	ops := 60000
	if raceEnabled {
		ops = 15000
	}
	for i := range ops {
		db := rng.IntN(3)
		key := fmt.Sprint("k", rng.IntN(3000))
		kb := []byte(key)
		s.Lock()
		switch op := rng.IntN(20); {
		case op < 6: // SET [PX]
			val := fmt.Sprint(rng.IntN(1000000))
			if rng.IntN(3) == 0 {
				val += string(make([]byte, rng.IntN(300)))
			}
			var exp int64
			if rng.IntN(2) == 0 {
				exp = clk.now() + 1 + rng.Int64N(2000)
			}
			h, err := object.NewString(a, kb, []byte(val), exp, object.WriteSet)
			if err != nil {
				t.Fatal(err)
			}
			s.LookupLocked(db, kb) // as SET does: an expired key is removed first
			if _, err := s.ReplaceLocked(db, kb, h); err != nil {
				t.Fatal(err)
			}
			model[db][key] = entry{val, exp}
		case op < 9: // DEL
			_, want := live(db, key)
			_, got := s.LookupLocked(db, kb)
			if got {
				s.DeleteLocked(db, kb)
			}
			if got != want {
				t.Fatalf("op %d: DEL %s: exists %v, model %v", i, key, got, want)
			}
			delete(model[db], key)
		case op < 11: // PEXPIRE / PERSIST
			if _, ok := s.LookupLocked(db, kb); !ok {
				delete(model[db], key)
				break
			}
			e := model[db][key]
			if rng.IntN(3) == 0 {
				s.PersistLocked(db, kb)
				e.expire = 0
			} else {
				e.expire = clk.now() + 1 + rng.Int64N(2000)
				if err := s.SetExpireLocked(db, kb, e.expire); err != nil {
					t.Fatal(err)
				}
			}
			model[db][key] = e
		case op < 12: // MOVE db → (db+1)%3
			to := (db + 1) % 3
			_, src := s.LookupLocked(db, kb)
			_, dst := s.LookupLocked(to, kb)
			if src && !dst {
				h, _ := s.UnlinkLocked(db, kb)
				if err := s.InsertLocked(to, kb, h); err != nil {
					t.Fatal(err)
				}
				model[to][key] = model[db][key]
				delete(model[db], key)
			}
		case op < 13:
			clk.advance(rng.Int64N(50))
		case op < 14:
			s.ActiveExpireLocked(clk.now(), rng.IntN(20))
		default: // GET
			want, wok := live(db, key)
			h, ok := s.LookupLocked(db, kb)
			if ok != wok || ok && string(object.Value(a, h, nil)) != want.val {
				t.Fatalf("op %d: GET %s db %d: %v, model %v %q", i, key, db, ok, wok, want.val)
			}
			if !ok {
				delete(model[db], key)
			} else if when, has := object.Expire(a, h); has != (want.expire != 0) || has && when != want.expire {
				t.Fatalf("op %d: %s: expire %d %v, model %d", i, key, when, has, want.expire)
			}
		}
		s.Unlock()
		if i%5000 == 0 {
			checkAccounting(t, k)
		}
	}
	// Everything due goes; what is left is exactly the model's live keys.
	clk.advance(1)
	for {
		if _, more := k.ActiveExpireCycle(100); !more {
			break
		}
	}
	for db := range 3 {
		n := 0
		for key := range model[db] {
			if _, ok := live(db, key); ok {
				n++
			}
		}
		if got := k.Keys(db); got != int64(n) {
			t.Fatalf("db %d: %d keys after active expiry, model %d", db, got, n)
		}
	}
	checkAccounting(t, k)
	k.LockAll()
	k.FlushAllLocked()
	k.UnlockAll()
	if k.UsedMemory() != 0 || k.Expires(0)+k.Expires(1)+k.Expires(2) != 0 {
		t.Fatalf("after FLUSHALL: %d bytes", k.UsedMemory())
	}
}
