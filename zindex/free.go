package zindex

import "github.com/kvserver/kvserver/alloc"

// Destroy frees the index: its nodes and its header, calling fn (when not nil) on every entry
// in order (the entries are the owner's to free; fn must not use the index). Neither the view
// nor the root handle may be used afterwards.
func (ix Index) Destroy(fn func(h alloc.Handle)) {
	FreeStep(ix.a, ix.root, int(^uint(0)>>1), fn)
}

// FreeStep is Destroy done a bounded amount at a time, for an index too big to free at once
// (lazy freeing): each call frees leaves from the lowest, about budget entries' worth, with
// the inner nodes they empty, calling fn (when not nil) on each entry in order, and reports
// whether the whole index, header included, is gone. Between calls nothing but FreeStep, Len
// (the entries not yet handed to fn) and Bytes may use the index.
func FreeStep(a *alloc.Arena, root alloc.Handle, budget int, fn func(h alloc.Handle)) (done bool) {
	ix := Index{a: a, hdr: headerOf(a, root), root: root}
	hdr := ix.hdr
	for budget > 0 && hdr.root != 0 {
		var nodes [maxHeight + 1]alloc.Handle
		height := int(hdr.height)
		n := hdr.root
		for lv := 0; lv < height; lv++ {
			nodes[lv] = n
			n = ix.inner(n).kids[0]
		}
		l := ix.leaf(n)
		k := int(l.n)
		if fn != nil {
			for _, h := range l.hs[:k] {
				fn(h)
			}
		}
		budget -= max(k, 1)
		hdr.count -= uint32(k)
		hdr.first = l.next
		if l.next != 0 {
			ix.leaf(l.next).prev = 0
		} else {
			hdr.last = 0
		}
		a.Free(n, leafSize)
		hdr.leaves--
		// Up the leftmost path: the first child of each level is gone while the levels empty.
		removed := true
		for lv := height - 1; lv >= 0; lv-- {
			in := ix.inner(nodes[lv])
			if !removed {
				in.counts[0] -= uint32(k)
				continue
			}
			in.removeKid(0)
			if in.n == 0 {
				a.Free(nodes[lv], innerSize)
				hdr.inners--
				continue
			}
			removed = false
		}
		if removed {
			hdr.root, hdr.height = 0, 0
		}
	}
	if hdr.root != 0 {
		return false
	}
	a.Free(root, headerSize)
	return true
}
