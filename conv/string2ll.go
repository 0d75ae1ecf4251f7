package conv

import "math"

// Text is what the conversions read: an argument ([]byte) or a configuration word (string).
// Each conversion reads its input and keeps no reference to it.
type Text interface{ ~string | ~[]byte }

// longStrSize is Redis's LONG_STR_SIZE (21): string2ll refuses a text of this length or
// longer. The longest int64, "-9223372036854775808", has 20 bytes.
const longStrSize = 21

// String2ll is Redis's string2ll: s must be an int64 written the one way Redis writes it — an
// optional '-' (no '+'), digits without leading zeros ("0" itself excepted, "-0" refused), no
// spaces — within int64. Redis parses every integer argument with it (getLongLongFromObject),
// so "+1", "01" and " 1" are "value is not an integer or out of range"; its configuration
// parser and the protocol's length lines use it too.
func String2ll[T Text](s T) (int64, bool) {
	if len(s) == 0 || len(s) >= longStrSize {
		return 0, false
	}
	if len(s) == 1 && s[0] == '0' {
		return 0, true
	}
	i, neg := 0, false
	if s[0] == '-' {
		i, neg = 1, true
		if len(s) == 1 {
			return 0, false
		}
	}
	if s[i] < '1' || s[i] > '9' {
		return 0, false
	}
	var v uint64
	if len(s)-i < 20 {
		// At most 19 digits: below 10^19 < 2^64, so v cannot overflow — no check per digit
		// on the path of every length line the parser reads.
		for ; i < len(s); i++ {
			d := s[i] - '0'
			if d > 9 {
				return 0, false
			}
			v = v*10 + uint64(d)
		}
	} else {
		for ; i < len(s); i++ {
			d := s[i] - '0'
			if d > 9 || v > (math.MaxUint64-uint64(d))/10 {
				return 0, false
			}
			v = v*10 + uint64(d)
		}
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return int64(-v), true // two's complement: -(1<<63) is math.MinInt64
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}
