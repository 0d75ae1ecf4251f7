package server

import (
	"testing"
)

func TestParseSetOptions(t *testing.T) {
	cases := []struct {
		line   string
		typ    int
		flags  int
		expire string
		ok     bool
	}{
		{"SET k v", optsSet, 0, "", true},
		{"SET k v nx", optsSet, setNX, "", true},
		{"SET k v XX get", optsSet, setXX | setGet, "", true},
		{"SET k v NX GET", optsSet, setNX | setGet, "", true}, // allowed since Redis 7.0
		{"SET k v EX 10 EX 20", optsSet, setEX, "20", true},
		{"SET k v px 5", optsSet, setPX, "5", true},
		{"SET k v ExAt 5", optsSet, setEXAT, "5", true},
		{"SET k v PXAT abc", optsSet, setPXAT, "abc", true}, // the number is checked later
		{"SET k v KEEPTTL KEEPTTL", optsSet, setKeepTTL, "", true},
		{"SET k v NX XX", optsSet, 0, "", false},
		{"SET k v EX 1 PX 1", optsSet, 0, "", false},
		{"SET k v EX 1 KEEPTTL", optsSet, 0, "", false},
		{"SET k v KEEPTTL PXAT 1", optsSet, 0, "", false},
		{"SET k v EX", optsSet, 0, "", false},
		{"SET k v PERSIST", optsSet, 0, "", false},
		{"SET k v FOO", optsSet, 0, "", false},
		{"GETEX k", optsGetEx, 0, "", true},
		{"GETEX k persist PERSIST", optsGetEx, setPersist, "", true},
		{"GETEX k EX 10 ex 20", optsGetEx, setEX, "20", true},
		{"GETEX k PXAT 10", optsGetEx, setPXAT, "10", true},
		{"GETEX k PERSIST EX 10", optsGetEx, 0, "", false},
		{"GETEX k EX 10 PERSIST", optsGetEx, 0, "", false},
		{"GETEX k EX 10 PX 10", optsGetEx, 0, "", false},
		{"GETEX k KEEPTTL", optsGetEx, 0, "", false},
		{"GETEX k NX", optsGetEx, 0, "", false},
		{"GETEX k XX", optsGetEx, 0, "", false},
		{"GETEX k GET", optsGetEx, 0, "", false},
		{"GETEX k PX", optsGetEx, 0, "", false},
	}
	for _, c := range cases {
		flags, expire, ok := parseSetOptions(parsedArgs(t, c.line), c.typ)
		if flags != c.flags || string(expire) != c.expire || ok != c.ok {
			t.Errorf("%q: flags %#x expire %q ok %v, want %#x %q %v", c.line, flags, expire, ok, c.flags, c.expire, c.ok)
		}
	}
}

func BenchmarkParseSetOptions(b *testing.B) {
	args := parsedArgs(&testing.T{}, "SET key value NX GET PX 100000")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		parseSetOptions(args, optsSet)
	}
}

// The expectations are Redis's GETRANGE replies for the value "Hello World" (11 bytes) and
// for an empty value.
func TestGetrangeBounds(t *testing.T) {
	const max, min = 1<<63 - 1, -1 << 63
	cases := []struct {
		start, end int64
		n          int
		want       string
	}{
		{0, 4, 11, "Hello"},
		{-5, -1, 11, "World"},
		{0, -1, 11, "Hello World"},
		{0, 100, 11, "Hello World"},
		{100, 200, 11, ""},
		{-100, -50, 11, "H"},
		{-1, -100, 11, ""},
		{-3, -5, 11, ""},
		{-20, -15, 11, "H"}, // both clamp to 0
		{-15, -20, 11, ""},  // both negative, start after end
		{0, -100, 11, "H"},
		{5, 3, 11, ""},
		{max, min, 11, ""},
		{min, max, 11, "Hello World"},
		{0, -1, 0, ""},
		{0, 0, 0, ""},
		{-1, 0, 0, ""},
	}
	const val = "Hello World"
	for _, c := range cases {
		lo, hi := getrangeBounds(c.start, c.end, c.n)
		if got := val[:c.n][lo:hi]; got != c.want {
			t.Errorf("GETRANGE %d %d of %d bytes: %q, want %q", c.start, c.end, c.n, got, c.want)
		}
	}
}
