package zsetval

import (
	"bytes"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/resp"
)

// The listpack encoding (t_zset.c's zzl* functions): member, score pairs in score order, ties
// by member bytes. A score is written as zzlInsertAt writes it: an integral score in
// [-2^62, 2^62] as an integer entry, any other as its d2string text (Redis 7.2's shortest
// round-trip form, resp.AppendDouble); a member as any listpack string (an integer entry when it
// is an integer's canonical text).

// maxIntLen is the longest decimal int64 ("-9223372036854775808").
const maxIntLen = 20

// maxScoreText is the longest score text AppendDouble writes (25) with room to spare.
const maxScoreText = 32

// double2ll is util.c's double2ll: an integral d in [-2^62, 2^62] as an int64.
func double2ll(d float64) (int64, bool) {
	if d < -(1<<62) || d > 1<<62 {
		return 0, false
	}
	ll := int64(d)
	return ll, float64(ll) == d
}

// appendScore appends the text zzlInsertAt stores for score (the listpack makes it an integer
// entry when it is one).
func appendScore(dst []byte, score float64) []byte {
	if ll, ok := double2ll(score); ok {
		return strconv.AppendInt(dst, ll, 10)
	}
	return resp.AppendDouble(dst, score)
}

// lpScore is the score at p (zzlGetScore): an integer entry, or text parsed as strtod does.
func lpScore(lp []byte, p int) float64 {
	s, v, isInt := listpack.Get(lp, p)
	if isInt {
		return float64(v)
	}
	f, _, _ := strtod(s)
	return f
}

// lpMember returns the member at p: a view, or an integer formatted into scratch[:0].
func lpMember(lp []byte, p int, scratch []byte) []byte {
	s, v, isInt := listpack.Get(lp, p)
	if isInt {
		return strconv.AppendInt(scratch[:0], v, 10)
	}
	return s
}

// lpCompare compares the member at p with m as bytes (zzlCompareElements).
func lpCompare(lp []byte, p int, m []byte) int {
	var buf [maxIntLen]byte
	return bytes.Compare(lpMember(lp, p, buf[:0]), m)
}

// lpFind returns the offset of member m in lp and its score, or -1 (zzlFind).
func lpFind(lp, m []byte) (int, float64) {
	p := listpack.First(lp)
	if p < 0 {
		return -1, 0
	}
	p = listpack.Find(lp, p, m, 1)
	if p < 0 {
		return -1, 0
	}
	return p, lpScore(lp, listpack.Next(lp, p))
}

// lpPairs is the number of pairs of lp.
func lpPairs(lp []byte) int { return listpack.Len(lp) / 2 }

// scratchOf returns scratch if it can hold a formatted integer, else a new buffer.
func scratchOf(scratch []byte) []byte {
	if cap(scratch) < maxIntLen {
		return make([]byte, 0, maxIntLen)
	}
	return scratch[:0]
}

// lpInsert inserts member m (not present) with score into l in order (zzlInsert) and returns
// the listpack, which may have moved. Without memory l is unchanged.
func lpInsert(a *alloc.Arena, l listpack.Listpack, m []byte, score float64) (listpack.Listpack, error) {
	lp := l.Bytes(a)
	at := -1 // the pair to insert before; -1 appends
	for p := listpack.First(lp); p >= 0; {
		sp := listpack.Next(lp, p)
		s := lpScore(lp, sp)
		if s > score || (s == score && lpCompare(lp, p, m) > 0) {
			at = p
			break
		}
		p = listpack.Next(lp, sp)
	}
	var buf [maxScoreText]byte
	text := appendScore(buf[:0], score)
	var (
		nl  listpack.Listpack
		mp  int
		err error
	)
	if at < 0 {
		mp = listpack.TotalBytes(lp) - 1
		nl, err = l.Append(a, m)
	} else {
		nl, mp, err = l.Insert(a, at, listpack.Before, m)
	}
	if err != nil {
		return l, object.ErrOOM
	}
	nl2, _, err := nl.Insert(a, mp, listpack.After, text)
	if err != nil {
		// Take the member back out; a failed shrink leaves a bigger allocation, still valid.
		if back, _, derr := nl.DeleteEntries(a, mp, 1); derr == nil {
			nl = back
		}
		return nl, object.ErrOOM
	}
	return nl2, nil
}

// lpFirstInRange returns the offset of the first member whose score is in r, or -1
// (zzlFirstInRange).
func lpFirstInRange(lp []byte, r *ScoreRange) int {
	if r.empty() {
		return -1
	}
	for p := listpack.First(lp); p >= 0; {
		sp := listpack.Next(lp, p)
		s := lpScore(lp, sp)
		if r.gteMin(s) {
			if r.lteMax(s) {
				return p
			}
			return -1
		}
		p = listpack.Next(lp, sp)
	}
	return -1
}

// lpLastInRange returns the offset of the last member whose score is in r, or -1
// (zzlLastInRange).
func lpLastInRange(lp []byte, r *ScoreRange) int {
	if r.empty() {
		return -1
	}
	for sp := listpack.Last(lp); sp >= 0; {
		p := listpack.Prev(lp, sp)
		s := lpScore(lp, sp)
		if r.lteMax(s) {
			if r.gteMin(s) {
				return p
			}
			return -1
		}
		sp = listpack.Prev(lp, p)
	}
	return -1
}

// lpFirstInLex returns the offset of the first member at or above r's minimum when it is also
// at or below its maximum, or -1 (zzlFirstInLexRange).
func lpFirstInLex(lp []byte, r *LexRange) int {
	if r.empty() {
		return -1
	}
	var buf [maxIntLen]byte
	for p := listpack.First(lp); p >= 0; {
		m := lpMember(lp, p, buf[:0])
		if r.gteMin(m) {
			if r.lteMax(m) {
				return p
			}
			return -1
		}
		p = listpack.Next(lp, listpack.Next(lp, p))
	}
	return -1
}

// lpLastInLex returns the offset of the last member at or below r's maximum when it is also at
// or above its minimum, or -1 (zzlLastInLexRange).
func lpLastInLex(lp []byte, r *LexRange) int {
	if r.empty() {
		return -1
	}
	var buf [maxIntLen]byte
	for sp := listpack.Last(lp); sp >= 0; {
		p := listpack.Prev(lp, sp)
		m := lpMember(lp, p, buf[:0])
		if r.lteMax(m) {
			if r.gteMin(m) {
				return p
			}
			return -1
		}
		sp = listpack.Prev(lp, p)
	}
	return -1
}

// lpPrevPair returns the offset of the member before the one at p, or -1.
func lpPrevPair(lp []byte, p int) int {
	sp := listpack.Prev(lp, p)
	if sp < 0 {
		return -1
	}
	return listpack.Prev(lp, sp)
}

// lpNextPair returns the offset of the member after the one at p, or -1.
func lpNextPair(lp []byte, p int) int {
	return listpack.Next(lp, listpack.Next(lp, p))
}

// lpIndex is the pair index (rank) of the member at p: a walk from the start.
func lpIndex(lp []byte, p int) int {
	i := 0
	for q := listpack.First(lp); q >= 0 && q < p; q = lpNextPair(lp, q) {
		i++
	}
	return i
}
