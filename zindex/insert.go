package zindex

import (
	"github.com/kvserver/kvserver/alloc"
)

// Insert adds the entry h, whose score and member are given, which the index must not hold.
// ErrOOM (the index unchanged) when a node cannot be allocated.
func (ix Index) Insert(score float64, member []byte, h alloc.Handle) error {
	if ix.hdr.root == 0 {
		return ix.first(score, h)
	}
	q := query{mode: byEntry, key: scoreKey(score), score: score, member: member}
	var p path
	ix.search(&q, &p)
	return ix.insertAt(&p, score, h)
}

// Append adds the entry h, which sorts after every entry of the index: a sorted bulk load
// (RDB, conversions) costs no comparison and fills the nodes completely.
func (ix Index) Append(score float64, member []byte, h alloc.Handle) error {
	if ix.hdr.root == 0 {
		return ix.first(score, h)
	}
	if invariantsOn {
		s, m := ix.entry(ix.a, ix.leaf(ix.hdr.last).hs[ix.leaf(ix.hdr.last).n-1])
		if !entryLess(s, m, score, member) {
			panic("zindex: Append out of order")
		}
	}
	var p path
	n := ix.hdr.root
	height := int(ix.hdr.height)
	for lv := 0; lv < height; lv++ {
		in := ix.inner(n)
		p.nodes[lv], p.idx[lv] = n, int(in.n)-1
		n = in.kids[in.n-1]
	}
	p.nodes[height], p.idx[height] = n, int(ix.leaf(n).n)
	return ix.insertAt(&p, score, h)
}

// first makes the root leaf of an empty index, holding h.
func (ix Index) first(score float64, h alloc.Handle) error {
	lh := ix.a.Alloc(leafSize)
	if lh == 0 {
		return ErrOOM
	}
	l := ix.leaf(lh)
	*l = leaf{}
	l.insertAt(0, scoreKey(score), h)
	*ix.hdr = header{root: lh, count: 1, leaves: 1, first: lh, last: lh}
	return nil
}

// insertAt puts h at the position p leads to, splitting full nodes on the way up. A full node
// splits in two halves, but the rightmost node of its level receiving at its end (an
// ascending load) stays full and starts a new node with the one new item.
func (ix Index) insertAt(p *path, score float64, h alloc.Handle) error {
	height := int(ix.hdr.height)
	// Allocate the nodes the splits need first, so that running out of memory changes nothing.
	var spare [maxHeight + 2]alloc.Handle
	need := 0
	if ix.leaf(p.nodes[height]).n == leafCap {
		need = 1
		lv := height - 1
		for ; lv >= 0 && ix.inner(p.nodes[lv]).n == innerCap; lv-- {
			need++
		}
		if lv < 0 {
			need++ // a new root
		}
	}
	// The leaf's split uses spare[0], the inner nodes' and a new root the others.
	for i := range need {
		if spare[i] = ix.a.Alloc(spareSize(i)); spare[i] == 0 {
			for j, s := range spare[:i] {
				ix.a.Free(s, spareSize(j))
			}
			return ErrOOM
		}
	}
	spareAt := 0
	// rightmost[lv]: the node at level lv is the last of its level (only splits ask).
	var rightmost [maxHeight + 1]bool
	if need > 0 {
		rightmost[0] = true
		for lv := 0; lv < height; lv++ {
			rightmost[lv+1] = rightmost[lv] && p.idx[lv] == int(ix.inner(p.nodes[lv]).n)-1
		}
	}

	key := scoreKey(score)
	l := ix.leaf(p.nodes[height])
	pos := p.idx[height]
	minChanged := pos == 0
	// What a split hands to the level above: the new right node, its entries and first entry.
	var (
		split      bool
		carry      alloc.Handle
		carryCount uint32
		carryKey   uint32
		carryH     alloc.Handle
	)
	if l.n < leafCap {
		l.insertAt(pos, key, h)
	} else {
		rh := spare[spareAt]
		spareAt++
		r := ix.leaf(rh)
		*r = leaf{}
		switch half := (leafCap + 1) / 2; {
		case pos == leafCap && rightmost[height]:
			r.insertAt(0, key, h)
		case pos < half:
			moveEntries(r, 0, l, half-1, leafCap-half+1)
			l.insertAt(pos, key, h)
		default:
			moveEntries(r, 0, l, half, leafCap-half)
			r.insertAt(pos-half, key, h)
		}
		lh := p.nodes[height]
		r.prev, r.next = lh, l.next
		if l.next != 0 {
			ix.leaf(l.next).prev = rh
		} else {
			ix.hdr.last = rh
		}
		l.next = rh
		ix.hdr.leaves++
		split, carry, carryCount, carryKey, carryH = true, rh, uint32(r.n), r.keys[0], r.hs[0]
	}
	for lv := height - 1; lv >= 0; lv-- {
		in := ix.inner(p.nodes[lv])
		i := p.idx[lv]
		if minChanged {
			in.keys[i], in.sepH[i] = key, h
			minChanged = i == 0
		}
		if !split {
			in.counts[i]++
			continue
		}
		in.counts[i] = in.counts[i] + 1 - carryCount
		at := i + 1
		if in.n < innerCap {
			in.insertKid(at, carry, carryCount, carryKey, carryH)
			split = false
			continue
		}
		rh := spare[spareAt]
		spareAt++
		r := ix.inner(rh)
		*r = inner{}
		switch half := (innerCap + 1) / 2; {
		case at == innerCap && rightmost[lv]:
			r.insertKid(0, carry, carryCount, carryKey, carryH)
		case at < half:
			moveKids(r, 0, in, half-1, innerCap-half+1)
			in.insertKid(at, carry, carryCount, carryKey, carryH)
		default:
			moveKids(r, 0, in, half, innerCap-half)
			r.insertKid(at-half, carry, carryCount, carryKey, carryH)
		}
		ix.hdr.inners++
		carry, carryCount, carryKey, carryH = rh, uint32(r.total()), r.keys[0], r.sepH[0]
	}
	ix.hdr.count++
	if split {
		// The root split: a new root above the two halves.
		old := ix.hdr.root
		var oldKey uint32
		var oldH alloc.Handle
		if height == 0 {
			o := ix.leaf(old)
			oldKey, oldH = o.keys[0], o.hs[0]
		} else {
			o := ix.inner(old)
			oldKey, oldH = o.keys[0], o.sepH[0]
		}
		rh := spare[spareAt]
		spareAt++
		r := ix.inner(rh)
		*r = inner{}
		r.insertKid(0, old, ix.hdr.count-carryCount, oldKey, oldH)
		r.insertKid(1, carry, carryCount, carryKey, carryH)
		ix.hdr.root = rh
		ix.hdr.height++
		ix.hdr.inners++
	}
	if spareAt != need {
		panic("zindex: split count mismatch")
	}
	return nil
}

// spareSize is the size of insertAt's spare node i: the leaf's first, inner nodes after.
func spareSize(i int) int {
	if i == 0 {
		return leafSize
	}
	return innerSize
}
