package sds

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// BenchmarkAppend appends N pieces of 10–50 bytes to one string. Time per byte must stay flat
// from 10^4 to 10^7 pieces: growth is geometric (no quadratic copying), and big strings grow by
// mremap.
func BenchmarkAppend(b *testing.B) {
	pieces := make([][]byte, 64)
	for i := range pieces {
		pieces[i] = make([]byte, 10+i*40/63)
	}
	for _, n := range []int{1e4, 1e5, 1e6, 1e7} {
		b.Run(fmt.Sprintf("pieces=%d", n), func(b *testing.B) {
			a := alloc.MustNewArena(0)
			defer a.Close()
			b.ReportAllocs()
			var total int
			for b.Loop() {
				var s String
				for i := 0; i < n; i++ {
					s = s.Append(a, pieces[i&63])
				}
				total += s.Len(a)
				s.Free(a)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/byte")
		})
	}
}

// BenchmarkResizeSameClass is the cron's common case: nothing to do.
func BenchmarkResizeSameClass(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	s := WithCapacity(a, 3000)
	b.ReportAllocs()
	for b.Loop() {
		s = s.Resize(a, 3100, true)
	}
}
