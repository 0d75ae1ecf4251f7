package zsetval

import (
	"math"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// New makes the record of key holding an empty sorted set, with expire expireMs (unix ms, 0 for
// none), encoded as zsetTypeCreate chooses for sizeHint members of at most maxElemLen bytes:
// a listpack within zset-max-listpack-entries and zset-max-listpack-value, else a skiplist.
// The caller inserts it into the keyspace. Without memory it returns object.ErrOOM.
func New(a *alloc.Arena, key []byte, sizeHint, maxElemLen int, expireMs int64) (alloc.Handle, error) {
	if sizeHint <= maxEntries() && maxElemLen <= maxValue() {
		lp := listpack.New(a)
		if lp.IsNil() {
			return 0, object.ErrOOM
		}
		rec, err := object.NewCollection(a, key, object.TypeZSet, object.EncListpack, lp.Handle(), expireMs)
		if err != nil {
			lp.Free(a)
			return 0, err
		}
		return rec, nil
	}
	// The table is not presized for sizeHint: Adds one by one would shrink it back at once.
	root, err := createSkiplist(a, 0)
	if err != nil {
		return 0, err
	}
	rec, err := object.NewCollection(a, key, object.TypeZSet, object.EncSkiplist, root, expireMs)
	if err != nil {
		freeSkiplist(a, root)
		return 0, err
	}
	return rec, nil
}

// MaybeConvert is zsetTypeMaybeConvert, which ZADD runs on a set that exists before adding its
// sizeHint members whose longest has maxElemLen bytes: a listpack becomes a skiplist sized for
// sizeHint when sizeHint passes zset-max-listpack-entries or maxElemLen passes
// zset-max-listpack-value, even if the members are already there (as in Redis). Without memory
// it returns object.ErrOOM and the set stays a listpack.
func MaybeConvert(a *alloc.Arena, rec alloc.Handle, sizeHint, maxElemLen int) error {
	if Encoding(a, rec) == object.EncListpack && (sizeHint > maxEntries() || maxElemLen > maxValue()) {
		err := convertToSkiplist(a, rec, sizeHint)
		checkZset(a, rec)
		return err
	}
	return nil
}

// Len is the number of members of sorted-set record rec.
func Len(a *alloc.Arena, rec alloc.Handle) int {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		return lpPairs(listpack.FromHandle(root).Bytes(a))
	}
	z := openRanks(a, root)
	return z.len()
}

// Encoding is rec's encoding: object.EncListpack or object.EncSkiplist.
func Encoding(a *alloc.Arena, rec alloc.Handle) object.Encoding {
	enc, _ := object.Root(a, rec)
	return enc
}

// AddFlags are ZADD's options (zsetAdd's in flags), as bits.
type AddFlags uint8

// The options of Add.
const (
	AddNX   AddFlags = 1 << iota // only add new members
	AddXX                        // only update present members
	AddGT                        // update only to a greater score
	AddLT                        // update only to a lower score
	AddIncr                      // add score to the present one (0 when absent)
)

// AddResult is what Add did (zsetAdd's out flags), as bits. Zero means the member was there and
// its score stayed the same, which still counts as processed (ZADD INCR answers the score).
type AddResult uint8

// Add's results.
const (
	AddNop     AddResult = 1 << iota // NX, XX, GT or LT refused the write
	AddAdded                         // the member is new
	AddUpdated                       // the member's score changed
	AddNaN                           // the score (or the sum of INCR) is NaN: nothing written
)

// Add is zsetAdd: it adds member with score to sorted-set record rec, or updates its score,
// according to flags, and returns the member's score after the write (with AddIncr, the sum)
// and what happened. A listpack converts to a skiplist before adding a member when it would
// pass zset-max-listpack-entries, when the member is longer than zset-max-listpack-value or
// when the listpack could pass listpack.MaxSafetySize. Without memory it returns object.ErrOOM
// with the set unchanged.
func Add(a *alloc.Arena, rec alloc.Handle, member []byte, score float64, flags AddFlags) (newScore float64, res AddResult, err error) {
	if math.IsNaN(score) {
		return 0, AddNaN, nil
	}
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		l := listpack.FromHandle(root)
		lp := l.Bytes(a)
		p, cur := lpFind(lp, member)
		if p >= 0 {
			score, res = updateScore(cur, score, flags)
			if res&(AddNop|AddNaN) != 0 || res == 0 {
				return score, res, nil
			}
			// Delete and insert again at the new score's place.
			nl, _, derr := l.DeleteEntries(a, p, 2)
			if derr != nil {
				return 0, 0, object.ErrOOM
			}
			nl2, ierr := lpInsert(a, nl, member, score)
			setListpackRoot(a, rec, root, nl2)
			if ierr != nil {
				// The member is gone: put it back at its old score (in the space just freed).
				if back, berr := lpInsert(a, nl2, member, cur); berr == nil {
					setListpackRoot(a, rec, nl2.Handle(), back)
				}
				return 0, 0, ierr
			}
			checkZset(a, rec)
			return score, AddUpdated, nil
		}
		if flags&AddXX != 0 {
			return 0, AddNop, nil
		}
		if lpPairs(lp)+1 > maxEntries() || len(member) > maxValue() || !listpack.SafeToAdd(lp, len(member)) {
			if err := convertToSkiplist(a, rec, lpPairs(lp)+1); err != nil {
				return 0, 0, err
			}
			enc, root = object.Root(a, rec)
		}
		if enc == object.EncListpack {
			nl, err := lpInsert(a, l, member, score)
			setListpackRoot(a, rec, root, nl)
			if err != nil {
				return 0, 0, err
			}
			checkZset(a, rec)
			return score, AddAdded, nil
		}
	}
	z := openSkiplist(a, root)
	newScore, res, err = z.add(member, score, flags)
	checkZset(a, rec)
	return newScore, res, err
}

// updateScore applies flags to a present member's score cur and the argument score: the score
// to write and AddUpdated, or the result to return as is (AddNop, AddNaN, or 0 when the score
// does not change).
func updateScore(cur, score float64, flags AddFlags) (float64, AddResult) {
	if flags&AddNX != 0 {
		return cur, AddNop
	}
	if flags&AddIncr != 0 {
		score += cur
		if math.IsNaN(score) {
			return 0, AddNaN
		}
	}
	if (flags&AddLT != 0 && score >= cur) || (flags&AddGT != 0 && score <= cur) {
		return cur, AddNop
	}
	if score == cur {
		return score, 0
	}
	return score, AddUpdated
}

// setListpackRoot stores listpack l in record rec when a write moved it from old.
func setListpackRoot(a *alloc.Arena, rec, old alloc.Handle, l listpack.Listpack) {
	if l.Handle() != old {
		object.SetRoot(a, rec, object.EncListpack, l.Handle())
	}
}

// Remove deletes member from sorted-set record rec and reports whether it was there (the
// caller deletes the key when Len is then 0). A listpack that cannot shrink for want of memory
// keeps the member and reports false.
func Remove(a *alloc.Arena, rec alloc.Handle, member []byte) bool {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		l := listpack.FromHandle(root)
		p, _ := lpFind(l.Bytes(a), member)
		if p < 0 {
			return false
		}
		nl, _, err := l.DeleteEntries(a, p, 2)
		if err != nil {
			return false
		}
		setListpackRoot(a, rec, root, nl)
		checkZset(a, rec)
		return true
	}
	z := openSkiplist(a, root)
	ok := z.remove(member)
	checkZset(a, rec)
	return ok
}

// lpDeletePairs deletes n pairs from the member at p of the listpack of rec and returns n, or
// 0 when it could not shrink for want of memory.
func lpDeletePairs(a *alloc.Arena, rec, root alloc.Handle, p, n int) int {
	if p < 0 || n == 0 {
		return 0
	}
	l := listpack.FromHandle(root)
	nl, _, err := l.DeleteEntries(a, p, 2*n)
	if err != nil {
		return 0
	}
	setListpackRoot(a, rec, root, nl)
	checkZset(a, rec)
	return n
}

// RemoveRangeByRank deletes the members of ranks start to stop (0-based from the lowest,
// inclusive, normalised by the caller: 0 <= start <= stop < Len) and returns how many it
// deleted (ZREMRANGEBYRANK).
func RemoveRangeByRank(a *alloc.Arena, rec alloc.Handle, start, stop int) int {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		return lpDeletePairs(a, rec, root, listpack.Seek(lp, 2*start), stop-start+1)
	}
	z := openSkiplist(a, root)
	n := z.removeRangeByRank(start, stop)
	checkZset(a, rec)
	return n
}

// RemoveRangeByScore deletes the members whose score is in r and returns how many
// (ZREMRANGEBYSCORE).
func RemoveRangeByScore(a *alloc.Arena, rec alloc.Handle, r ScoreRange) int {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		first := lpFirstInRange(lp, &r)
		n := 0
		for p := first; p >= 0; p = lpNextPair(lp, p) {
			if !r.lteMax(lpScore(lp, listpack.Next(lp, p))) {
				break
			}
			n++
		}
		return lpDeletePairs(a, rec, root, first, n)
	}
	z := openSkiplist(a, root)
	n := z.removeRangeByScore(&r)
	checkZset(a, rec)
	return n
}

// RemoveRangeByLex deletes the members in r and returns how many (ZREMRANGEBYLEX).
func RemoveRangeByLex(a *alloc.Arena, rec alloc.Handle, r LexRange) int {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		first := lpFirstInLex(lp, &r)
		n := 0
		var buf [maxIntLen]byte
		for p := first; p >= 0; p = lpNextPair(lp, p) {
			if !r.lteMax(lpMember(lp, p, buf[:0])) {
				break
			}
			n++
		}
		return lpDeletePairs(a, rec, root, first, n)
	}
	z := openSkiplist(a, root)
	n := z.removeRangeByLex(&r)
	checkZset(a, rec)
	return n
}

// Pop removes up to count members of sorted-set record rec from the lowest (from the highest
// when max) and calls fn with each before it goes, in that order; it returns how many it
// removed (ZPOPMIN, ZPOPMAX, ZMPOP). The views are valid during the call; listpack integers are
// formatted into scratch. fn must not change the set.
func Pop(a *alloc.Arena, rec alloc.Handle, max bool, count int, scratch []byte, fn func(member []byte, score float64)) int {
	enc, root := object.Root(a, rec)
	if count <= 0 {
		return 0
	}
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		n := min(count, lpPairs(lp))
		if n == 0 {
			return 0
		}
		scratch = scratchOf(scratch)
		var p int
		if max {
			p = listpack.Prev(lp, listpack.Last(lp))
			for i := 0; i < n; i++ {
				fn(lpMember(lp, p, scratch), lpScore(lp, listpack.Next(lp, p)))
				if i < n-1 {
					p = lpPrevPair(lp, p)
				}
			}
		} else {
			p = listpack.First(lp)
			for i := 0; i < n; i++ {
				fn(lpMember(lp, p, scratch), lpScore(lp, listpack.Next(lp, p)))
				if i < n-1 {
					p = lpNextPair(lp, p)
				}
			}
			p = listpack.First(lp)
		}
		return lpDeletePairs(a, rec, root, p, n)
	}
	z := openSkiplist(a, root)
	n := z.pop(max, count, fn)
	checkZset(a, rec)
	return n
}
