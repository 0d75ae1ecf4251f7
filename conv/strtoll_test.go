package conv

import (
	"math"
	"testing"
)

// C's strtoll with endptr and errno, as config.c reads numbers.
func TestStrtoll(t *testing.T) {
	for _, c := range []struct {
		in              string
		base            int
		want            int64
		whole, overflow bool
	}{
		{"", 10, 0, true, false},
		{"0", 10, 0, true, false},
		{"42", 10, 42, true, false},
		{"+42", 10, 42, true, false},
		{"-42", 10, -42, true, false},
		{" \t\n\v\f\r42", 10, 42, true, false},
		{"42 ", 10, 42, false, false},
		{"0042", 10, 42, true, false},
		{"4x", 10, 4, false, false},
		{"x", 10, 0, false, false},
		{"+", 10, 0, false, false},
		{"-", 10, 0, false, false},
		{" ", 10, 0, false, false},
		{"9223372036854775807", 10, math.MaxInt64, true, false},
		{"9223372036854775808", 10, math.MaxInt64, true, true},
		{"-9223372036854775808", 10, math.MinInt64, true, false},
		{"-9223372036854775809", 10, math.MinInt64, true, true},
		{"99999999999999999999999", 10, math.MaxInt64, true, true},
		{"-99999999999999999999999x", 10, math.MinInt64, false, true},
		{"0755", 8, 0755, true, false},
		{"0758", 8, 075, false, false},
		{"777777777777777777777", 8, math.MaxInt64, true, false},
		{"1777777777777777777777", 8, math.MaxInt64, true, true},
	} {
		v, whole, overflow := Strtoll(c.in, c.base)
		if v != c.want || whole != c.whole || overflow != c.overflow {
			t.Errorf("Strtoll(%q, %d) = %d, %v, %v; want %d, %v, %v", c.in, c.base, v, whole, overflow, c.want, c.whole, c.overflow)
		}
	}
}

// C's strtoull: a '-' wraps; an overflow saturates, even negated.
func TestStrtoull(t *testing.T) {
	for _, c := range []struct {
		in              string
		want            uint64
		whole, overflow bool
	}{
		{"", 0, true, false},
		{"18446744073709551615", math.MaxUint64, true, false},
		{"18446744073709551616", math.MaxUint64, true, true},
		{"-1", math.MaxUint64, true, false},
		{"-18446744073709551615", 1, true, false},
		{"-18446744073709551616", math.MaxUint64, true, true},
		{"+7", 7, true, false},
		{" 7", 7, true, false},
		{"7 ", 7, false, false},
		{"-", 0, false, false},
	} {
		v, whole, overflow := Strtoull([]byte(c.in), 10)
		if v != c.want || whole != c.whole || overflow != c.overflow {
			t.Errorf("Strtoull(%q) = %d, %v, %v; want %d, %v, %v", c.in, v, whole, overflow, c.want, c.whole, c.overflow)
		}
	}
}

func TestIsSpace(t *testing.T) {
	for ch := 0; ch < 256; ch++ {
		want := ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r'
		if IsSpace(byte(ch)) != want {
			t.Errorf("IsSpace(%#x) = %v", ch, !want)
		}
	}
}
