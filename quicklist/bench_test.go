package quicklist

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// benchList returns a list of n 16-byte elements at the default fill.
func benchList(b *testing.B, a *alloc.Arena, n int) List {
	l, err := New(a, DefaultFill)
	if err != nil {
		b.Fatal(err)
	}
	e := []byte("element-16-bytes")
	for range n {
		if err := l.PushTail(a, e); err != nil {
			b.Fatal(err)
		}
	}
	return l
}

func BenchmarkPushTail(b *testing.B) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	l := benchList(b, a, 0)
	e := []byte("element-16-bytes")
	b.ReportAllocs()
	for range b.N {
		if err := l.PushTail(a, e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPopHead(b *testing.B) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	l := benchList(b, a, b.N)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, _, ok := l.PopHead(a, buf[:0]); !ok {
			b.Fatal("empty")
		}
	}
}

// BenchmarkIndex reads the middle of a list of 100,000 elements (the farthest from either
// end: about 110 nodes walked) and near the tail.
func BenchmarkIndex(b *testing.B) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	const n = 100_000
	l := benchList(b, a, n)
	for _, c := range []struct {
		name string
		i    int
	}{{"middle", n / 2}, {"tail-10", -10}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, _, _, ok := l.Index(a, c.i); !ok {
					b.Fatal("out of range")
				}
			}
		})
	}
}
