package zindex

import (
	"testing"
)

// TestCheckCatches: Check reports each kind of damage (and the damage undone, passes again).
func TestCheckCatches(t *testing.T) {
	th := newHarness(t)
	th.check = false
	for i := range 3000 {
		th.insert(float64(i%50), member(i))
	}
	ix := th.ix()
	if ix.hdr.height < 2 {
		t.Fatalf("height %d: too small a tree for the test", ix.hdr.height)
	}
	root := ix.inner(ix.hdr.root)
	kid := ix.inner(root.kids[1])
	l := ix.leaf(kid.kids[1])
	damages := []struct {
		name string
		do   func()
	}{
		{"count", func() { root.counts[0]++ }},
		{"separator", func() { kid.sepH[1] = l.hs[1] }},
		{"separator key", func() { kid.keys[1]++ }},
		{"order", func() { l.hs[3], l.hs[4] = l.hs[4], l.hs[3] }},
		{"key", func() { l.keys[5]++ }},
		{"fill", func() { l.n = leafMin - 1 }},
		{"link", func() { l.next = 0 }},
		{"header", func() { ix.hdr.count++ }},
		{"leaves", func() { ix.hdr.leaves++ }},
	}
	for _, d := range damages {
		saveRoot, saveKid, saveLeaf, saveHdr := *root, *kid, *l, *ix.hdr
		d.do()
		if err := ix.Check(); err == nil {
			t.Errorf("Check missed a damaged %s", d.name)
		} else {
			t.Logf("%s: %v", d.name, err)
		}
		*root, *kid, *l, *ix.hdr = saveRoot, saveKid, saveLeaf, saveHdr
		if err := ix.Check(); err != nil {
			t.Fatalf("after undoing %s: %v", d.name, err)
		}
	}
	th.destroy(0)
}
