package keyspace

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/zsetval"
)

// TestLazyFreeZset: an async delete of a sorted set kept as a skiplist of more than
// LazyFreeThreshold members queues it (its members are its free effort), steps free it
// (zsetval.FreeStep: the table, then the index with the entries), and the charge returns
// exactly to what it was; a listpack or a small skiplist is freed at once.
func TestLazyFreeZset(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 4})
	set(t, k, 0, "other", "value", 0)
	base := k.UsedMemory()
	addZset := func(key string, n int, enc object.Encoding) {
		t.Helper()
		s := k.Shard(k.ShardFor([]byte(key)))
		s.Lock()
		defer s.Unlock()
		a := s.Arena()
		rec, err := zsetval.New(a, []byte(key), n, 20, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if _, _, err := zsetval.Add(a, rec, fmt.Appendf(nil, "member:%d", i), float64(i), 0); err != nil {
				t.Fatal(err)
			}
		}
		if got := object.EncodingOf(a, rec); got != enc {
			t.Fatalf("%s: encoding %s, want %s", key, got.Name(), enc.Name())
		}
		if err := s.InsertLocked(0, []byte(key), rec); err != nil {
			t.Fatal(err)
		}
	}
	unlink := func(key string) {
		s := k.Shard(k.ShardFor([]byte(key)))
		s.Lock()
		defer s.Unlock()
		if !s.AsyncDeleteLocked(0, []byte(key)) {
			t.Fatalf("%s was not deleted", key)
		}
	}
	addZset("big", 10_000, object.EncSkiplist)
	unlink("big")
	if got := k.LazyFreePending(); got != 1 {
		t.Fatalf("pending %d after UNLINK of a 10,000-member skiplist, want 1", got)
	}
	if steps := drainLazyFree(t, k, 64); steps < 10 {
		t.Fatalf("10,000 members freed in %d steps of 64", steps)
	}
	if used := k.UsedMemory(); used != base {
		t.Fatalf("used %d after lazy free, %d before the set", used, base)
	}
	for _, c := range []struct {
		n   int
		enc object.Encoding
	}{{100, object.EncListpack}, {129, object.EncSkiplist}} {
		addZset("small", c.n, c.enc)
		unlink("small")
		if c.n <= LazyFreeThreshold || c.enc == object.EncListpack {
			if k.LazyFreePending() != 0 || k.UsedMemory() != base {
				t.Fatalf("%d members: pending %d, used %d (want 0, %d)", c.n, k.LazyFreePending(), k.UsedMemory(), base)
			}
		}
		drainLazyFree(t, k, 64)
		if k.UsedMemory() != base {
			t.Fatalf("%d members: used %d, want %d", c.n, k.UsedMemory(), base)
		}
	}
}
