package zsetval

import (
	"math"
	"strconv"

	"github.com/kvserver/kvserver/conv"
)

// strtod is C's strtod (glibc's) over s: it returns the value of the longest prefix of s that
// is a floating-point number, the number of bytes that prefix takes (0 when there is none: the
// value is then 0, as strtod's), and erange when the value overflowed to ±Inf or underflowed to
// 0 from non-zero digits (errno ERANGE with HUGE_VAL or a zero result, what Redis's
// getDoubleFromObject refuses). Accepted: leading white space (isspace), a sign, "inf" or
// "infinity" and "nan" or "nan(chars)" in any case, decimal digits with an optional point and
// an optional exponent (e, sign, digits), and "0x" hexadecimal digits with an optional point and
// an optional binary exponent (p, sign, digits).
func strtod(s []byte) (f float64, n int, erange bool) {
	i := 0
	for i < len(s) && conv.IsSpace(s[i]) {
		i++
	}
	start := i
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	sign := func(v float64) float64 {
		if neg {
			return -v
		}
		return v
	}
	if i < len(s) && (s[i]|0x20 == 'i' || s[i]|0x20 == 'n') {
		rest := s[i:]
		switch {
		case hasPrefixFold(rest, "infinity"):
			return sign(math.Inf(1)), i + 8, false
		case hasPrefixFold(rest, "inf"):
			return sign(math.Inf(1)), i + 3, false
		case hasPrefixFold(rest, "nan"):
			j := i + 3
			if j < len(s) && s[j] == '(' {
				k := j + 1
				for k < len(s) && (isAlnum(s[k]) || s[k] == '_') {
					k++
				}
				if k < len(s) && s[k] == ')' {
					j = k + 1
				}
			}
			return math.NaN(), j, false
		}
		return 0, 0, false
	}
	if i+1 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' {
		if v, m, er, ok := scanHex(s, i+2, neg); ok {
			return v, m, er
		}
		// "0x" without hex digits: the "0" alone.
		return sign(0), i + 1, false
	}
	// Decimal: digits [. digits] [e [sign] digits], at least one digit in the mantissa.
	j := i
	digits, nonzero := 0, false
	for j < len(s) && isDigit(s[j]) {
		nonzero = nonzero || s[j] != '0'
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isDigit(s[j]) {
			nonzero = nonzero || s[j] != '0'
			j++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	if j < len(s) && s[j]|0x20 == 'e' {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	v, err := strconv.ParseFloat(string(s[start:j]), 64)
	if err != nil && !math.IsInf(v, 0) {
		// A well-formed prefix always parses; a huge exponent is ErrRange with ±Inf or 0.
		return 0, 0, false
	}
	return v, j, math.IsInf(v, 0) || (v == 0 && nonzero)
}

// scanHex reads hexadecimal digits [. digits] [p [sign] digits] from s[i:] (after "0x");
// ok false when there is no hex digit.
func scanHex(s []byte, i int, neg bool) (f float64, n int, erange, ok bool) {
	j := i
	digits, nonzero := 0, false
	for j < len(s) && isHex(s[j]) {
		nonzero = nonzero || s[j] != '0'
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isHex(s[j]) {
			nonzero = nonzero || s[j] != '0'
			j++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0, false, false
	}
	mant := s[i:j]
	exp := []byte("p0")
	if j < len(s) && s[j]|0x20 == 'p' {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			exp = s[j:k]
			j = k
		}
	}
	var buf [64]byte
	text := append(buf[:0], "0x"...)
	if neg {
		text = append(buf[:0], "-0x"...)
	}
	text = append(text, mant...)
	if mant[len(mant)-1] == '.' {
		text = text[:len(text)-1] // Go wants a digit after the point
	}
	text = append(text, exp...)
	v, err := strconv.ParseFloat(string(text), 64)
	if err != nil && !math.IsInf(v, 0) && v != 0 {
		return 0, 0, false, false
	}
	return v, j, math.IsInf(v, 0) || (v == 0 && nonzero), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
func isAlnum(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z') }

// hasPrefixFold reports whether s starts with the lower-case ASCII word p, in any case.
func hasPrefixFold(s []byte, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if s[i]|0x20 != p[i] {
			return false
		}
	}
	return true
}
