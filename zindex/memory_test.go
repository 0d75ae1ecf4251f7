package zindex

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// bigIndex builds an index of n entries `member:%010d` with score i, inserted in the order
// perm gives (nil: ascending), and returns its view. The arena is the test's.
func bigIndex(tb testing.TB, n int, perm []int, useAppend bool) (Index, []alloc.Handle) {
	a := alloc.MustNewArena(4 << 30)
	tb.Cleanup(a.Close)
	root, err := Create(a)
	if err != nil {
		tb.Fatal(err)
	}
	ix := Open(a, root, readEntry)
	hs := make([]alloc.Handle, n)
	var buf []byte
	for k := range n {
		i := k
		if perm != nil {
			i = perm[k]
		}
		buf = fmt.Appendf(buf[:0], "member:%010d", i)
		hs[i] = newEntry(a, float64(i), buf)
		if useAppend {
			err = ix.Append(float64(i), buf, hs[i])
		} else {
			err = ix.Insert(float64(i), buf, hs[i])
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	return ix, hs
}

// TestMemoryPerEntry measures the index's own bytes per entry at 1,000,000 entries (the
// entries are the owner's and not counted). The sorted set's budget leaves the index about
// 20 bytes per member; doc.go records the figures.
func TestMemoryPerEntry(t *testing.T) {
	if testing.Short() || invariantsOn {
		t.Skip("a million entries")
	}
	const n = 1_000_000
	for _, c := range []struct {
		name      string
		perm      []int
		useAppend bool
		bound     float64
	}{
		{"ascending", nil, false, 9},
		{"append", nil, true, 9},
		{"random", rand.New(rand.NewPCG(1, 2)).Perm(n), false, 14},
	} {
		ix, _ := bigIndex(t, n, c.perm, c.useAppend)
		per := float64(ix.Bytes()) / n
		t.Logf("%s: %d bytes, %.2f bytes per entry (%d leaves, %d inner nodes, height %d)",
			c.name, ix.Bytes(), per, ix.hdr.leaves, ix.hdr.inners, ix.hdr.height+1)
		if per > c.bound {
			t.Errorf("%s: %.2f bytes per entry, bound %v", c.name, per, c.bound)
		}
		if err := ix.Check(); err != nil {
			t.Fatal(err)
		}
	}
}
