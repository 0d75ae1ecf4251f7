package rdb

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

func TestLZFRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	rnd := make([]byte, 5000)
	r.Read(rnd)
	cases := [][]byte{
		[]byte("a"), []byte("abc"), []byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
		[]byte(strings.Repeat("hello world ", 1000)), rnd,
		bytes.Repeat([]byte{0}, 100000),
		append([]byte(strings.Repeat("xyz", 3000)), rnd[:100]...),
	}
	for i, c := range cases {
		comp := LZFCompress(c, len(c)+len(c)/16+64)
		if comp == nil {
			t.Fatalf("case %d: compress failed", i)
		}
		got, err := LZFDecompress(comp, len(c))
		if err != nil || !bytes.Equal(got, c) {
			t.Fatalf("case %d: round trip failed: %v", i, err)
		}
	}
	if LZFCompress(rnd, len(rnd)-4) != nil {
		t.Fatal("random data should not fit in len-4")
	}
	long := []byte(strings.Repeat("a", 1000))
	if c := LZFCompress(long, 996); c == nil || len(c) > 20 {
		t.Fatalf("poor compression: %d", len(c))
	}
}

// A stream produced by liblzf 3.6 (as in Redis) for "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" (50 x 'a'):
// literal 'a', then a back reference of offset 1 and length 49 (7+40+2).
func TestLZFDecompressKnown(t *testing.T) {
	in := []byte{0x00, 'a', 0xe0, 40, 0x00}
	got, err := LZFDecompress(in, 50)
	if err != nil || string(got) != strings.Repeat("a", 50) {
		t.Fatalf("got %q %v", got, err)
	}
}

func TestLZFDecompressHostile(t *testing.T) {
	bad := [][]byte{
		{0x05, 'a'},                // literal past end
		{0x20, 0x00},               // back reference before start
		{0x00, 'a', 0xe0},          // truncated long reference
		{0x00, 'a', 0x20},          // truncated offset
		{0x00, 'a', 0x00},          // literal run past end
		{0x01, 'a', 'b'},           // shorter than declared
		{0x00, 'a', 0xff, 0xff, 0}, // too long
	}
	for i, b := range bad {
		if _, err := LZFDecompress(b, 10); err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
	if _, err := LZFDecompress(nil, 1<<40); err == nil {
		t.Error("huge outLen from empty input accepted")
	}
	if _, err := LZFDecompress([]byte{0, 'a'}, 1<<40); err == nil {
		t.Error("huge outLen accepted")
	}
}

func FuzzLZF(f *testing.F) {
	f.Add([]byte("hello hello hello hello"), 23)
	f.Add([]byte{0x00, 'a', 0xe0, 40, 0x00}, 50)
	f.Add([]byte{}, 0)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if comp := LZFCompress(data, len(data)+len(data)/16+64); len(data) > 0 {
			got, err := LZFDecompress(comp, len(data))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("round trip: %v", err)
			}
		}
		if n < 0 || n > 1<<20 {
			n = len(data) * 4
		}
		if out, err := LZFDecompress(data, n); err == nil && len(out) != n {
			t.Fatalf("length %d != %d", len(out), n)
		}
	})
}
