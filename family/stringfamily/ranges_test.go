package stringfamily

import (
	"testing"
)

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
