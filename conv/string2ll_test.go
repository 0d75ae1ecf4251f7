package conv

import (
	"math"
	"strconv"
	"testing"
)

// The expectations are Redis's string2ll (util.c): what INCRBY, GETRANGE and SET EX accept.
func TestString2ll(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"-1", -1, true},
		{"123", 123, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"18446744073709551615", 0, false},
		{"18446744073709551616", 0, false},
		{"99999999999999999999", 0, false},
		{"-99999999999999999999", 0, false},
		{"000000000000000000001", 0, false}, // 21 bytes: LONG_STR_SIZE
		{"", 0, false},
		{"-", 0, false},
		{"+1", 0, false},
		{"01", 0, false},
		{"00", 0, false},
		{"-0", 0, false},
		{"-01", 0, false},
		{" 1", 0, false},
		{"1 ", 0, false},
		{"1.5", 0, false},
		{"1e3", 0, false},
		{"0x10", 0, false},
		{"1\x00", 0, false},
		{"--1", 0, false},
	}
	for _, c := range cases {
		got, ok := String2ll([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("String2ll(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// Every int64 that strconv prints parses back; String2ll agrees with strconv on canonical texts.
func TestString2llRoundTrip(t *testing.T) {
	for _, v := range []int64{0, 7, -7, 10, -10, 1 << 32, -(1 << 32), math.MaxInt64 - 1, math.MinInt64 + 1, math.MaxInt64 / 10, math.MinInt64 / 10} {
		s := strconv.AppendInt(nil, v, 10)
		if got, ok := String2ll(s); !ok || got != v {
			t.Errorf("String2ll(%s) = %d, %v", s, got, ok)
		}
	}
}

// reference2ll is string2ll by definition: the texts strconv.FormatInt writes.
func reference2ll(s []byte) (int64, bool) {
	v, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil || strconv.FormatInt(v, 10) != string(s) {
		return 0, false
	}
	return v, true
}

// FuzzString2ll compares String2ll with its definition, and the string and []byte forms.
// testdata/fuzz/FuzzString2ll keeps the corpus.
func FuzzString2ll(f *testing.F) {
	for _, s := range []string{"0", "-1", "9223372036854775807", "-9223372036854775808", "01", "+1", "-0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		got, ok := String2ll(s)
		want, wok := reference2ll(s)
		if got != want || ok != wok {
			t.Fatalf("String2ll(%q) = %d, %v; reference %d, %v", s, got, ok, want, wok)
		}
		if got2, ok2 := String2ll(string(s)); got2 != got || ok2 != ok {
			t.Fatalf("String2ll(string %q) = %d, %v", s, got2, ok2)
		}
	})
}

func TestEqFold(t *testing.T) {
	for _, c := range []struct {
		arg, tok string
		want     bool
	}{
		{"nx", "nx", true}, {"NX", "nx", true}, {"nX", "nx", true}, {"nxx", "nx", false},
		{"n", "nx", false}, {"", "", true}, {"KeepTTL", "keepttl", true}, {"n\x00", "nx", false},
		{"[x", "{x", false}, // '[' is 'Z'+1: not folded
		{"streams", "STREAMS", true}, {"StReAmS", "STREAMS", true}, {"{x", "[X", false},
	} {
		if got := EqFold([]byte(c.arg), c.tok); got != c.want {
			t.Errorf("EqFold(%q, %q) = %v", c.arg, c.tok, got)
		}
	}
}

func TestConvAllocs(t *testing.T) {
	arg := []byte("-9223372036854775808")
	tok := []byte("KEEPTTL")
	if n := testing.AllocsPerRun(100, func() { String2ll(arg); EqFold(tok, "keepttl") }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func BenchmarkString2ll(b *testing.B) {
	arg := []byte("1234567890123")
	b.ReportAllocs()
	for b.Loop() {
		String2ll(arg)
	}
}

func TestCString(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "abc", "ab\x00c": "ab", "\x00": ""} {
		if got := CString([]byte(in)); got != want {
			t.Errorf("CString(%q) = %q", in, got)
		}
	}
}
