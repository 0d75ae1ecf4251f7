package zindex

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// A Go model of Redis's zset skiplist (t_zset.c: p = 1/4, 32 levels, spans for ranks), used
// only as the benchmarks' yardstick: ZRANK and ZRANGE by rank walk it (zslGetRank,
// zslGetElementByRank), so Rank and At are measured against it in the same process, on the
// same machine load.
type slNode struct {
	score    float64
	member   string
	backward *slNode
	level    []slLevel
}

type slLevel struct {
	forward *slNode
	span    int
}

type skiplist struct {
	head   *slNode
	level  int
	length int
	rng    *rand.Rand
}

func newSkiplist() *skiplist {
	return &skiplist{head: &slNode{level: make([]slLevel, 32)}, level: 1, rng: rand.New(rand.NewPCG(1, 1))}
}

// newSLNode allocates a node with its levels in the same object, as Redis's flexible array
// (a separate level slice would cost the model a cache miss per hop that Redis does not pay).
func newSLNode(level int) *slNode {
	switch level {
	case 1:
		x := &struct {
			n  slNode
			lv [1]slLevel
		}{}
		x.n.level = x.lv[:]
		return &x.n
	case 2:
		x := &struct {
			n  slNode
			lv [2]slLevel
		}{}
		x.n.level = x.lv[:]
		return &x.n
	case 3, 4:
		x := &struct {
			n  slNode
			lv [4]slLevel
		}{}
		x.n.level = x.lv[:level]
		return &x.n
	}
	return &slNode{level: make([]slLevel, level)}
}

func slLess(s1 float64, m1 string, s2 float64, m2 string) bool {
	return s1 < s2 || s1 == s2 && strings.Compare(m1, m2) < 0
}

func (zsl *skiplist) insert(score float64, member string) {
	var update [32]*slNode
	var rank [32]int
	x := zsl.head
	for i := zsl.level - 1; i >= 0; i-- {
		if i != zsl.level-1 {
			rank[i] = rank[i+1]
		}
		for f := x.level[i].forward; f != nil && slLess(f.score, f.member, score, member); f = x.level[i].forward {
			rank[i] += x.level[i].span
			x = f
		}
		update[i] = x
	}
	level := 1
	for level < 32 && zsl.rng.Uint32()&0xffff < 0xffff/4 {
		level++
	}
	if level > zsl.level {
		for i := zsl.level; i < level; i++ {
			rank[i] = 0
			update[i] = zsl.head
			update[i].level[i].span = zsl.length
		}
		zsl.level = level
	}
	x = newSLNode(level)
	x.score, x.member = score, member
	for i := range level {
		x.level[i].forward = update[i].level[i].forward
		update[i].level[i].forward = x
		x.level[i].span = update[i].level[i].span - (rank[0] - rank[i])
		update[i].level[i].span = rank[0] - rank[i] + 1
	}
	for i := level; i < zsl.level; i++ {
		update[i].level[i].span++
	}
	if update[0] != zsl.head {
		x.backward = update[0]
	}
	if x.level[0].forward != nil {
		x.level[0].forward.backward = x
	}
	zsl.length++
}

// getRank is zslGetRank: 1-based, 0 when absent.
func (zsl *skiplist) getRank(score float64, member string) int {
	rank := 0
	x := zsl.head
	for i := zsl.level - 1; i >= 0; i-- {
		for f := x.level[i].forward; f != nil && (f.score < score || f.score == score && strings.Compare(f.member, member) <= 0); f = x.level[i].forward {
			rank += x.level[i].span
			x = f
		}
		if x != zsl.head && x.member == member {
			return rank
		}
	}
	return 0
}

// getByRank is zslGetElementByRank (1-based).
func (zsl *skiplist) getByRank(rank int) *slNode {
	traversed := 0
	x := zsl.head
	for i := zsl.level - 1; i >= 0; i-- {
		for x.level[i].forward != nil && traversed+x.level[i].span <= rank {
			traversed += x.level[i].span
			x = x.level[i].forward
		}
		if traversed == rank {
			return x
		}
	}
	return nil
}

func TestSkiplistModel(t *testing.T) {
	zsl := newSkiplist()
	perm := rand.New(rand.NewPCG(2, 2)).Perm(2000)
	for _, i := range perm {
		zsl.insert(float64(i/2), member(i))
	}
	for i := range 2000 {
		if r := zsl.getRank(float64(i/2), member(i)); r != i+1 {
			t.Fatalf("getRank %d = %d", i, r)
		}
		if x := zsl.getByRank(i + 1); x.member != member(i) {
			t.Fatalf("getByRank %d = %s", i, x.member)
		}
	}
}

var benchSL *skiplist

func benchSkiplist() *skiplist {
	if benchSL == nil {
		benchSL = newSkiplist()
		for _, i := range rand.New(rand.NewPCG(7, 7)).Perm(benchN) {
			benchSL.insert(float64(2*i), member(i))
		}
	}
	return benchSL
}

func BenchmarkSkiplistRank(b *testing.B) {
	zsl := benchSkiplist()
	members := make([]string, len(randoms))
	for i, k := range randoms {
		members[i] = member(int(k))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & (len(randoms) - 1)
		k := int(randoms[j])
		if zsl.getRank(float64(2*k), members[j]) != k+1 {
			b.Fatal("rank")
		}
	}
}

func BenchmarkSkiplistAt(b *testing.B) {
	zsl := benchSkiplist()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := int(randoms[i&(len(randoms)-1)])
		if zsl.getByRank(k+1) == nil {
			b.Fatal("at")
		}
	}
}
