package htable

import (
	"fmt"
	"math"
	"os"
	"testing"
)

// TestBigTableBytesPerKey follows one table from 0 to 3,000,000 keys and logs the table's
// bytes per key at its extremes, outside resizes and during them.
func TestBigTableBytesPerKey(t *testing.T) {
	if os.Getenv("KEYSPACE_BIG") == "" || raceEnabled {
		t.Skip("set KEYSPACE_BIG=1 (not under -race) to follow a table to 3,000,000 keys")
	}
	th := newTableHarness(t)
	lo, hi, hiResizing := math.Inf(1), 0.0, 0.0
	var loN, hiN, hiResizingN int
	for i := range 3_000_000 {
		h := newEntry(th.a, key(i), nil)
		if err := th.tab.Insert(Hash(key(i)), h); err != nil {
			t.Fatal(err)
		}
		if i < 100_000 || i%97 != 0 {
			continue
		}
		perKey := float64(th.tab.Bytes()) / float64(i+1)
		switch {
		case th.tab.Resizing():
			if perKey > hiResizing {
				hiResizing, hiResizingN = perKey, i+1
			}
		case perKey > hi:
			hi, hiN = perKey, i+1
		case perKey < lo:
			lo, loN = perKey, i+1
		}
	}
	t.Logf("one table, 100,000 to 3,000,000 keys: outside resizes %.2f (at %d keys) to %.2f (at %d) B/key; during a resize up to %.2f (at %d)",
		lo, loN, hi, hiN, hiResizing, hiResizingN)
}

// TestTableBytesAt1M is the table's share of the memory targets: one hash of 1,000,000
// fields (`field:%010d`) or one set of 1,000,000 members, with no resize in progress. It logs
// the bytes per entry of buckets, tags and handles (arrays and child buckets, not the entries)
// and holds them to the keyspace's 10-byte budget.
func TestTableBytesAt1M(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race: the race detector's heap backend")
	}
	th := newTableHarness(t)
	const n = 1_000_000
	for i := range n {
		f := fmt.Appendf(nil, "field:%010d", i)
		if err := th.tab.Insert(Hash(f), newEntry(th.a, f, nil)); err != nil {
			t.Fatal(err)
		}
	}
	for th.tab.Rehash(1 << 20) {
	}
	perEntry := float64(th.tab.Bytes()) / n
	arrays := th.tab.hdr.ht[0].size * bucketSize
	t.Logf("%d entries: %d buckets (%.1f%% of slots used), %d child buckets; table %.2f B/entry (array %.2f, children %.2f)",
		n, th.tab.hdr.ht[0].size, 100*float64(n)/float64(th.tab.hdr.ht[0].size*bucketSlots), th.tab.hdr.children,
		perEntry, float64(arrays)/n, float64(th.tab.hdr.children*bucketSize)/n)
	if perEntry > 10 {
		t.Fatalf("%.2f B/entry, budget 10", perEntry)
	}
}
