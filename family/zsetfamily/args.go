package zsetfamily

import (
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/zsetval"
)

// The option grammars of the family, each parsed in one loop in Redis's order so that the
// errors come as Redis's: ZADD's flags (zaddGenericCommand), ZRANGE's (zrangeGenericCommand),
// and the set operations' WEIGHTS / AGGREGATE / WITHSCORES / LIMIT
// (zunionInterDiffGenericCommand). Tokens compare case-insensitively without allocating.

// zaddOptions are ZADD's flags and where its score-member pairs start.
type zaddOptions struct {
	nx, xx, gt, lt, incr, ch bool
	scoreIdx                 int // the argument of the first score
	pairs                    int // how many score-member pairs follow
}

// flags is zsetval's form of the options.
func (o zaddOptions) flags() zsetval.AddFlags {
	var f zsetval.AddFlags
	if o.nx {
		f |= zsetval.AddNX
	}
	if o.xx {
		f |= zsetval.AddXX
	}
	if o.gt {
		f |= zsetval.AddGT
	}
	if o.lt {
		f |= zsetval.AddLT
	}
	if o.incr {
		f |= zsetval.AddIncr
	}
	return f
}

// parseZaddOptions reads ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]
// (incr: ZINCRBY, INCR implied): flags in any order and repeated until the first argument
// that is none, then an even, non-zero number of arguments; then the incompatible flags. The
// scores are not read here (parseScores).
func parseZaddOptions(args querybuf.Args, incr bool) (zaddOptions, error) {
	o := zaddOptions{incr: incr, scoreIdx: 2}
flags:
	for ; o.scoreIdx < args.Len(); o.scoreIdx++ {
		opt := args.Arg(o.scoreIdx)
		switch {
		case conv.EqFold(opt, "nx"):
			o.nx = true
		case conv.EqFold(opt, "xx"):
			o.xx = true
		case conv.EqFold(opt, "ch"):
			o.ch = true
		case conv.EqFold(opt, "incr"):
			o.incr = true
		case conv.EqFold(opt, "gt"):
			o.gt = true
		case conv.EqFold(opt, "lt"):
			o.lt = true
		default:
			break flags
		}
	}
	elements := args.Len() - o.scoreIdx
	if elements%2 != 0 || elements == 0 {
		return o, replyerr.Syntax
	}
	o.pairs = elements / 2
	switch {
	case o.nx && o.xx:
		return o, errXXNX
	case o.gt && o.nx, o.lt && o.nx, o.gt && o.lt:
		return o, errGTLTNX // XX goes with GT or LT
	case o.incr && o.pairs > 1:
		return o, errIncrPair
	}
	return o, nil
}

// parseScores reads the scores of ZADD's pairs into dst (reused), all of them before the key
// is touched, as Redis does, so that the command does all or nothing; it also returns the
// longest member's length (zsetTypeCreate's hint).
func parseScores(args querybuf.Args, o zaddOptions, dst []float64) ([]float64, int, error) {
	dst = dst[:0]
	maxLen := 0
	for j := 0; j < o.pairs; j++ {
		s, ok := zsetval.ParseScore(args.Arg(o.scoreIdx + 2*j))
		if !ok {
			return nil, 0, replyerr.NotFloat
		}
		dst = append(dst, s)
		maxLen = max(maxLen, len(args.Arg(o.scoreIdx+2*j+1)))
	}
	return dst, maxLen, nil
}

// rangeKind is what a ZRANGE range is of: ranks, scores or members (lex).
type rangeKind uint8

const (
	rangeAuto  rangeKind = iota // ZRANGE / ZRANGESTORE: BYSCORE or BYLEX may say, else ranks
	rangeRank                   // ZRANGE's default, ZREVRANGE
	rangeScore                  // BYSCORE, Z[REV]RANGEBYSCORE
	rangeLex                    // BYLEX, Z[REV]RANGEBYLEX
)

// direction is a ZRANGE's order.
type direction uint8

const (
	dirAuto    direction = iota // ZRANGE / ZRANGESTORE: REV may say, else forward
	dirForward                  // ZRANGEBYSCORE, ZRANGEBYLEX
	dirReverse                  // ZREV… commands
)

// rangeOptions is a parsed ZRANGE-family command line.
type rangeOptions struct {
	kind       rangeKind
	reverse    bool
	withScores bool
	offset     int64 // LIMIT's offset, 0 without LIMIT
	limit      int64 // LIMIT's count, -1 (all) without LIMIT; a negative count is all too
	start, end int64 // a rank range, not yet normalised
	score      zsetval.ScoreRange
	lex        zsetval.LexRange
}

// parseRangeOptions is the first two steps of zrangeGenericCommand for a line whose source
// key is at keyIdx: the options after <key> <min> <max> (WITHSCORES but for a store, LIMIT
// with two more arguments, REV / BYSCORE / BYLEX where the command leaves them open), the
// defaults, the conflicts, then the range itself — min and max swapped for a reversed score or
// lex range, which is given as max min.
func parseRangeOptions(args querybuf.Args, keyIdx int, store bool, kind rangeKind, dir direction) (rangeOptions, error) {
	o := rangeOptions{limit: -1}
	minIdx, maxIdx := keyIdx+1, keyIdx+2
	for j := keyIdx + 3; j < args.Len(); j++ {
		left := args.Len() - j - 1
		arg := args.Arg(j)
		switch {
		case !store && conv.EqFold(arg, "withscores"):
			o.withScores = true
		case conv.EqFold(arg, "limit") && left >= 2:
			var ok bool
			if o.offset, ok = conv.String2ll(args.Arg(j + 1)); !ok {
				return o, replyerr.NotInteger
			}
			if o.limit, ok = conv.String2ll(args.Arg(j + 2)); !ok {
				return o, replyerr.NotInteger
			}
			j += 2
		case dir == dirAuto && conv.EqFold(arg, "rev"):
			dir = dirReverse
		case kind == rangeAuto && conv.EqFold(arg, "bylex"):
			kind = rangeLex
		case kind == rangeAuto && conv.EqFold(arg, "byscore"):
			kind = rangeScore
		default:
			return o, replyerr.Syntax
		}
	}
	if kind == rangeAuto {
		kind = rangeRank
	}
	o.kind, o.reverse = kind, dir == dirReverse
	// Redis tests the count, not the presence of LIMIT: "LIMIT 0 -1" passes with ranks.
	if o.limit != -1 && kind == rangeRank {
		return o, errLimitRank
	}
	if o.withScores && kind == rangeLex {
		return o, errScoresLex
	}
	if o.reverse && kind != rangeRank {
		minIdx, maxIdx = maxIdx, minIdx
	}
	var ok bool
	switch kind {
	case rangeRank:
		if o.start, ok = conv.String2ll(args.Arg(minIdx)); !ok {
			return o, replyerr.NotInteger
		}
		if o.end, ok = conv.String2ll(args.Arg(maxIdx)); !ok {
			return o, replyerr.NotInteger
		}
	case rangeScore:
		if o.score, ok = zsetval.ParseScoreRange(args.Arg(minIdx), args.Arg(maxIdx)); !ok {
			return o, errMinMaxFloat
		}
	case rangeLex:
		if o.lex, ok = zsetval.ParseLexRange(args.Arg(minIdx), args.Arg(maxIdx)); !ok {
			return o, errMinMaxLex
		}
	}
	return o, nil
}

// normalizeRanks is Redis's sanitising of a rank range over a set of length n: negative
// ranks count from the end, start is clamped at 0 and end at n-1; ok false when the range is
// empty.
func normalizeRanks(start, end int64, n int) (int, int, bool) {
	l := int64(n)
	if start < 0 {
		start += l
	}
	if end < 0 {
		end += l
	}
	start = max(start, 0)
	if start > end || start >= l {
		return 0, 0, false
	}
	end = min(end, l-1)
	return int(start), int(end), true
}

// setOp is the operation of ZUNION, ZINTER, ZDIFF and their STORE forms.
type setOp uint8

const (
	opUnion setOp = iota
	opInter
	opDiff
)

// aggregate is how a member's scores from several inputs combine.
type aggregate uint8

const (
	aggSum aggregate = iota
	aggMin
	aggMax
)

// setOpOptions are the options after a set operation's keys.
type setOpOptions struct {
	weights    []float64 // one per key, 1 unless WEIGHTS
	agg        aggregate
	withScores bool
	limit      int64 // ZINTERCARD's LIMIT; 0: none
}

// parseNumkeys reads a set operation's numkeys at idx (getLongFromObjectOrReply): at least 1
// (else Redis's message naming the command), and no more than the arguments after it.
func parseNumkeys(args querybuf.Args, idx int, fullName string) (int, error) {
	n, ok := conv.String2ll(args.Arg(idx))
	switch {
	case !ok:
		return 0, replyerr.NotInteger
	case n < 1:
		return 0, errAtLeastOneKey(fullName)
	case n > int64(args.Len()-(idx+1)):
		return 0, replyerr.Syntax
	}
	return int(n), nil
}

// parseSetOpOptions reads the options from argument j on for numkeys inputs: WEIGHTS with one
// float per key and AGGREGATE SUM|MIN|MAX (not for ZDIFF nor ZINTERCARD), WITHSCORES (not for
// a store nor ZINTERCARD), LIMIT (ZINTERCARD only), repeated as Redis allows; weights is
// reused as the weights' room.
func parseSetOpOptions(args querybuf.Args, j, numkeys int, op setOp, store, cardOnly bool, weights []float64) (setOpOptions, error) {
	o := setOpOptions{weights: weights[:0]}
	for range numkeys {
		o.weights = append(o.weights, 1)
	}
	for j < args.Len() {
		remaining := args.Len() - j
		arg := args.Arg(j)
		switch {
		case op != opDiff && !cardOnly && remaining >= numkeys+1 && conv.EqFold(arg, "weights"):
			j++
			for i := range numkeys {
				w, ok := zsetval.ParseScore(args.Arg(j))
				if !ok {
					return o, errWeightFloat
				}
				o.weights[i] = w
				j++
			}
		case op != opDiff && !cardOnly && remaining >= 2 && conv.EqFold(arg, "aggregate"):
			switch a := args.Arg(j + 1); {
			case conv.EqFold(a, "sum"):
				o.agg = aggSum
			case conv.EqFold(a, "min"):
				o.agg = aggMin
			case conv.EqFold(a, "max"):
				o.agg = aggMax
			default:
				return o, replyerr.Syntax
			}
			j += 2
		case !store && !cardOnly && conv.EqFold(arg, "withscores"):
			o.withScores = true
			j++
		case cardOnly && remaining >= 2 && conv.EqFold(arg, "limit"):
			l, ok := conv.String2ll(args.Arg(j + 1))
			if !ok || l < 0 {
				return o, errLimitNegative
			}
			o.limit = l
			j += 2
		default:
			return o, replyerr.Syntax
		}
	}
	return o, nil
}
