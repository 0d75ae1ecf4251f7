package conv

import "math"

// Strtoll is C's strtoll over a whole text, as Redis's callers use it (config.c's numeric
// settings, the save and client-output-buffer-limit arguments, the port): leading white space
// (IsSpace), an optional '+' or '-', then digits of base (2 to 10). It returns the value,
// whether all of s was consumed (C's *endptr == '\0') and whether it overflowed (errno ==
// ERANGE; the value then saturates at math.MinInt64 or math.MaxInt64). With no digits at all
// nothing is consumed, so of those texts only "" is "whole".
func Strtoll[T Text](s T, base int) (v int64, whole, overflow bool) {
	u, neg, whole, overflow := strtoull(s, base)
	switch {
	case neg && (overflow || u > 1<<63):
		return math.MinInt64, whole, true
	case neg:
		return int64(-u), whole, false // two's complement: -(1<<63) is math.MinInt64
	case overflow || u > math.MaxInt64:
		return math.MaxInt64, whole, true
	}
	return int64(u), whole, false
}

// Strtoull is C's strtoull over a whole text (SCAN's cursor: parseScanCursorOrReply): leading
// white space, an optional sign — a '-' negates the value modulo 2⁶⁴, as C does — then digits
// of base (2 to 10). whole and overflow are as Strtoll's; an overflow saturates at
// math.MaxUint64.
func Strtoull[T Text](s T, base int) (v uint64, whole, overflow bool) {
	u, neg, whole, overflow := strtoull(s, base)
	switch {
	case overflow:
		return math.MaxUint64, whole, true
	case neg:
		return -u, whole, false
	}
	return u, whole, false
}

// strtoull scans s as strtoull does, returning the magnitude and sign apart.
func strtoull[T Text](s T, base int) (u uint64, neg, whole, overflow bool) {
	i := 0
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for ; i < len(s); i++ {
		d := int(s[i]) - '0'
		if d < 0 || d >= base {
			break
		}
		if overflow {
			continue
		}
		if u > (math.MaxUint64-uint64(d))/uint64(base) {
			overflow = true
		} else {
			u = u*uint64(base) + uint64(d)
		}
	}
	if i == start {
		return 0, false, len(s) == 0, false
	}
	return u, neg, i == len(s), overflow
}
