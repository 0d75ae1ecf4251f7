package zindex

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// The benchmarks share one index of benchN entries `member:%010d` with score 2i, inserted in
// random order (random fill, as a set built by ZADDs).
const benchN = 1_000_000

var bench struct {
	once    sync.Once
	ix      Index
	hs      []alloc.Handle
	members [][]byte
}

func benchIndex(b *testing.B) Index {
	bench.once.Do(func() {
		a := alloc.MustNewArena(4 << 30)
		root, _ := Create(a)
		ix := Open(a, root, readEntry)
		perm := rand.New(rand.NewPCG(7, 7)).Perm(benchN)
		bench.hs = make([]alloc.Handle, benchN)
		bench.members = make([][]byte, benchN)
		for _, i := range perm {
			m := fmt.Appendf(nil, "member:%010d", i)
			bench.members[i] = m
			bench.hs[i] = newEntry(a, float64(2*i), m)
			if err := ix.Insert(float64(2*i), m, bench.hs[i]); err != nil {
				panic(err)
			}
		}
		bench.ix = ix
	})
	return bench.ix
}

// randoms is a fixed sequence of random indexes below benchN, so that every benchmark loop
// pays the same for choosing.
var randoms = func() []int32 {
	r := rand.New(rand.NewPCG(3, 3))
	s := make([]int32, 1<<16)
	for i := range s {
		s[i] = int32(r.IntN(benchN))
	}
	return s
}()

func BenchmarkRank(b *testing.B) {
	ix := benchIndex(b)
	members := make([][]byte, len(randoms)) // the members asked for, in cache as a command's argument
	for i, k := range randoms {
		members[i] = []byte(member(int(k)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & (len(randoms) - 1)
		k := int(randoms[j])
		if r, ok := ix.Rank(float64(2*k), members[j]); !ok || r != k {
			b.Fatal("rank", k, r, ok)
		}
	}
}

func BenchmarkAt(b *testing.B) {
	ix := benchIndex(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := int(randoms[i&(len(randoms)-1)])
		if ix.At(k) != bench.hs[k] {
			b.Fatal("at", k)
		}
	}
}

func BenchmarkFirstAbove(b *testing.B) {
	ix := benchIndex(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := int(randoms[i&(len(randoms)-1)])
		if ix.FirstAbove(float64(2*k)-1, false) != k {
			b.Fatal("firstabove", k)
		}
	}
}

// BenchmarkWalkMiddle walks 10 entries from a rank in the middle (ZRANGE n/2 n/2+9).
func BenchmarkWalkMiddle(b *testing.B) {
	ix := benchIndex(b)
	sum := 0
	fn := func(h alloc.Handle) bool { sum++; return sum%10 != 0 }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ix.Walk(benchN/2+i%1000, i&1 == 0, fn)
	}
}

// pool is a set of entries with odd scores, absent from the shared index.
func benchPool(b *testing.B, ix Index, n int) ([]alloc.Handle, []float64, [][]byte) {
	r := rand.New(rand.NewPCG(11, 11))
	hs, scores, members := make([]alloc.Handle, n), make([]float64, n), make([][]byte, n)
	for i := range n {
		scores[i] = float64(2*r.IntN(benchN) + 1)
		members[i] = fmt.Appendf(nil, "extra:%010d", i)
		hs[i] = newEntry(ix.a, scores[i], members[i])
	}
	b.Cleanup(func() {
		for _, h := range hs {
			freeEntry(ix.a, h)
		}
	})
	return hs, scores, members
}

func BenchmarkInsert(b *testing.B) {
	ix := benchIndex(b)
	const poolN = 1 << 16
	hs, scores, members := benchPool(b, ix, poolN)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & (poolN - 1)
		if j == 0 && i > 0 {
			b.StopTimer()
			for k := range poolN {
				ix.Delete(scores[k], members[k])
			}
			b.StartTimer()
		}
		if err := ix.Insert(scores[j], members[j], hs[j]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	for k := range min(b.N, poolN) {
		ix.Delete(scores[k], members[k])
	}
}

func BenchmarkDelete(b *testing.B) {
	ix := benchIndex(b)
	const poolN = 1 << 16
	hs, scores, members := benchPool(b, ix, poolN)
	fill := func() {
		for k := range poolN {
			if err := ix.Insert(scores[k], members[k], hs[k]); err != nil {
				b.Fatal(err)
			}
		}
	}
	fill()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & (poolN - 1)
		if j == 0 && i > 0 {
			b.StopTimer()
			fill()
			b.StartTimer()
		}
		if _, ok := ix.Delete(scores[j], members[j]); !ok {
			b.Fatal("delete")
		}
	}
	b.StopTimer()
	for k := b.N & (poolN - 1); k < poolN && b.N&(poolN-1) != 0; k++ {
		ix.Delete(scores[k], members[k])
	}
}

// BenchmarkAppend is a sorted bulk load (an RDB load of a big sorted set), per entry.
func BenchmarkAppend(b *testing.B) {
	a := alloc.MustNewArena(4 << 30)
	defer a.Close()
	root, _ := Create(a)
	ix := Open(a, root, readEntry)
	m := []byte("member:0000000000")
	h := newEntry(a, 0, m) // one entry image for all: Append compares nothing
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := ix.Append(float64(i), m, h); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	ix.Destroy(nil)
}
