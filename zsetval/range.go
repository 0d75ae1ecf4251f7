package zsetval

import (
	"bytes"
	"math"

	"github.com/kvserver/kvserver/conv"
)

// Parsing of scores and ranges, by Redis's rules (t_zset.c, object.c). Functions report only
// whether the text is valid: the family answers Redis's error texts.

// ParseScore parses a score argument (ZADD, ZINCRBY) as Redis's getDoubleFromObject: strtod
// over the whole argument, which must not be empty or start with white space; "inf", "+inf",
// "-inf" (and "infinity", any case) are valid; NaN, overflow (1e400) and underflow to zero
// (1e-400) are not.
func ParseScore(arg []byte) (float64, bool) {
	if len(arg) == 0 || conv.IsSpace(arg[0]) {
		return 0, false
	}
	f, n, erange := strtod(arg)
	if n != len(arg) || erange || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// ScoreRange is a score interval (zrangespec): Min and Max, each exclusive when its Ex is set.
type ScoreRange struct {
	Min, Max     float64
	MinEx, MaxEx bool
}

// ParseScoreRange parses the min and max arguments of ZRANGEBYSCORE, ZCOUNT… as zslParseRange:
// an optional "(" (exclusive) then strtod, which here allows leading white space, overflow to
// ±inf and the empty string (0), and stops at a NUL byte; false (ERR min or max is not a float)
// when bytes are left over or the value is NaN.
func ParseScoreRange(min, max []byte) (ScoreRange, bool) {
	var r ScoreRange
	var ok bool
	if r.Min, r.MinEx, ok = parseRangeItem(min); !ok {
		return r, false
	}
	if r.Max, r.MaxEx, ok = parseRangeItem(max); !ok {
		return r, false
	}
	return r, true
}

// parseRangeItem is one bound of zslParseRange.
func parseRangeItem(arg []byte) (f float64, ex, ok bool) {
	if len(arg) > 0 && arg[0] == '(' {
		arg, ex = arg[1:], true
	}
	f, n, _ := strtod(arg)
	if (n != len(arg) && arg[n] != 0) || math.IsNaN(f) {
		return 0, false, false
	}
	return f, ex, true
}

// gteMin reports whether score s is at or above the range's minimum (zslValueGteMin).
func (r *ScoreRange) gteMin(s float64) bool {
	if r.MinEx {
		return s > r.Min
	}
	return s >= r.Min
}

// lteMax reports whether score s is at or below the range's maximum (zslValueLteMax).
func (r *ScoreRange) lteMax(s float64) bool {
	if r.MaxEx {
		return s < r.Max
	}
	return s <= r.Max
}

// empty reports a range no score can be in (min > max, or min == max with an exclusive end).
func (r *ScoreRange) empty() bool {
	return r.Min > r.Max || (r.Min == r.Max && (r.MinEx || r.MaxEx))
}

// LexRange is a member interval (zlexrangespec): a bound is "-" (Inf -1: below every member),
// "+" (Inf 1: above every member), or a member, exclusive when its Ex is set ("(a") else
// inclusive ("[a"). The bytes are views of the arguments.
type LexRange struct {
	Min, Max       []byte
	MinEx, MaxEx   bool
	MinInf, MaxInf int8
}

// ParseLexRange parses the min and max arguments of ZRANGEBYLEX, ZLEXCOUNT… as
// zslParseLexRange: "-" or "+" alone, or "(" or "[" then the member; false (ERR min or max not
// valid string range item) otherwise.
func ParseLexRange(min, max []byte) (LexRange, bool) {
	var r LexRange
	var ok bool
	if r.Min, r.MinEx, r.MinInf, ok = parseLexItem(min); !ok {
		return r, false
	}
	if r.Max, r.MaxEx, r.MaxInf, ok = parseLexItem(max); !ok {
		return r, false
	}
	return r, true
}

// parseLexItem is zslParseLexRangeItem.
func parseLexItem(arg []byte) (m []byte, ex bool, inf int8, ok bool) {
	if len(arg) == 0 {
		return nil, false, 0, false
	}
	switch arg[0] {
	case '+':
		return nil, true, 1, len(arg) == 1
	case '-':
		return nil, true, -1, len(arg) == 1
	case '(':
		return arg[1:], true, 0, true
	case '[':
		return arg[1:], false, 0, true
	}
	return nil, false, 0, false
}

// cmpBound compares member m with a bound (sdscmplex with the shared min and max strings).
func cmpBound(m, b []byte, inf int8) int {
	if inf != 0 {
		return -int(inf)
	}
	return bytes.Compare(m, b)
}

// gteMin reports whether member m is at or above the range's minimum (zslLexValueGteMin).
func (r *LexRange) gteMin(m []byte) bool {
	c := cmpBound(m, r.Min, r.MinInf)
	if r.MinEx {
		return c > 0
	}
	return c >= 0
}

// lteMax reports whether member m is at or below the range's maximum (zslLexValueLteMax).
func (r *LexRange) lteMax(m []byte) bool {
	c := cmpBound(m, r.Max, r.MaxInf)
	if r.MaxEx {
		return c < 0
	}
	return c <= 0
}

// empty reports a range no member can be in (zslIsInLexRange's first test: min > max, or
// min == max with an exclusive end; "-" equals "-" and "+" equals "+").
func (r *LexRange) empty() bool {
	var c int
	switch {
	case r.MinInf != 0 || r.MaxInf != 0:
		c = int(r.MinInf) - int(r.MaxInf)
		if r.MinInf == 0 {
			c = -int(r.MaxInf)
		} else if r.MaxInf == 0 {
			c = int(r.MinInf)
		}
	default:
		c = bytes.Compare(r.Min, r.Max)
	}
	return c > 0 || (c == 0 && (r.MinEx || r.MaxEx))
}
