package keyspace

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// watch makes w watch key of database db, as WATCH does (under the key's shard's lock).
func watch(k *Keyspace, w *Watcher, db int, key string) {
	s := k.Shard(k.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	s.WatchLocked(w, db, []byte(key))
}

// execFails reports what EXEC would decide for w: dirty, or a key expired since WATCH.
func execFails(k *Keyspace, w *Watcher) bool {
	k.LockAll()
	defer k.UnlockAll()
	return w.Dirty() || k.WatchedExpiredLocked(w)
}

// watchedCount is the number of watches registered in all shards' tables.
func watchedCount(k *Keyspace) int {
	n := 0
	for i := range k.NumShards() {
		n += int(k.Shard(i).watch.n.Load()) // as WatchedKeys
	}
	return n
}

func TestWatchWritePoints(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 4, Databases: 4})
	cases := []struct {
		name  string
		setup func()
		touch func()
		fails bool
	}{
		{"nothing", nil, func() {}, false},
		{"another key", nil, func() { set(t, k, 0, "other", "x", 0) }, false},
		{"same key, other database", nil, func() { set(t, k, 1, "k", "x", 0) }, false},
		{"replace", nil, func() { set(t, k, 0, "k", "x", 0) }, true},
		{"delete", nil, func() { del(k, 0, "k") }, true},
		{"delete a missing key", func() { del(k, 0, "k") }, func() { del(k, 0, "k") }, false},
		{"insert a missing key", func() { del(k, 0, "k") }, func() { set(t, k, 0, "k", "v", 0) }, true},
		{"update in place", nil, func() {
			s := k.Shard(k.ShardFor([]byte("k")))
			s.Lock()
			h, _ := s.LookupLocked(0, []byte("k"))
			s.UpdateLocked(0, []byte("k"), h, h)
			s.Unlock()
		}, true},
		{"set expire", nil, func() {
			s := k.Shard(k.ShardFor([]byte("k")))
			s.Lock()
			_ = s.SetExpireLocked(0, []byte("k"), testEpoch+100_000)
			s.Unlock()
		}, true},
		{"persist", func() { set(t, k, 0, "k", "v", testEpoch+100_000) }, func() {
			s := k.Shard(k.ShardFor([]byte("k")))
			s.Lock()
			s.PersistLocked(0, []byte("k"))
			s.Unlock()
		}, true},
		{"flush the database", nil, func() { k.LockAll(); k.FlushDBLocked(0); k.UnlockAll() }, true},
		{"flush another database", nil, func() { k.LockAll(); k.FlushDBLocked(2); k.UnlockAll() }, false},
		{"flush with the key missing", func() { del(k, 0, "k") }, func() { k.LockAll(); k.FlushDBLocked(0); k.UnlockAll() }, false},
		{"swap with a database holding the key", func() { del(k, 0, "k"); set(t, k, 1, "k", "one", 0) },
			func() { k.LockAll(); k.SwapDBLocked(0, 1); k.UnlockAll() }, true},
		{"swap, the key in neither", func() { del(k, 0, "k") },
			func() { k.LockAll(); k.SwapDBLocked(0, 1); k.UnlockAll() }, false},
		{"lazy expiry", func() { set(t, k, 0, "k", "v", testEpoch+10) }, func() {
			clk.advance(20)
			get(k, 0, "k")
		}, true},
		{"active expiry", func() { set(t, k, 0, "k", "v", testEpoch+10) }, func() {
			clk.advance(20)
			k.ActiveExpireCycle(100)
		}, true},
		{"expiry by RANDOMKEY", func() { set(t, k, 0, "k", "v", testEpoch+10) }, func() {
			clk.advance(20)
			s := k.Shard(k.ShardFor([]byte("k")))
			s.Lock()
			for range 10 {
				s.RandomKeyLocked(0) // draws k, or another key: then again
			}
			s.Unlock()
		}, true},
		{"expiry by SCAN", func() { set(t, k, 0, "k", "v", testEpoch+10) }, func() {
			clk.advance(20)
			for cursor := uint64(0); ; {
				cursor = k.Scan(0, cursor, 100, func(*Shard, alloc.Handle) {})
				if cursor == 0 {
					break
				}
			}
		}, true},
		{"expired at EXEC, not deleted", func() { set(t, k, 0, "k", "v", testEpoch+10) }, func() { clk.advance(20) }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk.ms.Store(testEpoch)
			k.LockAll()
			for db := range 4 {
				k.FlushDBLocked(db)
			}
			k.UnlockAll()
			set(t, k, 0, "k", "v", 0)
			if tc.setup != nil {
				tc.setup()
			}
			var w Watcher
			watch(k, &w, 0, "k")
			watch(k, &w, 0, "k") // twice: one watch
			if w.Len() != 1 || watchedCount(k) != 1 {
				t.Fatalf("watching %d keys, %d in the tables", w.Len(), watchedCount(k))
			}
			tc.touch()
			if got := execFails(k, &w); got != tc.fails {
				t.Fatalf("EXEC fails: %v, want %v", got, tc.fails)
			}
			k.Unwatch(&w)
			if w.Len() != 0 || w.Dirty() || watchedCount(k) != 0 {
				t.Fatalf("after Unwatch: %d keys, dirty %v, %d in the tables", w.Len(), w.Dirty(), watchedCount(k))
			}
		})
	}
}

// TestWatchAlreadyExpired: a key already expired when watched is no change when expiry deletes
// it (Redis 7's watchedKey.expired), but is one when it is written.
func TestWatchAlreadyExpired(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 2, Databases: 1})
	set(t, k, 0, "k", "v", testEpoch+10)
	clk.advance(20)
	var w Watcher
	watch(k, &w, 0, "k")
	if execFails(k, &w) {
		t.Fatal("a key expired before WATCH fails the EXEC")
	}
	get(k, 0, "k") // lazy expiry deletes it
	if execFails(k, &w) {
		t.Fatal("deleting a key expired before WATCH fails the EXEC")
	}
	set(t, k, 0, "k", "new", 0)
	if !execFails(k, &w) {
		t.Fatal("writing the key did not fail the EXEC")
	}
	k.Unwatch(&w)
}

// TestWatchManyWatchers: every watcher of a key is marked; unwatching one leaves the others.
func TestWatchManyWatchers(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 2, Databases: 1})
	ws := make([]Watcher, 5)
	for i := range ws {
		watch(k, &ws[i], 0, "k")
		watch(k, &ws[i], 0, "other")
	}
	k.Unwatch(&ws[0])
	set(t, k, 0, "k", "v", 0)
	if ws[0].Dirty() {
		t.Fatal("an unwatched connection was marked")
	}
	for i := 1; i < len(ws); i++ {
		if !ws[i].Dirty() {
			t.Fatalf("watcher %d not marked", i)
		}
		k.Unwatch(&ws[i])
	}
	if watchedCount(k) != 0 {
		t.Fatalf("%d watches left", watchedCount(k))
	}
	var shards []int
	var w Watcher
	watch(k, &w, 0, "a")
	watch(k, &w, 0, "b")
	shards = w.AppendShards(shards)
	if len(shards) != 2 || shards[0] != k.ShardFor([]byte("a")) || shards[1] != k.ShardFor([]byte("b")) {
		t.Fatalf("AppendShards = %v", shards)
	}
	k.Unwatch(&w)
}

// BenchmarkSetWatched is SetOverwrite's write with a watched key elsewhere in the shard: the
// write point's table lookup (the unwatched case is BenchmarkSetOverwrite).
func BenchmarkSetWatched(b *testing.B) {
	k, _ := newTestKeyspace(b, Options{Shards: 1, Databases: 1})
	var w Watcher
	watch(k, &w, 0, "watched")
	key, val := []byte("key"), []byte("value")
	b.ReportAllocs()
	for b.Loop() {
		if err := setString(k, key, val); err != nil {
			b.Fatal(err)
		}
	}
	k.Unwatch(&w)
}

// BenchmarkSetSmall is SET over the 1,000 keys of a one-shard keyspace (cache-resident): the
// write path itself, for A/B comparisons of the write points (nothing watched).
func BenchmarkSetSmall(b *testing.B) {
	k, _ := newTestKeyspace(b, Options{Shards: 1, Databases: 1})
	var kb, vb []byte
	for i := range 1000 {
		kb, vb = keyValue(kb, vb, i)
		if err := setString(k, kb, vb); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		kb, vb = keyValue(kb, vb, i%1000)
		i += 7
		if err := setString(k, kb, vb); err != nil {
			b.Fatal(err)
		}
	}
}
