package keyspace

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/object"
)

// testSetOps is a stand-in set type for these tests (the real one is package setval, above
// keyspace): a value in EncHashtable is an arena-rooted htable whose entries are one allocation
// each, a 4-byte length and the member, as the collection contract describes. EncListpack is
// one allocation whose first 4 bytes are its size.
var testSetOps = &object.CollectionOps{
	Free: func(a *alloc.Arena, enc object.Encoding, root alloc.Handle) {
		if enc != object.EncHashtable {
			a.Free(root, testBlobSize(a, root))
			return
		}
		t := htable.Open(a, testMember, root)
		t.Destroy(func(h alloc.Handle) { a.Free(h, 4+len(testMember(a, h))) })
	},
	AllocSize: func(a *alloc.Arena, enc object.Encoding, root alloc.Handle) int {
		if enc != object.EncHashtable {
			return alloc.UsableSize(testBlobSize(a, root))
		}
		t := htable.Open(a, testMember, root)
		n := int(t.Bytes())
		t.Each(func(h alloc.Handle) { n += alloc.UsableSize(4 + len(testMember(a, h))) })
		return n
	},
	Copy: func(src *alloc.Arena, enc object.Encoding, root alloc.Handle, dst *alloc.Arena) (alloc.Handle, error) {
		panic("not used")
	},
}

func testMember(a *alloc.Arena, h alloc.Handle) []byte {
	n := binary.LittleEndian.Uint32(a.Bytes(h, 4))
	return a.Bytes(h, 4+int(n))[4:]
}

func testBlobSize(a *alloc.Arena, h alloc.Handle) int {
	return int(binary.LittleEndian.Uint32(a.Bytes(h, 4)))
}

// registerTestSet installs testSetOps for TypeSet while the test runs.
func registerTestSet(t *testing.T) {
	object.RegisterCollection(object.TypeSet, testSetOps)
	t.Cleanup(func() { object.RegisterCollection(object.TypeSet, nil) })
}

// addTestSet stores under key a set of n members kept as a table (n > 0), or a one-allocation
// listpack stand-in (n == 0), with expire expireAt (0: none).
func addTestSet(t *testing.T, k *Keyspace, db int, key string, n int, expireAt int64) {
	t.Helper()
	s := k.Shard(k.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	a := s.Arena()
	enc, root := object.EncListpack, alloc.Handle(0)
	if n == 0 {
		root = a.Alloc(64)
		binary.LittleEndian.PutUint32(a.Bytes(root, 4), 64)
	} else {
		enc = object.EncHashtable
		var err error
		if root, err = htable.Create(a); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			m := fmt.Appendf(nil, "member:%010d", i)
			h := a.Alloc(4 + len(m))
			b := a.Bytes(h, 4+len(m))
			binary.LittleEndian.PutUint32(b, uint32(len(m)))
			copy(b[4:], m)
			tab := htable.Open(a, testMember, root)
			if err := tab.Insert(htable.Hash(m), h); err != nil {
				t.Fatal(err)
			}
		}
	}
	rec, err := object.NewCollection(a, []byte(key), object.TypeSet, enc, root, expireAt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplaceLocked(db, []byte(key), rec); err != nil {
		t.Fatal(err)
	}
}

// drainLazyFree steps the queue with budget until it is empty, checking that the charge only
// falls, and returns the number of steps.
func drainLazyFree(t *testing.T, k *Keyspace, budget int) int {
	t.Helper()
	steps := 0
	last := k.UsedMemory()
	for k.LazyFreeStep(budget) {
		steps++
		if used := k.UsedMemory(); used > last {
			t.Fatalf("step %d: used memory rose from %d to %d", steps, last, used)
		} else {
			last = used
		}
		if steps > 1_000_000 {
			t.Fatal("lazy free does not end")
		}
	}
	return steps
}

// TestLazyFreeUnlink: an async delete of a big set takes the key out at once, queues its value
// (pending 1) and frees only the record; steps free the rest a bounded amount at a time, and
// the charge returns exactly to what it was before the set was made. A set at the threshold,
// a one-allocation value and a sync delete free at once.
func TestLazyFreeUnlink(t *testing.T) {
	registerTestSet(t)
	k, _ := newTestKeyspace(t, Options{Shards: 4})
	set(t, k, 0, "other", "value", 0)
	base := k.UsedMemory()

	addTestSet(t, k, 0, "big", 20_000, 0)
	full := k.UsedMemory()
	s := k.Shard(k.ShardFor([]byte("big")))
	s.Lock()
	if !s.AsyncDeleteLocked(0, []byte("big")) {
		t.Fatal("big was not deleted")
	}
	if _, ok := s.LookupLocked(0, []byte("big")); ok {
		t.Fatal("big still found after the delete")
	}
	s.Unlock()
	if got := k.LazyFreePending(); got != 1 {
		t.Fatalf("pending %d after the delete, want 1", got)
	}
	// The record, and maybe a child bucket of the keyspace's table that the delete emptied.
	if used := k.UsedMemory(); used >= full || full-used > 128 {
		t.Fatalf("the delete freed %d bytes: want only the record's", full-used)
	}
	steps := drainLazyFree(t, k, 1000)
	if steps < 10 {
		t.Fatalf("20,000 members freed in %d steps of 1,000", steps)
	}
	if got, freed := k.LazyFreePending(), k.LazyFreed(); got != 0 || freed != 1 {
		t.Fatalf("after draining: pending %d freed %d, want 0 and 1", got, freed)
	}
	if used := k.UsedMemory(); used != base {
		t.Fatalf("used %d after lazy free, %d before the set", used, base)
	}

	// Not queued: at the threshold, one allocation, a sync delete.
	for _, c := range []struct {
		n     int
		async bool
	}{{LazyFreeThreshold, true}, {0, true}, {5000, false}} {
		addTestSet(t, k, 0, "s", c.n, 0)
		s := k.Shard(k.ShardFor([]byte("s")))
		s.Lock()
		if c.async {
			s.AsyncDeleteLocked(0, []byte("s"))
		} else {
			s.SyncDeleteLocked(0, []byte("s"))
		}
		s.Unlock()
		if k.LazyFreePending() != 0 || k.UsedMemory() != base {
			t.Fatalf("%d members, async %v: pending %d, used %d (want 0, %d)", c.n, c.async, k.LazyFreePending(), k.UsedMemory(), base)
		}
	}
	k.ResetLazyFreed()
	if k.LazyFreed() != 0 {
		t.Fatalf("lazyfreed %d after reset", k.LazyFreed())
	}
}

// TestLazyFreeServerDelAndExpire: with lazyfree-lazy-server-del an overwrite and DeleteLocked
// queue the old big value; with lazyfree-lazy-expire an expired big set is queued by the lookup
// that meets it and by active expiry; FLUSHALL ASYNC queues every big value of every database.
// Without the options all of them free at once.
func TestLazyFreeServerDelAndExpire(t *testing.T) {
	registerTestSet(t)
	k, clk := newTestKeyspace(t, Options{Shards: 2})
	base := k.UsedMemory()
	check := func(what string, pending int64) {
		t.Helper()
		if got := k.LazyFreePending(); got != pending {
			t.Fatalf("%s: pending %d, want %d", what, got, pending)
		}
		drainLazyFree(t, k, 500)
		if used := k.UsedMemory(); used != base {
			t.Fatalf("%s: used %d after draining, want %d", what, used, base)
		}
	}
	for _, lazy := range []bool{false, true} {
		k.SetLazyFree(LazyFreeOptions{ServerDel: lazy, Expire: lazy})
		want := int64(0)
		if lazy {
			want = 1
		}
		addTestSet(t, k, 0, "a", 1000, 0)
		addTestSet(t, k, 0, "a", 10, 0) // the overwrite
		s := k.Shard(k.ShardFor([]byte("a")))
		s.Lock()
		s.DeleteLocked(0, []byte("a"))
		s.Unlock()
		check("overwrite", want)

		addTestSet(t, k, 0, "b", 1000, 0)
		s = k.Shard(k.ShardFor([]byte("b")))
		s.Lock()
		s.DeleteLocked(0, []byte("b"))
		s.Unlock()
		check("DeleteLocked", want)

		addTestSet(t, k, 0, "c", 1000, testEpoch+10)
		addTestSet(t, k, 0, "d", 1000, testEpoch+10)
		clk.advance(20)
		if _, ok := get(k, 0, "c"); ok {
			t.Fatal("c did not expire")
		}
		if removed, _ := k.ActiveExpireCycle(100); removed != 1 {
			t.Fatalf("active expiry removed %d keys, want 1 (d)", removed)
		}
		check("expiry", 2*want)
	}
	k.SetLazyFree(LazyFreeOptions{})
	for db := range 3 {
		addTestSet(t, k, db, "x", 500, 0)
		addTestSet(t, k, db, "y", 10, 0)
	}
	set(t, k, 1, "str", "v", 0)
	k.LockAll()
	if n := k.FlushAllAsyncLocked(); n != 7 {
		t.Fatalf("FLUSHALL ASYNC removed %d keys, want 7", n)
	}
	k.UnlockAll()
	if k.Keys(0)+k.Keys(1)+k.Keys(2) != 0 {
		t.Fatal("keys left after FLUSHALL ASYNC")
	}
	check("FLUSHALL ASYNC", 3)
}

// countEncoder writes each record as its key and, for a test set kept as a table, its member
// count (read at once: the value may be freed right after).
type countEncoder struct{}

func (countEncoder) AppendSelect(dst []byte, db int) []byte { return dst }

func (countEncoder) AppendRecord(dst []byte, s *Shard, h alloc.Handle) []byte {
	a := s.Arena()
	n := int64(-1)
	if object.EncodingOf(a, h) == object.EncHashtable {
		_, root := object.Root(a, h)
		t := htable.Open(a, testMember, root)
		n = t.Len()
	}
	return fmt.Appendf(dst, "%s=%d;", object.Key(a, h), n)
}

// TestLazyFreeDuringSnapshot: a big set unlinked while a snapshot runs, before the walk reached
// it, is written as it was (all its members) before it leaves the table — even though its
// value is freed by lazy free steps before the walk ends.
func TestLazyFreeDuringSnapshot(t *testing.T) {
	registerTestSet(t)
	k, _ := newTestKeyspace(t, Options{Shards: 1})
	addTestSet(t, k, 0, "big", 3000, 0)
	addTestSet(t, k, 0, "other", 100, 0)
	k.LockAll()
	k.BeginSnapshotLocked(countEncoder{})
	k.UnlockAll()
	s := k.Shard(0)
	s.Lock()
	s.AsyncDeleteLocked(0, []byte("big"))
	s.Unlock()
	drainLazyFree(t, k, 100)
	var out []byte
	for done := false; !done; {
		s.Lock()
		out, _, done = s.SnapshotStepLocked(out, 10)
		s.Unlock()
	}
	if got := string(out); !strings.Contains(got, "big=3000;") || !strings.Contains(got, "other=100;") {
		t.Fatalf("snapshot %q: want big=3000 and other=100", got)
	}
}
