package geo

import (
	"math"
	"strconv"
)

// AppendDistance appends d as Redis 7.2 replies a distance (addReplyDoubleDistance, util.c's
// fixedpoint_d2string with 4 decimals): d×10^4 rounded to an integer by llrint (to nearest,
// ties to even), written with exactly four decimals; zero is "0.0000" and a negative value
// keeps its '-' ("-0.0000" cannot occur: a value rounding to 0 prints "0.0000").
func AppendDistance(dst []byte, d float64) []byte {
	if d == 0 {
		return append(dst, "0.0000"...)
	}
	v := math.RoundToEven(d * 10000)
	var u uint64
	if v < 0 {
		dst = append(dst, '-')
		u = uint64(-v)
	} else {
		u = uint64(v)
	}
	var tmp [24]byte
	digits := strconv.AppendUint(tmp[:0], u, 10)
	if len(digits) <= 4 { // "0." and the fraction, zero-padded
		dst = append(dst, '0', '.')
		for range 4 - len(digits) {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-4]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-4:]...)
}

// AppendCoord appends a coordinate as Redis replies one (addReplyHumanLongDouble: ld2string's
// LD_STR_HUMAN of the double widened to a long double, which is exact): printf's "%.17Lf",
// then trailing zeros and a trailing point removed, "-0" written "0".
func AppendCoord(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	case math.IsNaN(f):
		return append(dst, "nan"...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', 17, 64)
	end := len(dst)
	for dst[end-1] == '0' {
		end--
	}
	if dst[end-1] == '.' {
		end--
	}
	dst = dst[:end]
	if string(dst[start:]) == "-0" {
		dst = append(dst[:start], '0')
	}
	return dst
}

// geoAlphabet is the geohash base32 alphabet (no a, i, l, o).
const geoAlphabet = "0123456789bcdefghjkmnpqrstuvwxyz"

// AppendHashString appends GEOHASH's 11-character string of a score: the position decoded,
// encoded again at step 26 with the standard latitude range ±90° (Redis's own cells use
// ±85.05112878°), five bits a character; the eleventh character, beyond the 52 bits, is '0'.
func AppendHashString(dst []byte, score float64) []byte {
	long, lat := DecodeScore(score)
	h, _ := Encode(Range{-180, 180}, Range{-90, 90}, long, lat, StepMax)
	for i := range 10 {
		dst = append(dst, geoAlphabet[(h.Bits>>(52-(uint(i)+1)*5))&0x1f])
	}
	return append(dst, geoAlphabet[0])
}
