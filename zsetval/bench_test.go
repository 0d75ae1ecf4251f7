package zsetval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// benchSize is the big sorted set.
const benchSize = 1_000_000

// benchZset makes a sorted set of n members "member:%010d" with score i (a skiplist).
func benchZset(b *testing.B, n int) (*alloc.Arena, alloc.Handle, [][]byte) {
	a := alloc.MustNewArena(1 << 32)
	b.Cleanup(a.Close)
	bl := NewBuilder(a, []byte("z"), n, 17, 0)
	members := make([][]byte, n)
	for i := range members {
		members[i] = fmt.Appendf(nil, "member:%010d", i)
		if err := bl.Add(members[i], float64(i)); err != nil {
			b.Fatal(err)
		}
	}
	rec, err := bl.Finish()
	if err != nil {
		b.Fatal(err)
	}
	return a, rec, members
}

// BenchmarkAdd adds new members at random places of a 1,000,000-member set (ZADD of a new
// member: an entry, a table insert, an index insert), removing them again outside the timer
// once the batch is done.
func BenchmarkAdd(b *testing.B) {
	a, rec, members := benchZset(b, benchSize)
	b.ReportAllocs()
	var mb []byte
	i := 0
	for b.Loop() {
		mb = fmt.Appendf(mb[:0], "new:%d", i)
		if _, _, err := Add(a, rec, mb, float64((i*7919)%benchSize)+0.5, 0); err != nil {
			b.Fatal(err)
		}
		i++
	}
	_ = members
}

// BenchmarkUpdate changes the score of present members (ZADD of a known member: out of the
// index and in again at the new score, the entry changed in place).
func BenchmarkUpdate(b *testing.B) {
	a, rec, members := benchZset(b, benchSize)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		j := (i * 7919) % benchSize
		if _, _, err := Add(a, rec, members[j], float64(j)+float64(i%2)*0.5, 0); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkScore reads scores (ZSCORE: the table alone).
func BenchmarkScore(b *testing.B) {
	a, rec, members := benchZset(b, benchSize)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := Score(a, rec, members[(i*7919)%benchSize]); !ok {
			b.Fatal("missing")
		}
		i++
	}
}

// BenchmarkRank reads ranks (ZRANK: the table, then a descent of the index).
func BenchmarkRank(b *testing.B) {
	a, rec, members := benchZset(b, benchSize)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		j := (i * 7919) % benchSize
		if r, _, ok := Rank(a, rec, members[j], false); !ok || r != j {
			b.Fatal("rank", r, j)
		}
		i++
	}
}

// BenchmarkRangeByRank reads 10 members from the middle (ZRANGE z 500000 500009).
func BenchmarkRangeByRank(b *testing.B) {
	a, rec, _ := benchZset(b, benchSize)
	b.ReportAllocs()
	scratch := make([]byte, 0, 32)
	n := 0
	fn := func([]byte, float64) bool { n++; return true }
	for b.Loop() {
		RangeByRank(a, rec, benchSize/2, benchSize/2+9, false, scratch, fn)
	}
	if n == 0 {
		b.Fatal("nothing read")
	}
}

// BenchmarkPop pops the lowest member and adds it back at the top (ZPOPMIN, then ZADD), so the
// set keeps its size.
func BenchmarkPop(b *testing.B) {
	a, rec, _ := benchZset(b, benchSize)
	b.ReportAllocs()
	var mb []byte
	top := float64(benchSize)
	fn := func(m []byte, _ float64) { mb = append(mb[:0], m...) }
	for b.Loop() {
		if Pop(a, rec, false, 1, nil, fn) != 1 {
			b.Fatal("empty")
		}
		if _, _, err := Add(a, rec, mb, top, 0); err != nil {
			b.Fatal(err)
		}
		top++
	}
}
