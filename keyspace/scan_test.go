package keyspace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// TestTableScanUnderResize is the SCAN guarantee as a property: keys present for a whole scan
// are all returned, while between the scan's calls other keys come and go in waves big enough
// to make the table grow and shrink several times (and calls land in every resize phase).
func TestTableScanUnderResize(t *testing.T) {
	zeroingCalls := 0
	seeds := uint64(8)
	if raceEnabled {
		seeds = 3
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			th := newTableHarness(t)
			rng := rand.New(rand.NewPCG(seed, 99))
			const stable = 1500
			for i := range stable {
				th.insert(key(i))
			}
			var churn []int
			nextChurn := stable
			var sizes []uint64
			phases := map[string]int{}
			seen := map[string]bool{}
			var cursor uint64
			for calls := 0; ; calls++ {
				if calls > 1_000_000 {
					t.Fatal("scan does not end")
				}
				cursor = th.tab.scan(cursor, func(h alloc.Handle) { seen[string(testKey(th.a, h))] = true })
				if cursor == 0 {
					break
				}
				// Waves: the churn target swings between 0 and 30,000 keys every 30 calls.
				target := 0
				if (calls/30)%2 == 0 {
					target = 30000
				}
				// Mostly a few operations (so that calls land inside the short zeroing phase),
				// sometimes many.
				ops := rng.IntN(4)
				if rng.IntN(3) == 0 {
					ops = rng.IntN(2000)
				}
				for range ops {
					if len(churn) < target {
						th.insert(key(nextChurn))
						churn = append(churn, nextChurn)
						nextChurn++
					} else if len(churn) > target {
						i := rng.IntN(len(churn))
						th.delete(key(churn[i]))
						churn[i] = churn[len(churn)-1]
						churn = churn[:len(churn)-1]
					}
				}
				switch {
				case !th.tab.resizing():
					phases["idle"]++
				case th.tab.moving():
					phases["moving"]++
				default:
					phases["zeroing"]++
				}
				if s := th.tab.ht[0].size; len(sizes) == 0 || sizes[len(sizes)-1] != s {
					sizes = append(sizes, s)
				}
			}
			for i := range stable {
				if !seen[string(key(i))] {
					t.Fatalf("key %d, present for the whole scan, not returned", i)
				}
			}
			th.check()
			grows, shrinks := 0, 0
			for i := 1; i < len(sizes); i++ {
				if sizes[i] > sizes[i-1] {
					grows++
				} else {
					shrinks++
				}
			}
			zeroingCalls += phases["zeroing"]
			if grows < 2 || shrinks < 2 || phases["moving"] == 0 {
				t.Fatalf("the scan did not see enough resizing: sizes %v, phases %v", sizes, phases)
			}
			t.Logf("sizes during the scan: %v; calls by phase %v", sizes, phases)
		})
	}
	if zeroingCalls == 0 {
		t.Fatal("no scan call ran while a new array was being cleared")
	}
}

// TestTableScanComplete: on a quiet table a scan returns every key exactly once.
func TestTableScanComplete(t *testing.T) {
	for _, n := range []int{0, 1, 13, 14, 1000, 20000} {
		th := newTableHarness(t)
		for i := range n {
			th.insert(key(i))
		}
		for th.tab.rehash(1 << 20) {
		}
		seen := map[string]int{}
		var cursor uint64
		for {
			cursor = th.tab.scan(cursor, func(h alloc.Handle) { seen[string(testKey(th.a, h))]++ })
			if cursor == 0 {
				break
			}
		}
		if len(seen) != n {
			t.Fatalf("%d keys: scan returned %d", n, len(seen))
		}
		for k, c := range seen {
			if c != 1 {
				t.Fatalf("%d keys: %q returned %d times", n, k, c)
			}
		}
	}
}

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
	if next := d.keys.scan(1<<scanShardShift-1, func(h alloc.Handle) { want = append(want, string(object.Key(last.Arena(), h))) }); next != 0 {
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
	if want := k.Shard(15).db(0).keys.len(); int64(n) != want {
		t.Errorf("scan of shard 15 with bit 63 set: %d keys, want %d", n, want)
	}
}

// TestTableEach: in every phase of a resize (idle, clearing a new array, moving entries),
// each returns every entry exactly once.
func TestTableEach(t *testing.T) {
	th := newTableHarness(t)
	phases := map[string]int{}
	check := func(n int) {
		seen := map[string]int{}
		th.tab.each(func(h alloc.Handle) { seen[string(testKey(th.a, h))]++ })
		if len(seen) != n {
			t.Fatalf("%d keys: each returned %d distinct", n, len(seen))
		}
		for k, c := range seen {
			if c != 1 {
				t.Fatalf("%d keys: %q returned %d times", n, k, c)
			}
		}
		switch {
		case !th.tab.resizing():
			phases["idle"]++
		case th.tab.moving():
			phases["moving"]++
		default:
			phases["zeroing"]++
		}
	}
	const n = 3000
	for i := range n {
		th.insert(key(i))
		check(i + 1)
	}
	for i := range n - 10 {
		th.delete(key(i))
		if i%7 == 0 {
			seen := 0
			th.tab.each(func(alloc.Handle) { seen++ })
			if seen != n-i-1 {
				t.Fatalf("after %d deletes: %d entries", i+1, seen)
			}
		}
	}
	if phases["moving"] == 0 || phases["zeroing"] == 0 || phases["idle"] == 0 {
		t.Fatalf("phases seen: %v", phases)
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
