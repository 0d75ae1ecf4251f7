package zindex

import (
	"bytes"

	"github.com/kvserver/kvserver/alloc"
)

// Query modes: what an entry is compared with.
const (
	byEntry  = iota // (score, member): the index's order
	byScore         // the score only
	byMember        // the member only (lex ranges, which assume equal scores)
)

// query is a monotone predicate on entries, "the entry sorts before the target" (or at it too,
// when orEqual): true for a prefix of the index, whose length is the rank searches compute.
type query struct {
	mode    uint8
	orEqual bool
	key     uint32 // scoreKey(score)
	score   float64
	member  []byte
}

// path records a descent: nodes[l] is the node at level l (0 the root, height the leaf) and
// idx[l] the child taken there, or at the leaf the position reached.
type path struct {
	nodes [maxHeight + 1]alloc.Handle
	idx   [maxHeight + 1]int
}

// before evaluates q on the entry h whose score key is key: the key decides unless it equals
// the target's (or the query is by member); only then is the entry read.
func (ix Index) before(q *query, key uint32, h alloc.Handle) bool {
	if q.mode != byMember && key != q.key {
		return key < q.key
	}
	return ix.beforeSlow(q, h)
}

// beforeSlow evaluates q on entry h by reading it.
func (ix Index) beforeSlow(q *query, h alloc.Handle) bool {
	s, m := ix.entry(ix.a, h)
	if q.mode != byMember {
		if s != q.score {
			return s < q.score
		}
		if q.mode == byScore {
			return q.orEqual
		}
	}
	c := bytes.Compare(m, q.member)
	return c < 0 || c == 0 && q.orEqual
}

// search returns the number of entries for which q holds, recording the descent in p unless
// p is nil.
func (ix Index) search(q *query, p *path) int {
	h := ix.hdr.root
	if h == 0 {
		return 0
	}
	rank := 0
	height := int(ix.hdr.height)
	for lv := 0; lv < height; lv++ {
		in := ix.inner(h)
		// The last child whose first entry satisfies q holds the boundary (child 0 if none).
		lo, hi := 1, int(in.n)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if ix.before(q, in.keys[mid], in.sepH[mid]) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		i := lo - 1
		for _, c := range in.counts[:i] {
			rank += int(c)
		}
		if p != nil {
			p.nodes[lv], p.idx[lv] = h, i
		}
		h = in.kids[i]
	}
	l := ix.leaf(h)
	lo, hi := 0, int(l.n)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ix.before(q, l.keys[mid], l.hs[mid]) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if p != nil {
		p.nodes[height], p.idx[height] = h, lo
	}
	return rank + lo
}

// seek descends to the entry of the given rank (0 ≤ rank < Len), recording the descent.
func (ix Index) seek(rank int, p *path) {
	h := ix.hdr.root
	height := int(ix.hdr.height)
	for lv := 0; lv < height; lv++ {
		in := ix.inner(h)
		i, last := 0, int(in.n)-1
		for ; i < last; i++ {
			c := int(in.counts[i])
			if rank < c {
				break
			}
			rank -= c
		}
		p.nodes[lv], p.idx[lv] = h, i
		h = in.kids[i]
	}
	p.nodes[height], p.idx[height] = h, rank
}

// Rank is the 0-based rank (from the lowest) of the entry (score, member), false if absent.
func (ix Index) Rank(score float64, member []byte) (int, bool) {
	if ix.hdr.root == 0 {
		return 0, false
	}
	q := query{mode: byEntry, orEqual: true, key: scoreKey(score), score: score, member: member}
	var p path
	n := ix.search(&q, &p)
	// The last entry at or before the target is in the leaf reached, if any is.
	height := int(ix.hdr.height)
	pos := p.idx[height]
	if pos == 0 {
		return 0, false
	}
	s, m := ix.entry(ix.a, ix.leaf(p.nodes[height]).hs[pos-1])
	if s != score || !bytes.Equal(m, member) {
		return 0, false
	}
	return n - 1, true
}

// At is the entry of the given rank, 0 ≤ rank < Len.
func (ix Index) At(rank int) alloc.Handle {
	if uint(rank) >= uint(ix.hdr.count) {
		panic("zindex: At out of range")
	}
	h := ix.hdr.root
	for lv := int(ix.hdr.height); lv > 0; lv-- {
		in := ix.inner(h)
		i, last := 0, int(in.n)-1
		for ; i < last; i++ {
			c := int(in.counts[i])
			if rank < c {
				break
			}
			rank -= c
		}
		h = in.kids[i]
	}
	return ix.leaf(h).hs[rank]
}

// FirstAbove is the rank of the first entry whose score is ≥ score (> when exclusive), Len if
// none.
func (ix Index) FirstAbove(score float64, exclusive bool) int {
	q := query{mode: byScore, orEqual: exclusive, key: scoreKey(score), score: score}
	return ix.search(&q, nil)
}

// LastBelow is the rank of the last entry whose score is ≤ score (< when exclusive), -1 if
// none.
func (ix Index) LastBelow(score float64, exclusive bool) int {
	q := query{mode: byScore, orEqual: !exclusive, key: scoreKey(score), score: score}
	return ix.search(&q, nil) - 1
}

// FirstLexAbove is the rank of the first entry whose member is ≥ member (> when exclusive),
// Len if none. Members are compared alone: lex ranges assume that all scores are equal.
func (ix Index) FirstLexAbove(member []byte, exclusive bool) int {
	q := query{mode: byMember, orEqual: exclusive, member: member}
	return ix.search(&q, nil)
}

// LastLexBelow is the rank of the last entry whose member is ≤ member (< when exclusive), -1
// if none.
func (ix Index) LastLexBelow(member []byte, exclusive bool) int {
	q := query{mode: byMember, orEqual: !exclusive, member: member}
	return ix.search(&q, nil) - 1
}

// Walk calls fn on the entries of ranks from, from+1, … (from, from-1, … when reverse) until
// fn returns false or the index ends; nothing when from is out of range. fn must not change
// the index. O(log n) to start, then O(1) per entry.
func (ix Index) Walk(from int, reverse bool, fn func(h alloc.Handle) bool) {
	if uint(from) >= uint(ix.hdr.count) {
		return
	}
	var p path
	ix.seek(from, &p)
	height := int(ix.hdr.height)
	lh, i := p.nodes[height], p.idx[height]
	for lh != 0 {
		l := ix.leaf(lh)
		if reverse {
			for ; i >= 0; i-- {
				if !fn(l.hs[i]) {
					return
				}
			}
			lh = l.prev
			if lh != 0 {
				i = int(ix.leaf(lh).n) - 1
			}
		} else {
			for n := int(l.n); i < n; i++ {
				if !fn(l.hs[i]) {
					return
				}
			}
			lh, i = l.next, 0
		}
	}
}
