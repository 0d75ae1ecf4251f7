package zindex

import (
	"fmt"

	"github.com/kvserver/kvserver/alloc"
)

// Check verifies the index's invariants, for tests: every subtree count, every separator (the
// first entry of its child), the order of all entries (strict, by score then member), the
// score keys, the fill (at least half full but for the root and the last node of each level),
// the same depth for every leaf, the list of leaves, and the header's totals. It reads every
// entry: O(n).
func (ix Index) Check() error {
	hdr := ix.hdr
	if hdr.root == 0 {
		if hdr.count != 0 || hdr.height != 0 || hdr.leaves != 0 || hdr.inners != 0 || hdr.first != 0 || hdr.last != 0 {
			return fmt.Errorf("zindex: empty index with header %+v", *hdr)
		}
		return nil
	}
	if hdr.height > maxHeight {
		return fmt.Errorf("zindex: height %d", hdr.height)
	}
	c := checker{ix: ix}
	n, err := c.node(hdr.root, 0, true, true)
	if err != nil {
		return err
	}
	if n != int(hdr.count) {
		return fmt.Errorf("zindex: %d entries, header says %d", n, hdr.count)
	}
	if c.leaves != int(hdr.leaves) || c.inners != int(hdr.inners) {
		return fmt.Errorf("zindex: %d leaves and %d inner nodes, header says %d and %d",
			c.leaves, c.inners, hdr.leaves, hdr.inners)
	}
	if hdr.first != c.firstLeaf || hdr.last != c.prevLeaf {
		return fmt.Errorf("zindex: first/last leaves %d/%d, header says %d/%d", c.firstLeaf, c.prevLeaf, hdr.first, hdr.last)
	}
	if ix.leaf(c.prevLeaf).next != 0 {
		return fmt.Errorf("zindex: the last leaf has a next")
	}
	return nil
}

type checker struct {
	ix                  Index
	leaves, inners      int
	firstLeaf, prevLeaf alloc.Handle
	seen                bool // an entry was seen: prevScore, prevMember hold it
	prevScore           float64
	prevMember          []byte
}

// node checks the subtree of h at level lv and returns its number of entries. root and last
// (the node is the last of its level) relax the fill rule.
func (c *checker) node(h alloc.Handle, lv int, root, last bool) (int, error) {
	ix := c.ix
	if lv == int(ix.hdr.height) {
		c.leaves++
		l := ix.leaf(h)
		if l.n == 0 || l.n > leafCap || !root && !last && l.n < leafMin {
			return 0, fmt.Errorf("zindex: leaf %d holds %d entries", h, l.n)
		}
		if l.prev != c.prevLeaf {
			return 0, fmt.Errorf("zindex: leaf %d's prev is %d, not %d", h, l.prev, c.prevLeaf)
		}
		if c.prevLeaf == 0 {
			c.firstLeaf = h
		} else if ix.leaf(c.prevLeaf).next != h {
			return 0, fmt.Errorf("zindex: leaf %d's next is not %d", c.prevLeaf, h)
		}
		c.prevLeaf = h
		for i, e := range l.hs[:l.n] {
			s, m := ix.entry(ix.a, e)
			if s != s {
				return 0, fmt.Errorf("zindex: entry %d has a NaN score", e)
			}
			if l.keys[i] != scoreKey(s) {
				return 0, fmt.Errorf("zindex: entry %d's key %#x, not %#x", e, l.keys[i], scoreKey(s))
			}
			if c.seen && !entryLess(c.prevScore, c.prevMember, s, m) {
				return 0, fmt.Errorf("zindex: entry %d (%v %q) out of order after (%v %q)", e, s, m, c.prevScore, c.prevMember)
			}
			c.seen, c.prevScore, c.prevMember = true, s, append(c.prevMember[:0], m...)
		}
		return int(l.n), nil
	}
	c.inners++
	in := ix.inner(h)
	if in.n == 0 || in.n > innerCap || !root && !last && in.n < innerMin || root && in.n < 2 {
		return 0, fmt.Errorf("zindex: inner node %d (level %d) holds %d children", h, lv, in.n)
	}
	total := 0
	for i := range int(in.n) {
		kid := in.kids[i]
		var first alloc.Handle
		var firstKey uint32
		if lv+1 == int(ix.hdr.height) {
			first, firstKey = ix.leaf(kid).hs[0], ix.leaf(kid).keys[0]
		} else {
			first, firstKey = ix.inner(kid).sepH[0], ix.inner(kid).keys[0]
		}
		if in.sepH[i] != first || in.keys[i] != firstKey {
			return 0, fmt.Errorf("zindex: separator %d of node %d is entry %d key %#x, its child starts with %d key %#x",
				i, h, in.sepH[i], in.keys[i], first, firstKey)
		}
		n, err := c.node(kid, lv+1, false, last && i == int(in.n)-1)
		if err != nil {
			return 0, err
		}
		if n != int(in.counts[i]) {
			return 0, fmt.Errorf("zindex: child %d of node %d holds %d entries, counted %d", i, h, n, in.counts[i])
		}
		total += n
	}
	return total, nil
}
