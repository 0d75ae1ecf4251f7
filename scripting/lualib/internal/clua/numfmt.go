package clua

import (
	"math"
	"strconv"
	"strings"
)

// nanBits is the NaN glibc's strtod returns for "nan" (Go's math.NaN has another payload).
const nanBits = 0x7FF8000000000000

// Strtod is glibc's strtod over s: the value of the longest prefix that reads as a number
// (spaces, a sign, then decimal digits with an optional exponent, hexadecimal "0x…" with an
// optional binary exponent, "inf", "infinity" or "nan[(…)]", any case) and the number of
// bytes it took; 0 bytes when s does not start with a number. Overflow gives ±Inf, as strtod.
func Strtod(s string) (f float64, n int) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	sign := func(v float64) float64 {
		if neg {
			return math.Copysign(v, -1)
		}
		return v
	}
	rest := s[i:]
	switch {
	case hasPrefixFold(rest, "infinity"):
		return sign(math.Inf(1)), i + 8
	case hasPrefixFold(rest, "inf"):
		return sign(math.Inf(1)), i + 3
	case hasPrefixFold(rest, "nan"):
		i += 3
		if i < len(s) && s[i] == '(' {
			j := i + 1
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				i = j + 1
			}
		}
		return sign(math.Float64frombits(nanBits)), i
	}
	if len(rest) >= 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') {
		if v, m, ok := hexFloat(rest[2:]); ok {
			return sign(v), i + 2 + m
		}
		// "0x" without hex digits: only the "0" is a number.
		return sign(0), i + 1
	}
	j := i
	digits := 0
	for j < len(s) && isDigit(s[j]) {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
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
	v, err := strconv.ParseFloat(s[start:j], 64)
	if err != nil && !isRange(err) {
		return 0, 0
	}
	return sign(v), j
}

// hexFloat reads hexadecimal digits with an optional fraction and "p" exponent (after the
// "0x"); ok is false when there is no digit.
func hexFloat(s string) (v float64, n int, ok bool) {
	j := 0
	digits := 0
	for j < len(s) && isHex(s[j]) {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isHex(s[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	mant := s[:j]
	exp := "p0"
	if j < len(s) && (s[j] == 'p' || s[j] == 'P') {
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
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	if strings.HasSuffix(mant, ".") {
		mant += "0"
	}
	v, err := strconv.ParseFloat("0x"+mant+exp, 64)
	if err != nil && !isRange(err) {
		return 0, 0, false
	}
	return v, j, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// FormatG is C's printf("%.<prec>g", f) as glibc writes it ("inf", "-nan", "1e+15").
func FormatG(f float64, prec int) string {
	return string(AppendG(nil, f, prec))
}

// AppendG appends FormatG(f, prec) to b.
func AppendG(b []byte, f float64, prec int) []byte {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return append(b, "-nan"...)
		}
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	if prec <= 0 {
		prec = 1
	}
	if prec >= 14 && f == math.Trunc(f) && math.Abs(f) < 1e14 && !(f == 0 && math.Signbit(f)) {
		return strconv.AppendInt(b, int64(f), 10)
	}
	var tmp [40]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', prec-1, 64)
	x := 0
	if k := strings.LastIndexByte(string(e), 'e'); k >= 0 {
		x, _ = strconv.Atoi(string(e[k+1:]))
	}
	start := len(b)
	if x < -4 || x >= prec {
		k := strings.LastIndexByte(string(e), 'e')
		mant := trimZeros(e[:k])
		b = append(b, mant...)
		b = append(b, e[k:]...)
		return b
	}
	b = strconv.AppendFloat(b, f, 'f', prec-1-x, 64)
	trimmed := trimZeros(b[start:])
	return b[:start+len(trimmed)]
}

// trimZeros drops the trailing zeros of a fraction, and its point when nothing is left.
func trimZeros(m []byte) []byte {
	if !strings.ContainsRune(string(m), '.') {
		return m
	}
	for len(m) > 0 && m[len(m)-1] == '0' {
		m = m[:len(m)-1]
	}
	if len(m) > 0 && m[len(m)-1] == '.' {
		m = m[:len(m)-1]
	}
	return m
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

func isAlnum(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z' }
