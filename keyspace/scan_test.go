package keyspace

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// TestScanCursorHighBits: the bits of a cursor above the shard count are ignored, as Redis's
// dictScan ignores those above its table's mask. 2^63 scans like 0; 2^64-1 visits the last
// bucket of the last shard only and ends; a cursor of the last shard with bits above the shard
// count set scans as that shard.
func TestScanCursorHighBits(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 16})
	for i := range 2000 {
		set(t, k, 0, fmt.Sprint("key:", i), "v", 0)
	}
	scanKeys := func(cursor uint64, count int) (uint64, map[string]bool) {
		seen := map[string]bool{}
		next := k.Scan(0, cursor, count, func(s *Shard, h alloc.Handle) { seen[string(object.Key(s.Arena(), h))] = true })
		return next, seen
	}
	if next, seen := scanKeys(1<<63, 1<<20); next != 0 || len(seen) != 2000 {
		t.Errorf("SCAN 2^63: cursor %d, %d keys; want 0 and all 2000", next, len(seen))
	}
	last := k.Shard(15)
	var want []string
	last.Lock()
	d := last.db(0)
	if next := d.keys.Scan(1<<scanShardShift-1, func(h alloc.Handle) { want = append(want, string(object.Key(last.Arena(), h))) }); next != 0 {
		t.Fatalf("the last shard's last bucket is followed by cursor %#x", next)
	}
	last.Unlock()
	next, seen := scanKeys(^uint64(0), 1)
	if next != 0 || len(seen) != len(want) {
		t.Fatalf("SCAN 2^64-1: cursor %d, keys %v; want 0 and %v", next, seen, want)
	}
	for _, key := range want {
		if !seen[key] {
			t.Errorf("SCAN 2^64-1 missed %q of the last bucket", key)
		}
	}
	// Shard 15 with bit 63 set: the same as shard 15's cursor 0 — its keys, then cursor 0.
	n := 0
	for cursor := uint64(1<<63 | 15<<scanShardShift); ; {
		var seen map[string]bool
		cursor, seen = scanKeys(cursor, 1<<20)
		n += len(seen)
		if cursor == 0 {
			break
		}
	}
	if want := k.Shard(15).db(0).keys.Len(); int64(n) != want {
		t.Errorf("scan of shard 15 with bit 63 set: %d keys, want %d", n, want)
	}
}

// TestEachLockedKeepsExpired: EachLocked returns keys whose time has passed and removes none.
func TestEachLockedKeepsExpired(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 1, Databases: 2})
	set(t, k, 0, "a", "1", 0)
	set(t, k, 0, "b", "2", testEpoch+10)
	set(t, k, 1, "c", "3", 0)
	clk.advance(100)
	s := k.Shard(0)
	s.Lock()
	defer s.Unlock()
	var got []string
	s.EachLocked(0, func(h alloc.Handle) { got = append(got, string(object.Key(s.Arena(), h))) })
	slices.Sort(got)
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("db 0: %v", got)
	}
	if n := s.DBSizeLocked(0); n != 2 {
		t.Fatalf("EachLocked removed a key: %d left", n)
	}
}
