package keyspace

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
