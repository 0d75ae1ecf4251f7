package conv

import (
	"math/big"
	"strings"
	"testing"
)

// incrByFloat is INCRBYFLOAT's arithmetic on texts: the stored value ("" for a missing key)
// plus the increment, printed, or the error text.
func incrByFloat(value, incr string) string {
	var v LongDouble
	if value != "" {
		var ok bool
		if v, ok = String2ld([]byte(value)); !ok {
			return errNotFloat
		}
	}
	inc, ok := String2ld([]byte(incr))
	if !ok {
		return errNotFloat
	}
	sum, ok := v.Add(inc)
	if !ok {
		return errNaNOrInfinity
	}
	return string(AppendLongDouble(nil, sum))
}

// The two error texts, as INCRBYFLOAT answers them.
const (
	errNotFloat      = "ERR value is not a valid float"
	errNaNOrInfinity = "ERR increment would produce NaN or Infinity"
)

// The expectations are redis-server 7.0.15's replies on x86-64 (80-bit long double).
func TestIncrByFloat(t *testing.T) {
	cases := []struct{ value, incr, want string }{
		{"", "0.1", "0.1"},
		{"0.1", "0.2", "0.3"},
		{"10", "0.1", "10.1"},
		{"0", "-0", "0"},
		{"-0", "-0", "0"},
		{"5.0e3", "2.0e2", "5200"},
		{"1", "-1", "0"},
		{"3.0000000000000000001", "-3", "0"},
		{"18446744073709551615", "1", "18446744073709551616"},
		{"9223372036854775807", "1", "9223372036854775808"},
		{"1e18", "0.5", "1000000000000000000.5"},
		{"1e19", "0.5", "10000000000000000000"},
		{"123456789012345678901234567890", "0.123456789012345678901234567890", "123456789012345678899921813504"},
		{"0.1", "1e-17", "0.10000000000000001"},
		{"1.5", "-0.25", "1.25"},
		{"-1.5", "0.25", "-1.25"},
		{"7", "-7.5", "-0.5"},
		// %.17Lf rounds the exact binary value, ties to even; "-0" prints as 0.
		{"0.000000000000000015", "0", "0.00000000000000002"},
		{"0.000000000000000005", "0", "0"},
		{"-0.000000000000000001", "0", "0"},
		{"0x1p-18", "0", "0.00000381469726562"},
		{"0x3p-18", "0", "0.00001144409179688"},
		// strtold's syntax: signs, bare points, exponents, hex, infinities.
		{"0x1.8", "0X1P3", "9.5"},
		{"+1.5", "1", "2.5"},
		{".5", "1", "1.5"},
		{"5.", "1", "6"},
		{"1e+5", "1", "100001"},
		{"1e00000000000000000000000000002", "0", "100"},
		{"0e999999999999999", "0", "0"},
		{".", "1", errNotFloat},
		{"1e", "1", errNotFloat},
		{"0x", "1", errNotFloat},
		{"0x1p", "1", errNotFloat},
		{"1.5\x00", "1", errNotFloat},
		{" 1", "1", errNotFloat},
		{"1 ", "1", errNotFloat},
		{"abc", "1", errNotFloat},
		{"1", "abc", errNotFloat},
		{"1", "", errNotFloat},
		{"nan", "1", errNotFloat},
		{"1", "nan", errNotFloat},
		{"inf", "1", errNaNOrInfinity},
		{"1", "-inf", errNaNOrInfinity},
		{"infinity", "-infinity", errNaNOrInfinity},
		// Subnormals are accepted; what rounds to zero is not.
		{"0x1p-16445", "0", "0"},
		{"3e-4951", "0", "0"},
		{"0x1.8p-16446", "0", "0"},
		{"1e-4951", "0", errNotFloat},
		{"0x1p-16446", "0", errNotFloat},
		{"1e-999999999999999999999", "0", errNotFloat},
		// Overflow: in the text, or in the sum.
		{"0x1.ffffffffffffffffp16383", "0", errNotFloat},
		{"1e999999999999999999999", "0", errNotFloat},
		{"1e4932", "1e4932", errNaNOrInfinity},
		{"0x1.fffffffffffffffep16383", "0x1p16319", errNaNOrInfinity},
		// Texts of 5120 bytes or more are refused whatever they say.
		{"0." + strings.Repeat("0", 5117), "0", "0"},
		{"0." + strings.Repeat("0", 5118), "0", errNotFloat},
		{"0." + strings.Repeat("0", 5116) + "1", "0", errNotFloat},
		{"1" + strings.Repeat("0", 5118), "0", errNotFloat},
	}
	for _, c := range cases {
		if got := incrByFloat(c.value, c.incr); got != c.want {
			t.Errorf("%.40q + %q = %q, want %q", c.value, c.incr, got, c.want)
		}
	}
}

// Results too long for the table: their length, first and last digits (redis-server 7.0.15).
func TestIncrByFloatLong(t *testing.T) {
	const maxLD = "1189731495357231765021263853030970205169" // …19552086811989770240
	cases := []struct {
		value, incr    string
		n              int
		prefix, suffix string
	}{
		{"1.18973149535723176502e4932", "0", 4933, maxLD, "19552086811989770240"},
		{"1.189731495357231765025e4932", "0", 4933, maxLD, "19552086811989770240"},
		{"0x1.fffffffffffffffep16383", "0", 4933, maxLD, "19552086811989770240"},
		{"0x1.fffffffffffffffep16383", "0x1p16318", 4933, maxLD, "19552086811989770240"},
		{"1e300", "0", 301, "1000000000000000000008997324079559193870", "90089424915104006144"},
		{"0x1p16383", "0", 4932, "5948657476786158825428796633140035653817", "23513645334982033408"},
		{"1e4932", "7.25", 4933, "10000000000000000000060189493879638913238377742545", "9371163141086538418113791886622720"},
	}
	for _, c := range cases {
		got := incrByFloat(c.value, c.incr)
		if len(got) != c.n || !strings.HasPrefix(got, c.prefix) || !strings.HasSuffix(got, c.suffix) {
			t.Errorf("%q + %q = %.50s… (%d bytes), want %s…%s (%d bytes)", c.value, c.incr, got, len(got), c.prefix, c.suffix, c.n)
		}
	}
}

// Ten increments of 0.1 from nothing print 1: each starts again from the stored text.
func TestIncrByFloatRepeated(t *testing.T) {
	v := ""
	for i := 0; i < 10; i++ {
		v = incrByFloat(v, "0.1")
	}
	if v != "1" {
		t.Fatalf("ten times 0.1: %q", v)
	}
}

// A subnormal sum is exact, and the quantum rounding is ties-to-even.
func TestLongDoubleSubnormal(t *testing.T) {
	q := new(big.Float).SetMantExp(big.NewFloat(1), ldQuantumExp)
	x, ok := String2ld([]byte("0x1.8p-16445")) // 1.5 quanta: ties to 2
	if !ok || x.f.Cmp(new(big.Float).Mul(q, big.NewFloat(2))) != 0 {
		t.Errorf("0x1.8p-16445 = %v, %v", x, ok)
	}
	x, ok = String2ld([]byte("0x2.8p-16445")) // 2.5 quanta: ties to 2
	if !ok || x.f.Cmp(new(big.Float).Mul(q, big.NewFloat(2))) != 0 {
		t.Errorf("0x2.8p-16445 = %v, %v", x, ok)
	}
	a, _ := String2ld([]byte("0x3p-16445"))
	b, _ := String2ld([]byte("-0x1p-16445"))
	sum, ok := a.Add(b)
	if !ok || sum.f.Cmp(new(big.Float).Mul(q, big.NewFloat(2))) != 0 {
		t.Errorf("3q - q = %v, %v", sum, ok)
	}
}

func BenchmarkLongDouble(b *testing.B) {
	b.ReportAllocs()
	var buf []byte
	for i := 0; i < b.N; i++ {
		v, _ := String2ld([]byte("10.5"))
		inc, _ := String2ld([]byte("0.1"))
		sum, _ := v.Add(inc)
		buf = AppendLongDouble(buf[:0], sum)
	}
}
