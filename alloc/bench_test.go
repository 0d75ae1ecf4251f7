package alloc

import "testing"

// Alloc and free pairs per tier. The slab path must not allocate on the Go heap.
func BenchmarkAllocFree(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
	}{{"slab-112", 112}, {"slab-1K", 1000}, {"slab-32K", 32 << 10}, {"run-100K", 100 << 10}, {"map-4M", 4 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			a := MustNewArena(0)
			defer a.Close()
			b.ReportAllocs()
			for b.Loop() {
				a.Free(a.Alloc(c.size), c.size)
			}
		})
	}
}

// Many live slots: allocation walks span lists and free lists as a keyspace would.
func BenchmarkAllocMany(b *testing.B) {
	a := MustNewArena(0)
	defer a.Close()
	hs := make([]Handle, 1<<16)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		j := i & (len(hs) - 1)
		if hs[j] != 0 {
			a.Free(hs[j], 112)
		}
		hs[j] = a.Alloc(112)
		i++
	}
}

func BenchmarkUsableSize(b *testing.B) {
	n := 0
	for i := 0; b.Loop(); i++ {
		n += UsableSize(i & 0x7fff)
	}
	_ = n
}
