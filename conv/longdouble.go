package conv

import (
	"math/big"
)

// INCRBYFLOAT's arithmetic is Redis's on x86-64: a C long double, the x87 80-bit extended
// format — a 64-bit significand, normal numbers from 2^-16382 up to (2 − 2^-63) × 2^16383
// (1.18973149535723176502e4932), subnormals down to 2^-16445 — parsed by string2ld (glibc's
// strtold, correctly rounded), added with one rounding to nearest-even, and printed by
// ld2string(LD_STR_HUMAN). Here a long double is a *big.Float of precision 64, whose exponent
// range is unbounded: the functions below add the format's overflow, subnormal and underflow
// rules. The stored value is the printed text, so each increment starts again from it: that is
// why 0.1 + 0.2 prints 0.3 and ten increments of 0.1 from 0 print 1.

const (
	// ldPrec is the long double's significand: 64 bits, the integer bit explicit.
	ldPrec = 64
	// ldOverflowExp: |x| ≥ 2^16384 is beyond the largest long double. In big.Float's terms
	// (x = mant × 2^exp, 0.5 ≤ mant < 1) that is exp > 16384.
	ldOverflowExp = 16384
	// ldSubnormalExp: below 2^-16381 (exp ≤ -16381) a long double's quantum is 2^-16445,
	// whatever the magnitude, so values there are rounded to a multiple of it.
	ldSubnormalExp = -16381
	// ldQuantumExp: the smallest subnormal is 2^-16445 (about 3.6452e-4951).
	ldQuantumExp = -16445

	// MaxLongDoubleChars is Redis's MAX_LONG_DOUBLE_CHARS (5 KiB): string2ld refuses a text
	// of this length or longer. The longest text ld2string makes — 4933 integer digits, the
	// point and 17 decimals — is shorter.
	MaxLongDoubleChars = 5 * 1024

	// Decimal magnitudes beyond which a text needs no exact arithmetic: a value of 10^4933
	// or more overflows (the largest long double is 1.19e4932), one below 10^-4951 is less
	// than half the smallest subnormal and rounds to zero (strtold: ERANGE, refused).
	ldMaxDecimalMag = 4933
	ldMinDecimalMag = -4951
	// expSaturation bounds a parsed exponent: far beyond any exponent that is not an
	// overflow or underflow whatever the digits (a text has fewer than 5120 of them).
	expSaturation = 1 << 30
)

// LongDouble is a C long double as x86-64 Redis computes with it (see above). The zero value
// is 0. It may be ±Inf (String2ld accepts "inf"); Add refuses to go on from there.
type LongDouble struct {
	f *big.Float // nil for 0
}

// float returns x as a big.Float (a new 0 for the zero value).
func (x LongDouble) float() *big.Float {
	if x.f == nil {
		return new(big.Float).SetPrec(ldPrec)
	}
	return x.f
}

// IsInf reports whether x is an infinity.
func (x LongDouble) IsInf() bool { return x.f != nil && x.f.IsInf() }

// String2ld is Redis's string2ld: the whole of s must be what strtold reads — an optional
// sign, then decimal digits with an optional point and e-exponent, or 0x and hex digits with
// an optional point and p-exponent, or INF / INFINITY in any case — with no space before it,
// fewer than MaxLongDoubleChars bytes, and not NaN, not out of range (overflow, or underflow
// to zero; a subnormal is accepted). Infinity is returned as ±Inf: Redis accepts it, and a sum
// then answers "increment would produce NaN or Infinity". ok false is "value is not a valid
// float".
func String2ld(s []byte) (x LongDouble, ok bool) {
	if len(s) == 0 || len(s) >= MaxLongDoubleChars || IsSpace(s[0]) {
		return LongDouble{}, false
	}
	neg := false
	i := 0
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		i++
	}
	rest := s[i:]
	if EqFold(rest, "inf") || EqFold(rest, "infinity") {
		return LongDouble{new(big.Float).SetInf(neg)}, true
	}
	var num ldText
	if len(rest) > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') {
		ok = num.scan(rest[2:], 16)
	} else {
		ok = num.scan(rest, 10)
	}
	if !ok {
		return LongDouble{}, false
	}
	f, ok := num.value()
	if !ok {
		return LongDouble{}, false
	}
	if neg {
		f.Neg(f)
	}
	return LongDouble{f}, true
}

// ldText is a scanned number: digits (leading zeros dropped, the point removed) × base^exp,
// base 10, or base 16 with exp a power of two.
type ldText struct {
	digits []byte // digit values, not characters
	base   int
	exp    int // decimal: a power of 10; hex: a power of 2
}

// scan reads s as the digits of base 10 or 16 with an optional point and an optional
// exponent (e for decimal, p for hex, its digits decimal and required), and reports whether
// all of s was read.
func (t *ldText) scan(s []byte, base int) bool {
	t.base = base
	i, n, frac := 0, 0, 0
	point := false
	for ; i < len(s); i++ {
		ch := s[i]
		if ch == '.' && !point {
			point = true
			continue
		}
		d, isDigit := digitValue(ch, base)
		if !isDigit {
			break
		}
		n++
		if point {
			frac++
		}
		if d == 0 && len(t.digits) == 0 {
			continue // a leading zero
		}
		t.digits = append(t.digits, d)
	}
	if n == 0 {
		return false
	}
	// Trailing zeros of the digits only scale the value: fold them into the exponent.
	trailing := 0
	for len(t.digits) > 0 && t.digits[len(t.digits)-1] == 0 {
		t.digits = t.digits[:len(t.digits)-1]
		trailing++
	}
	exp := 0
	if i < len(s) {
		marker := byte('e')
		if base == 16 {
			marker = 'p'
		}
		if s[i]|0x20 != marker {
			return false
		}
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return false
		}
		for ; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
			if exp < expSaturation {
				exp = exp*10 + int(s[i]-'0')
			}
		}
		if expNeg {
			exp = -exp
		}
	}
	if base == 16 {
		t.exp = exp + 4*(trailing-frac)
	} else {
		t.exp = exp + trailing - frac
	}
	return true
}

func digitValue(ch byte, base int) (byte, bool) {
	switch {
	case '0' <= ch && ch <= '9':
		return ch - '0', true
	case base == 16 && 'a' <= ch|0x20 && ch|0x20 <= 'f':
		return ch | 0x20 - 'a' + 10, true
	}
	return 0, false
}

// value rounds the scanned number to a long double as strtold does; ok is false when it
// overflows or underflows to zero (string2ld refuses both). Zero itself is fine.
func (t *ldText) value() (*big.Float, bool) {
	if len(t.digits) == 0 {
		return new(big.Float).SetPrec(ldPrec), true
	}
	mant := new(big.Int)
	var num, den *big.Int
	shift := 0 // the value is num / den × 2^shift
	if t.base == 16 {
		for _, d := range t.digits {
			mant.Lsh(mant, 4)
			mant.Or(mant, big.NewInt(int64(d)))
		}
		// The value lies in [2^(top-1), 2^top).
		top := t.exp + mant.BitLen()
		if top > ldOverflowExp || top <= ldQuantumExp-1 {
			return nil, false
		}
		num, shift = mant, t.exp
	} else {
		// The value lies in [10^(mag-1), 10^mag).
		mag := t.exp + len(t.digits)
		if mag-1 >= ldMaxDecimalMag || mag <= ldMinDecimalMag {
			return nil, false
		}
		if len(t.digits) <= 19 { // fits in a uint64
			var m uint64
			for _, d := range t.digits {
				m = m*10 + uint64(d)
			}
			mant.SetUint64(m)
		} else {
			digits := make([]byte, len(t.digits))
			for i, d := range t.digits {
				digits[i] = '0' + d
			}
			mant.SetString(string(digits), 10)
		}
		num, den = mant, nil
		if t.exp != 0 {
			pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(t.exp, -t.exp))), nil)
			if t.exp > 0 {
				num = mant.Mul(mant, pow)
			} else {
				den = pow
			}
		}
	}
	return roundLongDouble(num, den, shift)
}

// roundLongDouble rounds num / den × 2^shift (num, den > 0; den nil for 1) to the nearest
// long double, ties to even: 64 significant bits in the normal range, a multiple of 2^-16445
// below it. ok is false on overflow and on underflow to zero.
func roundLongDouble(num, den *big.Int, shift int) (*big.Float, bool) {
	x := new(big.Float).SetPrec(ldPrec)
	if den == nil {
		x.SetInt(num) // one correct rounding
	} else {
		var a, b big.Float
		a.SetInt(num) // exact: the precision follows the integer
		b.SetInt(den)
		x.Quo(&a, &b) // one correct rounding
	}
	x.SetMantExp(x, shift) // exact
	exp := x.MantExp(nil)
	if exp > ldOverflowExp {
		return nil, false
	}
	if exp <= ldSubnormalExp {
		// Round at the fixed quantum instead: rounding first to 64 bits and then to the
		// quantum could round twice.
		q := new(big.Int).Set(num)
		d := big.NewInt(1)
		if den != nil {
			d.Set(den)
		}
		if s := shift - ldQuantumExp; s >= 0 {
			q.Lsh(q, uint(s))
		} else {
			d.Lsh(d, uint(-s))
		}
		n := divRoundEven(q, d)
		if n.Sign() == 0 {
			return nil, false
		}
		x.SetInt(n)
		x.SetMantExp(x, ldQuantumExp)
	}
	return x, true
}

// divRoundEven returns q / d rounded to the nearest integer, ties to even (q, d > 0).
func divRoundEven(q, d *big.Int) *big.Int {
	quo, rem := new(big.Int).QuoRem(q, d, new(big.Int))
	switch c := rem.Lsh(rem, 1).Cmp(d); {
	case c > 0, c == 0 && quo.Bit(0) == 1:
		quo.Add(quo, big.NewInt(1))
	}
	return quo
}

// Add is x + y in long double: the exact sum rounded once to 64 bits (both are multiples of
// the subnormal quantum, so a sum in the subnormal range is exact). ok is false when the sum
// is NaN or infinite — an infinite operand, or an overflow — which INCRBYFLOAT answers with
// "increment would produce NaN or Infinity".
func (x LongDouble) Add(y LongDouble) (sum LongDouble, ok bool) {
	if x.IsInf() || y.IsInf() {
		return LongDouble{}, false
	}
	f := new(big.Float).SetPrec(ldPrec).Add(x.float(), y.float())
	if f.MantExp(nil) > ldOverflowExp {
		return LongDouble{}, false
	}
	return LongDouble{f}, true
}

// AppendLongDouble appends x, finite, as Redis's ld2string(LD_STR_HUMAN) prints it: printf's
// "%.17Lf" (the exact binary value rounded to 17 decimals, ties to even), then trailing zeros
// and a trailing point removed, and "-0" written "0". There is never an exponent: 1e300 prints
// its 301 digits.
func AppendLongDouble(dst []byte, x LongDouble) []byte {
	if x.f == nil || x.f.Sign() == 0 {
		return append(dst, '0')
	}
	start := len(dst)
	dst = x.f.Append(dst, 'f', 17)
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
