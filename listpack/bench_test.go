package listpack

import (
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// benchPairs is a 512-field hash (hash-max-listpack-entries) of "field:N" and 16-byte values.
func benchPairs(b *testing.B, a *alloc.Arena, n int) Listpack {
	l := New(a)
	val := []byte("0123456789abcdef")
	for i := 0; i < n; i++ {
		l, _ = l.Append(a, []byte("field:"+strconv.Itoa(i)))
		l, _ = l.Append(a, val)
	}
	return l
}

// BenchmarkAppend builds a 512-pair listpack by appends: each append reallocates to the exact
// size, which the allocator makes free within a class.
func BenchmarkAppend(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	fields := make([][]byte, 512)
	for i := range fields {
		fields[i] = []byte("field:" + strconv.Itoa(i))
	}
	val := []byte("0123456789abcdef")
	b.ReportAllocs()
	for b.Loop() {
		l := New(a)
		for _, f := range fields {
			l, _ = l.Append(a, f)
			l, _ = l.Append(a, val)
		}
		l.Free(a)
	}
}

// BenchmarkFind looks up a field in a 512-pair listpack (HGET's path), first, middle, last and
// missing.
func BenchmarkFind(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	l := benchPairs(b, a, 512)
	for _, f := range []string{"field:0", "field:256", "field:511", "nope"} {
		b.Run(f, func(b *testing.B) {
			key := []byte(f)
			b.ReportAllocs()
			for b.Loop() {
				lp := l.Bytes(a)
				Find(lp, First(lp), key, 1)
			}
		})
	}
}

// BenchmarkIterate walks a 512-pair listpack reading every entry (HGETALL's path).
func BenchmarkIterate(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	l := benchPairs(b, a, 512)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		lp := l.Bytes(a)
		for p := First(lp); p >= 0; p = Next(lp, p) {
			buf = AppendValue(buf[:0], lp, p)
		}
	}
}
