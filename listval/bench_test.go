package listval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// benchList makes a list of n 16-byte elements: a listpack for 100 of them, a quicklist of
// 8 KB nodes for 100,000.
func benchList(b *testing.B, n int) (*alloc.Arena, alloc.Handle) {
	a := alloc.MustNewArena(1 << 32)
	b.Cleanup(a.Close)
	rec, err := New(a, []byte("l"), 0)
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := PushTail(a, rec, fmt.Appendf(nil, "elem:%011d", i)); err != nil {
			b.Fatal(err)
		}
	}
	return a, rec
}

var sizes = []int{100, 100_000}

// BenchmarkPushPop is LPUSH then RPOP of one 16-byte element: the list keeps its size.
func BenchmarkPushPop(b *testing.B) {
	for _, n := range sizes {
		a, rec := benchList(b, n)
		b.Run(fmt.Sprintf("%s-%d", encoding(a, rec), n), func(b *testing.B) {
			b.ReportAllocs()
			e := []byte("elem:00000000000")
			var buf [64]byte
			for b.Loop() {
				if err := PushHead(a, rec, e); err != nil {
					b.Fatal(err)
				}
				if _, err := Pop(a, rec, true, 1, buf[:0], func([]byte) {}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIndex is LINDEX at the middle of the list, the farthest point from either end.
func BenchmarkIndex(b *testing.B) {
	for _, n := range sizes {
		a, rec := benchList(b, n)
		b.Run(fmt.Sprintf("%s-%d-middle", encoding(a, rec), n), func(b *testing.B) {
			b.ReportAllocs()
			var buf [64]byte
			for b.Loop() {
				if _, ok := Index(a, rec, n/2, buf[:0]); !ok {
					b.Fatal("missing")
				}
			}
		})
		b.Run(fmt.Sprintf("%s-%d-tail", encoding(a, rec), n), func(b *testing.B) {
			b.ReportAllocs()
			var buf [64]byte
			for b.Loop() {
				if _, ok := Index(a, rec, -3, buf[:0]); !ok {
					b.Fatal("missing")
				}
			}
		})
	}
}

// BenchmarkRange100 is LRANGE 0 99: reading the first 100 elements.
func BenchmarkRange100(b *testing.B) {
	for _, n := range sizes {
		a, rec := benchList(b, n)
		b.Run(fmt.Sprintf("%s-%d", encoding(a, rec), n), func(b *testing.B) {
			b.ReportAllocs()
			var buf [64]byte
			total := 0
			for b.Loop() {
				Range(a, rec, 0, 100, false, buf[:0], func(e []byte) bool {
					total += len(e)
					return true
				})
			}
			if total == 0 {
				b.Fatal("nothing read")
			}
		})
	}
}
