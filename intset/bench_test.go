package intset

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// BenchmarkAdd builds a 512-member intset (set-max-intset-entries) in random order.
func BenchmarkAdd(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	vals := make([]int64, 512)
	for i := range vals {
		vals[i] = int64(i*7919%512) * 1000
	}
	b.ReportAllocs()
	for b.Loop() {
		s := New(a)
		for _, v := range vals {
			s, _, _ = s.Add(a, v)
		}
		s.Free(a)
	}
}

// BenchmarkFind is SISMEMBER on a 512-member intset.
func BenchmarkFind(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	s := New(a)
	for i := int64(0); i < 512; i++ {
		s, _, _ = s.Add(a, i*1000)
	}
	b.ReportAllocs()
	i := int64(0)
	for b.Loop() {
		Find(s.Bytes(a), i%1024*500)
		i++
	}
}
