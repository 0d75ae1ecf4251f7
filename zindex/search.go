package zindex

import (
	"bytes"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/internal/prefetch"
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

// beforeSlow evaluates q on entry h by reading it (firstNotBefore decides by the score keys
// where they differ from the target's, and asks this only where they tie).
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
		// All of the node's lines at once: the scan below reads the keys, then counts and kids
		// (doc.go, "Choices and figures").
		prefetch.Block512(unsafe.Pointer(in))
		// The last child whose first entry satisfies q holds the boundary (child 0 if none).
		i := ix.firstNotBefore(q, in.keys[:in.n], in.sepH[:in.n], 1) - 1
		for _, c := range in.counts[:i] {
			rank += int(c)
		}
		if p != nil {
			p.nodes[lv], p.idx[lv] = h, i
		}
		h = in.kids[i]
	}
	l := ix.leaf(h)
	prefetch.Block512(unsafe.Pointer(l))
	lo := ix.firstNotBefore(q, l.keys[:l.n], l.hs[:l.n], 0)
	if p != nil {
		p.nodes[height], p.idx[height] = h, lo
	}
	return rank + lo
}

// firstNotBefore returns the first position from start on whose entry q does not hold
// (len(keys) if q holds for all): q holds for a prefix. The keys are scanned in order rather
// than halved: a node's keys are a few adjacent cache lines, which a forward scan reads as the
// hardware prefetches them, where a binary search waits for each probe's line in turn (the
// descent of a 1,000,000-member index is mostly such waits: BenchmarkRank 420 → 315 ns). Only
// the run of keys equal to the target's needs the entries read, and that run is halved, so
// that a set of equal scores (lex ranges) reads a few entries per node, not all of them.
func (ix Index) firstNotBefore(q *query, keys []uint32, hs []alloc.Handle, start int) int {
	lo, hi := start, len(keys)
	if q.mode != byMember {
		for lo < hi && keys[lo] < q.key {
			lo++
		}
		end := lo
		for end < hi && keys[end] == q.key {
			end++
		}
		hi = end
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ix.beforeSlow(q, hs[mid]) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// seek descends to the entry of the given rank (0 ≤ rank < Len), recording the descent.
func (ix Index) seek(rank int, p *path) {
	h := ix.hdr.root
	height := int(ix.hdr.height)
	for lv := 0; lv < height; lv++ {
		in := ix.inner(h)
		prefetch.Block512(unsafe.Pointer(in))
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
		prefetch.Block512(unsafe.Pointer(in))
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
