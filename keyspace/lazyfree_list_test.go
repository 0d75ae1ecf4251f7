package keyspace

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
)

// TestLazyFreeList: an async delete of a list of more than LazyFreeThreshold quicklist nodes
// queues it (Redis's lazyfreeGetFreeEffort counts a quicklist's nodes), steps free it node by
// node, and the charge returns exactly to what it was; a list of fewer nodes is freed at once.
func TestLazyFreeList(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 4})
	set(t, k, 0, "other", "value", 0)
	base := k.UsedMemory()
	addList := func(key string, n int) {
		t.Helper()
		s := k.Shard(k.ShardFor([]byte(key)))
		s.Lock()
		defer s.Unlock()
		a := s.Arena()
		rec, err := listval.New(a, []byte(key), 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if err := listval.PushTail(a, rec, fmt.Appendf(nil, "element:%0200d", i)); err != nil {
				t.Fatal(err)
			}
		}
		if object.EncodingOf(a, rec) != object.EncQuicklist {
			t.Fatalf("%s: encoding %s, want quicklist", key, object.EncodingOf(a, rec).Name())
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
	// 8 KB nodes of 208-byte entries: about 38 a node, so 10,000 make some 260 nodes.
	addList("big", 10_000)
	unlink("big")
	if got := k.LazyFreePending(); got != 1 {
		t.Fatalf("pending %d after UNLINK of a 260-node list, want 1", got)
	}
	if steps := drainLazyFree(t, k, 64); steps < 3 {
		t.Fatalf("260 nodes freed in %d steps of 64", steps)
	}
	if used := k.UsedMemory(); used != base {
		t.Fatalf("used %d after lazy free, %d before the list", used, base)
	}
	addList("small", 1000) // about 27 nodes: under the threshold
	unlink("small")
	if k.LazyFreePending() != 0 || k.UsedMemory() != base {
		t.Fatalf("small list: pending %d, used %d (want 0, %d)", k.LazyFreePending(), k.UsedMemory(), base)
	}
}
