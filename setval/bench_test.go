package setval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// benchSet makes a set of n members of the given encoding's kind, and the members.
func benchSet(b *testing.B, a *alloc.Arena, enc string, n int) (alloc.Handle, [][]byte) {
	ms := make([][]byte, n)
	for i := range ms {
		if enc == "intset" {
			ms[i] = fmt.Appendf(nil, "%d", i*7)
		} else {
			ms[i] = fmt.Appendf(nil, "member:%010d", i)
		}
	}
	rec, err := New(a, []byte("k"), ms[0], 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		Add(a, rec, m)
	}
	if got := Encoding(a, rec).Name(); got != enc {
		b.Fatalf("encoding %s, want %s", got, enc)
	}
	return rec, ms
}

var benchShapes = []struct {
	enc string
	n   int
}{{"intset", 500}, {"listpack", 100}, {"hashtable", 100_000}}

// BenchmarkSAdd: SADD of a new member then SREM of it, on a set of each encoding at a typical
// size (the add and the remove are one op, so the set keeps its size and encoding).
func BenchmarkSAdd(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(s.enc, func(b *testing.B) {
			a := alloc.MustNewArena(1 << 32)
			defer a.Close()
			rec, _ := benchSet(b, a, s.enc, s.n)
			m := []byte("100001")
			if s.enc != "intset" {
				m = []byte("member:x")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				Add(a, rec, m)
				Remove(a, rec, m)
			}
		})
	}
}

// BenchmarkSIsMember: SISMEMBER of present members, on a set of each encoding.
func BenchmarkSIsMember(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(s.enc, func(b *testing.B) {
			a := alloc.MustNewArena(1 << 32)
			defer a.Close()
			rec, ms := benchSet(b, a, s.enc, s.n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if !IsMember(a, rec, ms[i%len(ms)]) {
					b.Fatal("not a member")
				}
			}
		})
	}
}
