package zsetval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// Reads. Views passed to callbacks are valid during the call only; a listpack's integer member
// is formatted into the caller's scratch (a new buffer when it has less than 20 bytes of
// capacity). Callbacks must not change the set; returning false stops the walk.

// Score returns member's score in sorted-set record rec (ZSCORE).
func Score(a *alloc.Arena, rec alloc.Handle, member []byte) (float64, bool) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		p, s := lpFind(listpack.FromHandle(root).Bytes(a), member)
		return s, p >= 0
	}
	z := openSkiplist(a, root)
	return z.score(member)
}

// Rank returns member's 0-based rank from the lowest score (from the highest when reverse) and
// its score (ZRANK, ZREVRANK).
func Rank(a *alloc.Arena, rec alloc.Handle, member []byte, reverse bool) (rank int, score float64, ok bool) {
	enc, root := object.Root(a, rec)
	var n int
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		n = lpPairs(lp)
		rank = -1
		i := 0
		for p := listpack.First(lp); p >= 0; p = lpNextPair(lp, p) {
			if listpack.Equal(lp, p, member) {
				rank, score = i, lpScore(lp, listpack.Next(lp, p))
				break
			}
			i++
		}
		if rank < 0 {
			return 0, 0, false
		}
	} else {
		z := openSkiplist(a, root)
		n = z.len()
		if rank, score, ok = z.rank(member); !ok {
			return 0, 0, false
		}
	}
	if reverse {
		rank = n - 1 - rank
	}
	return rank, score, true
}

// RangeByRank calls fn with the members of ranks start to stop (normalised by the caller:
// 0 <= start <= stop < Len), counted from the lowest score, or from the highest when reverse
// (ZRANGE, ZREVRANGE), in that order.
func RangeByRank(a *alloc.Arena, rec alloc.Handle, start, stop int, reverse bool, scratch []byte, fn func(member []byte, score float64) bool) {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openRanks(a, root)
		z.rangeByRank(start, stop, reverse, fn)
		return
	}
	lp := listpack.FromHandle(root).Bytes(a)
	scratch = scratchOf(scratch)
	n := stop - start + 1
	if reverse {
		p := listpack.Seek(lp, 2*(lpPairs(lp)-1-start))
		for ; n > 0 && p >= 0; n-- {
			if !fn(lpMember(lp, p, scratch), lpScore(lp, listpack.Next(lp, p))) {
				return
			}
			p = lpPrevPair(lp, p)
		}
		return
	}
	p := listpack.Seek(lp, 2*start)
	for ; n > 0 && p >= 0; n-- {
		if !fn(lpMember(lp, p, scratch), lpScore(lp, listpack.Next(lp, p))) {
			return
		}
		p = lpNextPair(lp, p)
	}
}

// RangeByScore calls fn with the members whose score is in r, from the lowest (from the
// highest when reverse), skipping the first offset of them and stopping after limit (all when
// limit < 0): ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZRANGE BYSCORE. A negative offset gives nothing
// (Redis's skipping loop never ends before the set does).
func RangeByScore(a *alloc.Arena, rec alloc.Handle, r ScoreRange, reverse bool, offset, limit int, scratch []byte, fn func(member []byte, score float64) bool) {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		z.rangeByScore(&r, reverse, offset, limit, fn)
		return
	}
	if offset < 0 {
		return
	}
	lp := listpack.FromHandle(root).Bytes(a)
	scratch = scratchOf(scratch)
	var p int
	if reverse {
		p = lpLastInRange(lp, &r)
	} else {
		p = lpFirstInRange(lp, &r)
	}
	for ; p >= 0 && limit != 0; p = stepPair(lp, p, reverse) {
		s := lpScore(lp, listpack.Next(lp, p))
		if (reverse && !r.gteMin(s)) || (!reverse && !r.lteMax(s)) {
			return
		}
		if offset > 0 {
			offset--
			continue
		}
		if !fn(lpMember(lp, p, scratch), s) {
			return
		}
		if limit > 0 {
			limit--
		}
	}
}

// RangeByLex calls fn with the members in r, as RangeByScore does for scores (ZRANGEBYLEX,
// ZREVRANGEBYLEX, ZRANGE BYLEX). As in Redis the order it relies on is the members' when all
// scores are equal; with different scores the result is what the walk meets.
func RangeByLex(a *alloc.Arena, rec alloc.Handle, r LexRange, reverse bool, offset, limit int, scratch []byte, fn func(member []byte, score float64) bool) {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		z.rangeByLex(&r, reverse, offset, limit, fn)
		return
	}
	if offset < 0 {
		return
	}
	lp := listpack.FromHandle(root).Bytes(a)
	scratch = scratchOf(scratch)
	var p int
	if reverse {
		p = lpLastInLex(lp, &r)
	} else {
		p = lpFirstInLex(lp, &r)
	}
	for ; p >= 0 && limit != 0; p = stepPair(lp, p, reverse) {
		m := lpMember(lp, p, scratch)
		if (reverse && !r.gteMin(m)) || (!reverse && !r.lteMax(m)) {
			return
		}
		if offset > 0 {
			offset--
			continue
		}
		if !fn(m, lpScore(lp, listpack.Next(lp, p))) {
			return
		}
		if limit > 0 {
			limit--
		}
	}
}

// stepPair moves to the next pair, or the previous one when reverse.
func stepPair(lp []byte, p int, reverse bool) int {
	if reverse {
		return lpPrevPair(lp, p)
	}
	return lpNextPair(lp, p)
}

// CountByScore is the number of members whose score is in r (ZCOUNT).
func CountByScore(a *alloc.Arena, rec alloc.Handle, r ScoreRange) int {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		return z.countByScore(&r)
	}
	lp := listpack.FromHandle(root).Bytes(a)
	n := 0
	for p := lpFirstInRange(lp, &r); p >= 0; p = lpNextPair(lp, p) {
		if !r.lteMax(lpScore(lp, listpack.Next(lp, p))) {
			break
		}
		n++
	}
	return n
}

// CountByLex is the number of members in r (ZLEXCOUNT).
func CountByLex(a *alloc.Arena, rec alloc.Handle, r LexRange) int {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		return z.countByLex(&r)
	}
	lp := listpack.FromHandle(root).Bytes(a)
	n := 0
	var buf [maxIntLen]byte
	for p := lpFirstInLex(lp, &r); p >= 0; p = lpNextPair(lp, p) {
		if !r.lteMax(lpMember(lp, p, buf[:0])) {
			break
		}
		n++
	}
	return n
}

// Each calls fn with every member of sorted-set record rec in score order.
func Each(a *alloc.Arena, rec alloc.Handle, scratch []byte, fn func(member []byte, score float64) bool) {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		if n := z.len(); n > 0 {
			z.rangeByRank(0, n-1, false, fn)
		}
		return
	}
	eachListpack(listpack.FromHandle(root).Bytes(a), scratch, fn)
}

// eachListpack calls fn with the pairs of lp until it returns false.
func eachListpack(lp, scratch []byte, fn func(member []byte, score float64) bool) {
	scratch = scratchOf(scratch)
	for p := listpack.First(lp); p >= 0; p = lpNextPair(lp, p) {
		if !fn(lpMember(lp, p, scratch), lpScore(lp, listpack.Next(lp, p))) {
			return
		}
	}
}

// Scan is ZSCAN's walk of sorted-set record rec from cursor: it calls fn with members and
// returns the cursor to continue from, 0 when done. A listpack is returned whole in one call,
// whatever the cursor and count, with cursor 0, as Redis does; a skiplist is scanned through its
// hash table with Redis's guarantees (every member present for the whole scan is returned at
// least once), about count members a call.
func Scan(a *alloc.Arena, rec alloc.Handle, cursor uint64, count int, scratch []byte, fn func(member []byte, score float64)) uint64 {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		return z.scan(cursor, count, fn)
	}
	eachListpack(listpack.FromHandle(root).Bytes(a), scratch, func(m []byte, s float64) bool {
		fn(m, s)
		return true
	})
	return 0
}
