package hashval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// benchHash makes a hash of n fields "field:%010d" with 32-byte values: a listpack up to 512
// fields (with 32-byte values), a table above.
func benchHash(b *testing.B, n int) (*alloc.Arena, alloc.Handle, [][]byte) {
	a := alloc.MustNewArena(1 << 32)
	b.Cleanup(a.Close)
	rec, err := New(a, []byte("h"), 0)
	if err != nil {
		b.Fatal(err)
	}
	fields := make([][]byte, n)
	value := make([]byte, 32)
	for i := range fields {
		fields[i] = fmt.Appendf(nil, "field:%010d", i)
		if _, err := Set(a, rec, fields[i], value); err != nil {
			b.Fatal(err)
		}
	}
	return a, rec, fields
}

// BenchmarkSet overwrites existing fields (HSET of a known field: a listpack Replace in place,
// a table entry rewritten in place) in a 100-field listpack and a 100,000-field table.
func BenchmarkSet(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		a, rec, fields := benchHash(b, n)
		b.Run(fmt.Sprintf("%s-%d", encoding(a, rec), n), func(b *testing.B) {
			b.ReportAllocs()
			value := make([]byte, 32)
			for i := 0; b.Loop(); i++ {
				value[0] = byte(i)
				if _, err := Set(a, rec, fields[i%n], value); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSetNew adds new fields to a table (HSET of a new field: an entry allocated and
// inserted, with the table's incremental growth).
func BenchmarkSetNew(b *testing.B) {
	a, rec, _ := benchHash(b, 1000)
	value := make([]byte, 32)
	var f []byte
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		f = fmt.Appendf(f[:0], "new:%010d", i)
		if _, err := Set(a, rec, f, value); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGet reads fields of a 100-field listpack and a 100,000-field table.
func BenchmarkGet(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		a, rec, fields := benchHash(b, n)
		b.Run(fmt.Sprintf("%s-%d", encoding(a, rec), n), func(b *testing.B) {
			b.ReportAllocs()
			var scratch [32]byte
			for i := 0; b.Loop(); i++ {
				if _, ok := Get(a, rec, fields[i%n], scratch[:0]); !ok {
					b.Fatal("missing")
				}
			}
		})
	}
}
