package keyspace

import (
	"testing"

	"github.com/kvserver/kvserver/object"
)

// block registers w on key of database db, as the pipeline does (under the key's shard lock).
func block(k *Keyspace, w *Waiter, db int, key string) {
	s := k.Shard(k.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	s.BlockLocked(w, db, []byte(key))
}

// unblock takes w off all its keys, shard by shard.
func unblock(k *Keyspace, w *Waiter) {
	for _, wk := range append([]WaitKey(nil), w.Keys()...) {
		s := k.Shard(wk.Shard)
		s.Lock()
		s.UnblockLocked(w)
		s.Unlock()
	}
	w.Forget()
}

// takeReady returns the ready keys of every shard.
func takeReady(k *Keyspace) []WaitKey {
	var out []WaitKey
	for i := range k.NumShards() {
		s := k.Shard(i)
		s.Lock()
		out = s.TakeReadyLocked(out)
		s.Unlock()
	}
	return out
}

func TestBlockingRegistry(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 4, Databases: 2})
	a := &Waiter{Type: object.TypeList}
	b := &Waiter{Type: object.TypeList}
	block(k, a, 0, "q")
	block(k, a, 0, "q") // twice: one registration
	block(k, a, 0, "other")
	block(k, b, 0, "q")
	if !k.Blocking() || k.BlockingKeys() != 2 {
		t.Fatalf("Blocking %v, keys %d; want true, 2", k.Blocking(), k.BlockingKeys())
	}
	if len(a.Keys()) != 2 {
		t.Fatalf("a is on %d keys, want 2", len(a.Keys()))
	}
	s := k.Shard(k.ShardFor([]byte("q")))
	s.Lock()
	got := s.WaitersLocked(0, "q")
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("waiters of q: %v, want [a b] in blocking order", got)
	}
	s.Unlock()

	// A write to another database, or an in-place change, signals nothing; adding the key does,
	// once however often it is written before the ready keys are taken.
	set(t, k, 1, "q", "x", 0)
	if r := takeReady(k); len(r) != 0 {
		t.Fatalf("ready after a write in another database: %v", r)
	}
	set(t, k, 0, "q", "x", 0)
	set(t, k, 0, "q", "y", 0)
	r := takeReady(k)
	if len(r) != 1 || r[0].DB != 0 || r[0].Key != "q" {
		t.Fatalf("ready keys %v, want [q in db 0]", r)
	}
	if r := takeReady(k); len(r) != 0 {
		t.Fatalf("ready keys taken twice: %v", r)
	}
	del(k, 0, "q")
	set(t, k, 0, "q", "z", 0)
	if r := takeReady(k); len(r) != 1 {
		t.Fatalf("after a delete and a new add: %v, want q ready again", r)
	}

	unblock(k, a)
	if len(a.Keys()) != 0 || k.BlockingKeys() != 1 {
		t.Fatalf("after a leaves: a keys %d, blocking keys %d; want 0, 1", len(a.Keys()), k.BlockingKeys())
	}
	unblock(k, b)
	if k.Blocking() || k.BlockingKeys() != 0 {
		t.Fatalf("after both leave: Blocking %v, keys %d", k.Blocking(), k.BlockingKeys())
	}
	set(t, k, 0, "other", "x", 0)
	if r := takeReady(k); len(r) != 0 {
		t.Fatalf("a key nobody waits on became ready: %v", r)
	}
}

// SWAPDB makes ready the waited keys that exist in either database after the swap (Redis's
// scanDatabaseForReadyKeys), and not the others.
func TestBlockingSwapDB(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 4, Databases: 2})
	w := &Waiter{Type: object.TypeString}
	block(k, w, 0, "there")
	block(k, w, 0, "missing")
	set(t, k, 1, "there", "x", 0)
	takeReady(k)
	k.LockAll()
	k.SwapDBLocked(0, 1)
	k.UnlockAll()
	r := takeReady(k)
	if len(r) != 1 || r[0].Key != "there" || r[0].DB != 0 {
		t.Fatalf("ready after SWAPDB: %v, want [there in db 0]", r)
	}
	unblock(k, w)
}
