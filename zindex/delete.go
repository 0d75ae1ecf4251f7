package zindex

import (
	"bytes"

	"github.com/kvserver/kvserver/alloc"
)

// entryLess reports whether (s1, m1) sorts before (s2, m2): by score, ties by member bytes.
func entryLess(s1 float64, m1 []byte, s2 float64, m2 []byte) bool {
	if s1 != s2 {
		return s1 < s2
	}
	return bytes.Compare(m1, m2) < 0
}

// Delete removes the entry (score, member) and returns its handle (the entry is the caller's
// to free), false if the index has no such entry.
func (ix Index) Delete(score float64, member []byte) (alloc.Handle, bool) {
	if ix.hdr.root == 0 {
		return 0, false
	}
	q := query{mode: byEntry, orEqual: true, key: scoreKey(score), score: score, member: member}
	var p path
	ix.search(&q, &p)
	height := int(ix.hdr.height)
	pos := p.idx[height]
	if pos == 0 {
		return 0, false
	}
	s, m := ix.entry(ix.a, ix.leaf(p.nodes[height]).hs[pos-1])
	if s != score || !bytes.Equal(m, member) {
		return 0, false
	}
	p.idx[height] = pos - 1
	h := ix.leaf(p.nodes[height]).hs[pos-1]
	ix.deleteRun(&p, 1)
	return h, true
}

// DeleteRange removes the entries of ranks start to stop (normally 0 ≤ start ≤ stop < Len; a
// range reaching out of the index is cut to it), calling fn (when not nil) on each, in order,
// once it is out of the index (fn frees it; it must not use the index).
func (ix Index) DeleteRange(start, stop int, fn func(h alloc.Handle)) {
	start, stop = max(start, 0), min(stop, ix.Len()-1)
	if start > stop {
		return
	}
	// A leaf's run at a time: one descent and one rebalancing per leaf passed.
	var p path
	var run [leafCap]alloc.Handle
	for k := stop - start + 1; k > 0; {
		ix.seek(start, &p)
		l := ix.leaf(p.nodes[ix.hdr.height])
		pos := p.idx[ix.hdr.height]
		m := min(k, int(l.n)-pos)
		copy(run[:m], l.hs[pos:pos+m])
		ix.deleteRun(&p, m)
		k -= m
		if fn != nil {
			for _, h := range run[:m] {
				fn(h)
			}
		}
	}
}

// childMin is the first entry under node h of level lv (which is not empty): its score key
// and its handle.
func (ix Index) childMin(h alloc.Handle, lv int) (uint32, alloc.Handle) {
	if lv == int(ix.hdr.height) {
		l := ix.leaf(h)
		return l.keys[0], l.hs[0]
	}
	in := ix.inner(h)
	return in.keys[0], in.sepH[0]
}

// nodeLen is the number of slots used in node h of level lv.
func (ix Index) nodeLen(h alloc.Handle, lv int) int {
	if lv == int(ix.hdr.height) {
		return int(ix.leaf(h).n)
	}
	return int(ix.inner(h).n)
}

// deleteRun removes the m entries from the one p leads to on in its leaf, rebalancing
// underfull nodes on the way up: a node below the minimum fill merges with a sibling when both
// fit in one node, otherwise takes entries from it so that both are at least half full.
func (ix Index) deleteRun(p *path, m int) {
	height := int(ix.hdr.height)
	l := ix.leaf(p.nodes[height])
	pos := p.idx[height]
	l.removeRun(pos, m)
	ix.hdr.count -= uint32(m)
	// minChanged: the first entry of the node at level lv+1 changed (and it is not empty), so
	// its separator in the level above must follow.
	minChanged := pos == 0 && l.n > 0
	for lv := height - 1; lv >= 0; lv-- {
		in := ix.inner(p.nodes[lv])
		i := p.idx[lv]
		in.counts[i] -= uint32(m)
		child := in.kids[i]
		next := false
		if minChanged {
			in.keys[i], in.sepH[i] = ix.childMin(child, lv+1)
			next = i == 0
		}
		minFill := innerMin
		if lv+1 == height {
			minFill = leafMin
		}
		if ix.nodeLen(child, lv+1) < minFill && ix.rebalance(in, i, lv+1) {
			next = true
		}
		minChanged = next && in.n > 0
	}
	// The root: an empty one goes, an inner one with a single child gives way to it.
	for {
		root := ix.hdr.root
		if ix.hdr.height == 0 {
			if ix.leaf(root).n == 0 {
				ix.a.Free(root, leafSize)
				ix.hdr.root, ix.hdr.first, ix.hdr.last = 0, 0, 0
				ix.hdr.leaves--
			}
			break
		}
		in := ix.inner(root)
		switch in.n {
		case 0:
			ix.a.Free(root, innerSize)
			ix.hdr.inners--
			ix.hdr.root, ix.hdr.height = 0, 0
			// Every leaf went with its parent's emptying.
			ix.hdr.first, ix.hdr.last = 0, 0
		case 1:
			ix.hdr.root = in.kids[0]
			ix.hdr.height--
			ix.a.Free(root, innerSize)
			ix.hdr.inners--
			continue
		}
		break
	}
}

// rebalance fixes child i of in (at level lv), which is below the minimum fill, with a
// sibling, and reports whether in's first entry changed.
func (ix Index) rebalance(in *inner, i, lv int) (firstChanged bool) {
	if in.n == 1 {
		// No sibling (in is the last node of its level): only an empty child goes.
		if ix.nodeLen(in.kids[0], lv) == 0 {
			ix.freeNode(in.kids[0], lv)
			in.removeKid(0)
		}
		return false
	}
	j := i - 1
	if i == 0 {
		j = 0
	}
	lh, rh := in.kids[j], in.kids[j+1]
	isLeaf := lv == int(ix.hdr.height)
	capacity := innerCap
	if isLeaf {
		capacity = leafCap
	}
	ln, rn := ix.nodeLen(lh, lv), ix.nodeLen(rh, lv)
	if ln+rn <= capacity {
		// Merge the right node into the left one.
		if isLeaf {
			moveEntries(ix.leaf(lh), ln, ix.leaf(rh), 0, rn)
		} else {
			moveKids(ix.inner(lh), ln, ix.inner(rh), 0, rn)
		}
		in.counts[j] += in.counts[j+1]
		if ln == 0 {
			in.keys[j], in.sepH[j] = in.keys[j+1], in.sepH[j+1]
		}
		in.removeKid(j + 1)
		ix.freeNode(rh, lv)
		return ln == 0 && j == 0
	}
	// Share: move entries across so that both hold about half (both end at least half full,
	// as ln+rn exceeds a node's capacity).
	target := (ln + rn) / 2
	var moved int
	if isLeaf {
		l, r := ix.leaf(lh), ix.leaf(rh)
		if ln > target {
			moved = ln - target
			moveEntries(r, 0, l, target, moved)
			moved = -moved
		} else {
			moved = target - ln
			moveEntries(l, ln, r, 0, moved)
		}
	} else {
		l, r := ix.inner(lh), ix.inner(rh)
		if ln > target {
			moved = -moveKids(r, 0, l, target, ln-target)
		} else {
			moved = moveKids(l, ln, r, 0, target-ln)
		}
	}
	// moved entries went from the right node to the left one (negative: the other way).
	in.counts[j] = uint32(int(in.counts[j]) + moved)
	in.counts[j+1] = uint32(int(in.counts[j+1]) - moved)
	in.keys[j+1], in.sepH[j+1] = ix.childMin(rh, lv)
	return false
}

// freeNode frees the empty node h of level lv (a leaf leaves the list of leaves).
func (ix Index) freeNode(h alloc.Handle, lv int) {
	if lv == int(ix.hdr.height) {
		l := ix.leaf(h)
		if l.prev != 0 {
			ix.leaf(l.prev).next = l.next
		} else {
			ix.hdr.first = l.next
		}
		if l.next != 0 {
			ix.leaf(l.next).prev = l.prev
		} else {
			ix.hdr.last = l.prev
		}
		ix.a.Free(h, leafSize)
		ix.hdr.leaves--
		return
	}
	ix.a.Free(h, innerSize)
	ix.hdr.inners--
}
