package htable

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kvserver/kvserver/alloc"
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
				cursor = th.tab.Scan(cursor, func(h alloc.Handle) { seen[string(entryField(th.a, h))] = true })
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
				case !th.tab.Resizing():
					phases["idle"]++
				case th.tab.Moving():
					phases["moving"]++
				default:
					phases["zeroing"]++
				}
				if s := th.tab.hdr.ht[0].size; len(sizes) == 0 || sizes[len(sizes)-1] != s {
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
		for th.tab.Rehash(1 << 20) {
		}
		seen := map[string]int{}
		var cursor uint64
		for {
			cursor = th.tab.Scan(cursor, func(h alloc.Handle) { seen[string(entryField(th.a, h))]++ })
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

// TestTableEach: in every phase of a resize (idle, clearing a new array, moving entries),
// each returns every entry exactly once.
func TestTableEach(t *testing.T) {
	th := newTableHarness(t)
	phases := map[string]int{}
	check := func(n int) {
		seen := map[string]int{}
		th.tab.Each(func(h alloc.Handle) { seen[string(entryField(th.a, h))]++ })
		if len(seen) != n {
			t.Fatalf("%d keys: each returned %d distinct", n, len(seen))
		}
		for k, c := range seen {
			if c != 1 {
				t.Fatalf("%d keys: %q returned %d times", n, k, c)
			}
		}
		switch {
		case !th.tab.Resizing():
			phases["idle"]++
		case th.tab.Moving():
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
			th.tab.Each(func(alloc.Handle) { seen++ })
			if seen != n-i-1 {
				t.Fatalf("after %d deletes: %d entries", i+1, seen)
			}
		}
	}
	if phases["moving"] == 0 || phases["zeroing"] == 0 || phases["idle"] == 0 {
		t.Fatalf("phases seen: %v", phases)
	}
}

// TestTableScanDeletes is SCAN followed by deletes, the way a client empties a table (SCAN, then
// DEL or HDEL of what it returned): after each call every returned entry is deleted, which
// shrinks the table several times during the scan. Every entry was present from the start, so
// each must be returned, and the table must end empty; none may be returned twice, as nothing
// returned is still there to be returned again.
func TestTableScanDeletes(t *testing.T) {
	for _, n := range []int{1, 100, 5000, 60000} {
		th := newTableHarness(t)
		for i := range n {
			th.insert(key(i))
		}
		seen := map[string]bool{}
		var batch [][]byte
		var cursor uint64
		shrinks, last := 0, th.tab.hdr.ht[0].size
		for {
			batch = batch[:0]
			cursor = th.tab.Scan(cursor, func(h alloc.Handle) {
				batch = append(batch, append([]byte(nil), entryField(th.a, h)...))
			})
			for _, k := range batch {
				if seen[string(k)] {
					t.Fatalf("%d entries: %q returned again after its delete", n, k)
				}
				seen[string(k)] = true
				th.delete(k)
			}
			if s := th.tab.hdr.ht[0].size; s < last {
				shrinks++
				last = s
			}
			if cursor == 0 {
				break
			}
		}
		if len(seen) != n || th.tab.Len() != 0 {
			t.Fatalf("%d entries: scan returned %d, %d left", n, len(seen), th.tab.Len())
		}
		th.check()
		if n >= 5000 && shrinks == 0 {
			t.Fatalf("%d entries: the table never shrank during the scan", n)
		}
	}
}

// TestTableScanDeleteOthers: between calls, entries the scan has not returned yet are deleted
// at random, and new ones inserted. The survivors that were present from the start must all be
// returned; no deleted entry may be returned after its delete.
func TestTableScanDeleteOthers(t *testing.T) {
	th := newTableHarness(t)
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 20000
	for i := range n {
		th.insert(key(i))
	}
	deleted := map[string]bool{}
	seen := map[string]bool{}
	next := n
	var cursor uint64
	for {
		cursor = th.tab.Scan(cursor, func(h alloc.Handle) {
			k := string(entryField(th.a, h))
			if deleted[k] {
				t.Fatalf("%q returned after its delete", k)
			}
			seen[k] = true
		})
		if cursor == 0 {
			break
		}
		for range rng.IntN(40) {
			if k := key(rng.IntN(n)); th.delete(k) {
				deleted[string(k)] = true
			}
		}
		for range rng.IntN(20) {
			th.insert(key(next))
			next++
		}
	}
	for i := range n {
		k := string(key(i))
		if !deleted[k] && !seen[k] {
			t.Fatalf("%q, present for the whole scan, not returned", k)
		}
	}
	th.check()
}
