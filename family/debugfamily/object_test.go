package debugfamily

import (
	"strconv"
	"strings"
	"testing"
)

// lcgString is a reproducible pseudo-random string over alphabet (C's classic rand LCG).
func lcgString(n int, alphabet string) string {
	x := uint32(12345)
	b := make([]byte, n)
	for i := range b {
		x = (x*1103515245 + 12345) & 0x7fffffff
		b[i] = alphabet[(x>>16)%uint32(len(alphabet))]
	}
	return string(b)
}

// TestSerializedLength checks DEBUG OBJECT's serializedlength of strings against the values
// redis-server 7.0.15 printed for the same strings (rdbcompression yes): LZF-compressed when
// it saves at least 4 bytes, else as they are, with RDB's length prefix.
func TestSerializedLength(t *testing.T) {
	var digits strings.Builder
	for i := range 200 {
		digits.WriteString(strconv.Itoa(i))
	}
	printable := make([]byte, 0, 95)
	for ch := byte(32); ch < 127; ch++ {
		printable = append(printable, ch)
	}
	cases := []struct {
		name string
		s    string
		want int
	}{
		{"a×21", strings.Repeat("a", 21), 9},
		{"a×100", strings.Repeat("a", 100), 13},
		{"a×1000", strings.Repeat("a", 1000), 22},
		{"a×100000", strings.Repeat("a", 100000), 1151},
		{"abc×50", strings.Repeat("abc", 50), 15},
		{"digits", digits.String(), 469},
		{"lcg ab 500", lcgString(500, "ab"), 269},
		{"lcg hex 300", lcgString(300, "0123456789abcdef"), 302},
		{"lcg printable 100", lcgString(100, string(printable)), 102},
		{"lcg ab 20000", lcgString(20000, "ab"), 10048},
	}
	for _, c := range cases {
		n := lzfCompressedLen([]byte(c.s))
		got := rdbLenLen(len(c.s)) + len(c.s)
		if n > 0 {
			got = 1 + rdbLenLen(n) + rdbLenLen(len(c.s)) + n
		}
		if got != c.want {
			t.Errorf("%s: serializedlength %d, Redis %d", c.name, got, c.want)
		}
	}
}

func TestRdbIntLen(t *testing.T) {
	for v, want := range map[int64]int{0: 2, 127: 2, -128: 2, 128: 3, -32768: 3, 32768: 5, 1<<31 - 1: 5, 1 << 31: 0, -1<<31 - 1: 0} {
		if got := rdbIntLen(v); got != want {
			t.Errorf("rdbIntLen(%d) = %d, want %d", v, got, want)
		}
	}
}
