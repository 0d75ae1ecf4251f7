package debugfamily

import (
	"math"
	"strconv"

	"github.com/kvserver/kvserver/resp"
)

// maxExactInt is 2^62: resp.AppendDouble prints an integral double within ±2^62 as an integer
// (Redis's d2string), where fpconv_dtoa does not.
const maxExactInt = 1 << 62

// appendDtoa appends f as Redis 7.2's fpconv_dtoa writes it: the text DEBUG DIGEST mixes in for
// a sorted set's score. It is resp.AppendDouble's form (d2string) but for integral values
// within ±2^62, which d2string prints with every digit and fpconv_dtoa from the shortest
// round-trip digits D and exponent K (f = D × 10^K): D then K zeros while K < 8, else in
// exponent notation (1e+8, 1.5e+17, 1152921504606847000 for 2^60).
func appendDtoa(dst []byte, f float64) []byte {
	if f == 0 || f != math.Trunc(f) || f < -maxExactInt || f > maxExactInt {
		return resp.AppendDouble(dst, f) // NaN and the infinities fail f == Trunc(f) or the range
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64) // d[.ddd]e+XX
	var digits [17]byte
	n, i := 0, 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[n] = e[i]
			n++
		}
	}
	exp, _ := strconv.Atoi(string(e[i+2:])) // the first digit's exponent, ≥ 0 here
	if k := exp - n + 1; k < 8 {
		dst = append(dst, digits[:n]...)
		for ; k > 0; k-- {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, digits[0])
	if n > 1 {
		dst = append(append(dst, '.'), digits[1:n]...)
	}
	return strconv.AppendInt(append(dst, 'e', '+'), int64(exp), 10)
}
