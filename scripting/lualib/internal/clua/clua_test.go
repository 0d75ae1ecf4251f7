package clua

import (
	"math"
	"testing"
)

// TestStrtodFormatG checks Strtod and FormatG against glibc: each row's bits, length and
// %.14g, %.3g and %.17g renderings were printed by a C program (strtod, then printf).
func TestStrtodFormatG(t *testing.T) {
	for _, c := range []struct {
		in           string
		bits         uint64
		n            int
		g14, g3, g17 string
	}{
		{"1", 0x3ff0000000000000, 1, "1", "1", "1"},
		{"-0", 0x8000000000000000, 2, "-0", "-0", "-0"},
		{"0.1", 0x3fb999999999999a, 3, "0.1", "0.1", "0.10000000000000001"},
		{"1e300", 0x7e37e43c8800759c, 5, "1e+300", "1e+300", "1.0000000000000001e+300"},
		{"123456789012345", 0x42dc12218377de40, 15, "1.2345678901234e+14", "1.23e+14", "123456789012345"},
		{"99999999999999.5", 0x42d6bcc41e8fffe0, 16, "1e+14", "1e+14", "99999999999999.5"},
		{"0.000012345", 0x3ee9e3abe16fc70d, 11, "1.2345e-05", "1.23e-05", "1.2345e-05"},
		{"1e15", 0x430c6bf526340000, 4, "1e+15", "1e+15", "1000000000000000"},
		{"  42  ", 0x4045000000000000, 4, "42", "42", "42"},
		{"0x10", 0x4030000000000000, 4, "16", "16", "16"},
		{"0x1p4", 0x4030000000000000, 5, "16", "16", "16"},
		{"0x.8", 0x3fe0000000000000, 4, "0.5", "0.5", "0.5"},
		{"0x", 0x0000000000000000, 1, "0", "0", "0"},
		{"-0x1.8p1", 0xc008000000000000, 8, "-3", "-3", "-3"},
		{"inf", 0x7ff0000000000000, 3, "inf", "inf", "inf"},
		{"-Infinity", 0xfff0000000000000, 9, "-inf", "-inf", "-inf"},
		{"infinit", 0x7ff0000000000000, 3, "inf", "inf", "inf"},
		{"nan", 0x7ff8000000000000, 3, "nan", "nan", "nan"},
		{"1e", 0x3ff0000000000000, 1, "1", "1", "1"},
		{"1e+", 0x3ff0000000000000, 1, "1", "1", "1"},
		{"1.5e-3x", 0x3f589374bc6a7efa, 6, "0.0015", "0.0015", "0.0015"},
		{".5", 0x3fe0000000000000, 2, "0.5", "0.5", "0.5"},
		{"5.", 0x4014000000000000, 2, "5", "5", "5"},
		{".", 0x0000000000000000, 0, "0", "0", "0"},
		{"-", 0x0000000000000000, 0, "0", "0", "0"},
		{"+7", 0x401c000000000000, 2, "7", "7", "7"},
		{"1e400", 0x7ff0000000000000, 5, "inf", "inf", "inf"},
		{"4.9e-324", 0x0000000000000001, 8, "4.9406564584125e-324", "4.94e-324", "4.9406564584124654e-324"},
		{"2.5e-324", 0x0000000000000001, 8, "4.9406564584125e-324", "4.94e-324", "4.9406564584124654e-324"},
		{"1234567.5", 0x4132d68780000000, 9, "1234567.5", "1.23e+06", "1234567.5"},
		{"0.0001", 0x3f1a36e2eb1c432d, 6, "0.0001", "0.0001", "0.0001"},
		{" -", 0x0000000000000000, 0, "0", "0", "0"},
		{"x1", 0x0000000000000000, 0, "0", "0", "0"},
	} {
		f, n := Strtod(c.in)
		if math.Float64bits(f) != c.bits || n != c.n {
			t.Errorf("Strtod(%q) = %016x, %d; want %016x, %d", c.in, math.Float64bits(f), n, c.bits, c.n)
		}
		if g := FormatG(f, 14); g != c.g14 {
			t.Errorf("FormatG(%q, 14) = %q, want %q", c.in, g, c.g14)
		}
		if g := FormatG(f, 3); g != c.g3 {
			t.Errorf("FormatG(%q, 3) = %q, want %q", c.in, g, c.g3)
		}
		if g := FormatG(f, 17); g != c.g17 {
			t.Errorf("FormatG(%q, 17) = %q, want %q", c.in, g, c.g17)
		}
	}
}

// TestFormatGSpecial: the values glibc prints by name, and -nan (x86's 0/0).
func TestFormatGSpecial(t *testing.T) {
	for f, want := range map[float64]string{math.Inf(1): "inf", math.Inf(-1): "-inf", 1e14: "1e+14", -1e-5: "-1e-05"} {
		if g := FormatG(f, 14); g != want {
			t.Errorf("FormatG(%v) = %q, want %q", f, g, want)
		}
	}
	if g := FormatG(math.Float64frombits(0xFFF8000000000000), 14); g != "-nan" {
		t.Errorf("FormatG(-nan) = %q", g)
	}
}

// TestConversions: x86-64's conversions of out-of-range doubles.
func TestConversions(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		f   float64
		i64 int64
		u64 uint64
		i32 int32
	}{
		{1.9, 1, 1, 1}, {-1.9, -1, math.MaxUint64, -1}, {1e300, math.MinInt64, 0, math.MinInt32},
		{9223372036854775808, math.MinInt64, 1 << 63, math.MinInt32}, {nan, math.MinInt64, 1 << 63, math.MinInt32},
		{-9223372036854775808, math.MinInt64, 1 << 63, math.MinInt32}, {2147483647, 2147483647, 2147483647, 2147483647},
		{18446744073709551616, math.MinInt64, 0, math.MinInt32},
	} {
		if got := DoubleToInt64(c.f); got != c.i64 {
			t.Errorf("DoubleToInt64(%v) = %d, want %d", c.f, got, c.i64)
		}
		if got := DoubleToUint64(c.f); got != c.u64 {
			t.Errorf("DoubleToUint64(%v) = %d, want %d", c.f, got, c.u64)
		}
		if got := DoubleToInt32(c.f); got != c.i32 {
			t.Errorf("DoubleToInt32(%v) = %d, want %d", c.f, got, c.i32)
		}
	}
}
