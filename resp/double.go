package resp

import (
	"math"
	"strconv"

	"github.com/tidwall/redcon"
)

// Double writes a double: ,text in RESP3, a bulk string of text in RESP2, where text is
// AppendDouble's form (Redis 7.2's addReplyDouble: d2string in both protocols).
func (w *Writer) Double(f float64) {
	var tmp [32]byte // AppendDouble writes at most 25 bytes
	text := AppendDouble(tmp[:0], f)
	if w.resp3() {
		w.buf = append(w.buf, ',')
		w.buf = append(w.buf, text...)
		w.buf = append(w.buf, '\r', '\n')
		return
	}
	w.buf = redcon.AppendBulk(w.buf, text)
}

// maxExactInt is (double)(LLONG_MAX/2) = 2^62: Redis's double2ll prints a double inside
// [-2^62, 2^62] with an integral value as an integer.
const maxExactInt = 1 << 62

// AppendDouble appends the text of f as Redis 7.2 prints a double in a reply (d2string in
// util.c, fpconv_dtoa in deps/fpconv), and returns the extended slice:
//
//   - NaN is "nan", the infinities "inf" and "-inf"; zeros are "0" and "-0".
//   - An integral value in [-2^62, 2^62] is printed as an integer: 1, -3, 1000000000000000000.
//   - Any other value is written from its shortest round-trip digits D (n of them) and the
//     exponent K with f = D × 10^K, and E = K+n-1 (the exponent of the first digit):
//     if K ≥ 0 and |E| < n+7, as an integer, D then K zeros (9223372036854776000);
//     if K < 0 and (K > -7 or |E| < 4), in positional notation (0.1, 1.5, 0.000001,
//     3.141592653589793, 0.0012345678901);
//     otherwise in exponent notation, d.ddde±X with the exponent unpadded (1e+21, 1e-7,
//     1.5e+300, 5e-324, 1.2345671234567e+6).
//   - A negative value is '-' and the form of its absolute value.
//
// The digits come from strconv (shortest, and closest among the shortest). fpconv_dtoa's
// Grisu2 finds the same digits for about 99.9% of doubles; for the rest it prints a longer
// string or a different last digit, which parses back to the same f (1e23: Redis
// 99999999999999990000000, here 1e+23; see TestAppendDoubleGrisuDifferences).
//
// The text is at most 25 bytes ('-', 17 digits, 7 zeros); AppendDouble does not allocate when
// dst has room for them. It is the form of Redis's double replies (ZSCORE, ZMSCORE, ZINCRBY,
// WITHSCORES) and of the score text d2string stores; it is not INCRBYFLOAT's, which Redis
// prints with ld2string(LD_STR_HUMAN): "%.17Lf" of a long double with trailing zeros trimmed,
// never an exponent. INFO's fixed formats ("%.2f") are not it either.
func AppendDouble(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	case f >= -maxExactInt && f <= maxExactInt && f == math.Trunc(f):
		return strconv.AppendInt(dst, int64(f), 10)
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}

	// Shortest digits in exponent form: d[.ddd]e±XX, at most 23 bytes.
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	var digits [17]byte
	n := 0
	i := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[n] = e[i]
			n++
		}
	}
	exp10 := 0 // E: the exponent of the first digit
	neg := e[i+1] == '-'
	for _, c := range e[i+2:] {
		exp10 = exp10*10 + int(c-'0')
	}
	if neg {
		exp10 = -exp10
	}
	return emitDigits(dst, digits[:n], exp10-n+1)
}

// emitDigits appends the number digits × 10^k as fpconv_dtoa's emit_digits does (see
// AppendDouble for the rules).
func emitDigits(dst, digits []byte, k int) []byte {
	n := len(digits)
	exp := abs(k + n - 1)

	// Integer: the digits and k zeros.
	if k >= 0 && exp < n+7 {
		dst = append(dst, digits...)
		for ; k > 0; k-- {
			dst = append(dst, '0')
		}
		return dst
	}

	// Positional notation.
	if k < 0 && (k > -7 || exp < 4) {
		offset := n + k
		if offset <= 0 { // below 1: 0.000ddd
			dst = append(dst, '0', '.')
			for ; offset < 0; offset++ {
				dst = append(dst, '0')
			}
			return append(dst, digits...)
		}
		dst = append(dst, digits[:offset]...)
		dst = append(dst, '.')
		return append(dst, digits[offset:]...)
	}

	// Exponent notation: the exponent has no leading zeros (e+6, e-7, e+300).
	dst = append(dst, digits[0])
	if n > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	if k+n-1 < 0 {
		dst = append(dst, '-')
	} else {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
