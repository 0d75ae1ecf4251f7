package zindex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

func member(i int) string { return fmt.Sprintf("member:%010d", i) }

func TestEmpty(t *testing.T) {
	th := newHarness(t)
	ix := th.ix()
	if ix.Len() != 0 || ix.FirstAbove(0, false) != 0 || ix.LastBelow(0, false) != -1 ||
		ix.FirstLexAbove(nil, false) != 0 || ix.LastLexBelow([]byte("z"), false) != -1 {
		t.Fatal("empty index answers wrong")
	}
	if _, ok := ix.Rank(0, []byte("a")); ok {
		t.Fatal("Rank in an empty index")
	}
	if _, ok := ix.Delete(0, []byte("a")); ok {
		t.Fatal("Delete in an empty index")
	}
	ix.Walk(0, false, func(alloc.Handle) bool { t.Fatal("walk of empty"); return false })
	if ix.Bytes() != alloc.UsableSize(headerSize) || th.a.Used() != int64(ix.Bytes()) {
		t.Fatalf("empty index is charged %d, arena %d", ix.Bytes(), th.a.Used())
	}
	th.verify()
	th.destroy(0)
}

// TestModelRandom drives random operations against the model through every node split,
// merge and share.
func TestModelRandom(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			th := newHarness(t)
			rng := rand.New(rand.NewPCG(seed, 0))
			ops := 30000
			if testing.Short() {
				ops = 5000
			}
			space := 5000
			for i := range ops {
				m := member(rng.IntN(space))
				score := float64(rng.IntN(200)) // many ties
				if i%5000 > 3500 {
					th.delete(m) // shrinking phases exercise merges
					continue
				}
				switch rng.IntN(10) {
				case 0, 1, 2, 3, 4, 5:
					th.insert(score, m)
				case 6, 7:
					th.delete(m)
				case 8:
					th.queries(score+0.5*float64(rng.IntN(2)), m, rng.IntN(1<<20))
				case 9:
					if n := len(th.model); n > 0 && rng.IntN(20) == 0 {
						start := rng.IntN(n)
						th.deleteRange(start, min(n-1, start+rng.IntN(200)))
					}
				}
				if !th.check && i%500 == 0 {
					th.verify()
				}
			}
			th.verify()
			th.destroy(rng.IntN(300))
		})
	}
}

// TestAscendingAndAppend: in-order inserts and a sorted Append fill nodes completely, and the
// result takes random deletes down to nothing.
func TestAscendingAndAppend(t *testing.T) {
	for _, useAppend := range []bool{false, true} {
		th := newHarness(t)
		n := 20000
		if invariantsOn {
			n = 4000 // a full Check after every step: 66 leaves, 3 levels
		}
		for i := range n {
			if useAppend {
				th.append(float64(i/3), member(i))
			} else {
				th.insert(float64(i/3), member(i))
			}
		}
		th.verify()
		ix := th.ix()
		full := (n + leafCap - 1) / leafCap
		if int(ix.hdr.leaves) != full {
			t.Fatalf("append=%v: %d leaves for %d entries, want %d", useAppend, ix.hdr.leaves, n, full)
		}
		rng := rand.New(rand.NewPCG(9, 9))
		for len(th.model) > 0 {
			th.delete(th.model[rng.IntN(len(th.model))].member)
			if !th.check && len(th.model)%1000 == 0 {
				th.verify()
			}
		}
		th.verify()
		th.destroy(0)
	}
}

// TestDescending inserts in decreasing order (every insert at rank 0).
func TestDescending(t *testing.T) {
	th := newHarness(t)
	for i := 5000; i > 0; i-- {
		th.insert(float64(i), member(i))
	}
	th.verify()
	for i := 0; i < 5000; i += 7 {
		th.queries(float64(i)+0.5, member(i), i)
	}
	th.deleteRange(0, 2499)
	th.verify()
	th.destroy(100)
}

// TestDeleteRangeBig removes ranges spanning many leaves and levels: the front, the back, the
// middle, everything.
func TestDeleteRangeBig(t *testing.T) {
	th := newHarness(t)
	th.check = false
	rng := rand.New(rand.NewPCG(6, 6))
	for _, i := range rng.Perm(60000) {
		m := member(i)
		e := ent{float64(i % 1000), m, newEntry(th.a, float64(i%1000), []byte(m))}
		if err := th.ix().Insert(e.score, []byte(m), e.h); err != nil {
			t.Fatal(err)
		}
		th.model = append(th.model, e)
		th.score[m] = e.score
	}
	slices.SortFunc(th.model, cmpEnt)
	th.verify()
	th.deleteRange(0, 9999)
	th.verify()
	th.deleteRange(len(th.model)-10000, len(th.model)-1)
	th.verify()
	th.deleteRange(5000, 34999)
	th.verify()
	th.queries(500, member(1), 7)
	// Ranges out of the index are cut to it.
	th.ix().DeleteRange(len(th.model), len(th.model)+5, nil)
	th.ix().DeleteRange(-5, -1, nil)
	th.verify()
	th.deleteRange(0, len(th.model)-1)
	th.verify()
	if b := th.ix().Bytes(); b != alloc.UsableSize(headerSize) {
		t.Fatalf("empty index holds %d bytes", b)
	}
	th.destroy(0)
}

// TestTiesSpecialScores: equal scores order by member bytes, -0 equals +0, infinities sort at
// the ends.
func TestTiesSpecialScores(t *testing.T) {
	th := newHarness(t)
	negZero := math.Copysign(0, -1)
	scores := []float64{math.Inf(-1), -1e300, -1, negZero, 0, 5e-324, 1, 1e300, math.Inf(1)}
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 3000 {
		th.insert(scores[rng.IntN(len(scores))], fmt.Sprintf("m%d", rng.IntN(100000)))
		_ = i
	}
	th.verify()
	for _, s := range scores {
		th.queries(s, "m1", 0)
	}
	// -0 and +0 are one score: members with either sort together by member.
	ix := th.ix()
	lo, hi := ix.FirstAbove(negZero, false), ix.LastBelow(0, false)
	for r := lo; r <= hi; r++ {
		if s, _ := readEntry(th.a, ix.At(r)); s != 0 {
			t.Fatalf("rank %d in the zero range has score %v", r, s)
		}
	}
	if ix.FirstAbove(0, false) != lo || ix.LastBelow(negZero, false) != hi {
		t.Fatal("-0 and +0 bound different ranges")
	}
	for _, e := range th.model {
		if e.score == 0 {
			if r, ok := ix.Rank(-e.score, []byte(e.member)); !ok || r != th.find(e.member) {
				t.Fatalf("Rank with the other zero of %q: %d %v", e.member, r, ok)
			}
		}
	}
	if ix.FirstAbove(math.Inf(1), true) != len(th.model) || ix.LastBelow(math.Inf(-1), true) != -1 {
		t.Fatal("exclusive infinite bounds")
	}
	if ix.FirstAbove(math.Inf(-1), false) != 0 || ix.LastBelow(math.Inf(1), false) != len(th.model)-1 {
		t.Fatal("inclusive infinite bounds")
	}
	th.destroy(0)
}

// TestLex: with one score for all, the lex searches bound member ranges.
func TestLex(t *testing.T) {
	th := newHarness(t)
	rng := rand.New(rand.NewPCG(5, 5))
	for range 4000 {
		th.insert(0, fmt.Sprintf("%x", rng.IntN(1<<20)))
	}
	th.lexQueries("")
	th.lexQueries("\xff")
	for range 300 {
		th.lexQueries(fmt.Sprintf("%x", rng.IntN(1<<20)))
		th.lexQueries(th.model[rng.IntN(len(th.model))].member)
	}
	th.destroy(0)
}

// TestViewAllocs: opening a view and the read operations allocate no Go memory.
func TestViewAllocs(t *testing.T) {
	th := newHarness(t)
	th.check = false
	for i := range 5000 {
		th.insert(float64(i%100), member(i))
	}
	m := []byte(member(1234))
	s := float64(1234 % 100)
	sum := 0
	walk := func(h alloc.Handle) bool { sum += int(h); return sum%100 != 0 }
	allocs := testing.AllocsPerRun(100, func() {
		ix := Open(th.a, th.root, readEntry)
		r, _ := ix.Rank(s, m)
		_ = ix.At(r)
		ix.FirstAbove(s, false)
		ix.LastLexBelow(m, true)
		ix.Walk(r, true, walk)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per call", allocs)
	}
	th.destroy(0)
}

// TestOOM: an insert that needs more nodes than the arena can give fails and changes nothing,
// and succeeds once memory is back.
func TestOOM(t *testing.T) {
	for free := 1; free <= 4; free++ {
		a := alloc.MustNewArena(8 << 20) // span 0 for headers, then three spans
		root, _ := Create(a)
		entries := make([]alloc.Handle, 0, 2000)
		for i := range cap(entries) {
			entries = append(entries, newEntry(a, float64(i), []byte(member(i))))
		}
		// Take every node-sized slot, then give back free of them.
		var dummies []alloc.Handle
		for {
			h := a.Alloc(leafSize)
			if h == 0 {
				break
			}
			dummies = append(dummies, h)
		}
		for _, h := range dummies[len(dummies)-free:] {
			a.Free(h, leafSize)
		}
		dummies = dummies[:len(dummies)-free]
		ix := Open(a, root, readEntry)
		failed := false
		for i, h := range entries {
			err := ix.Insert(float64(i), []byte(member(i)), h)
			if cerr := ix.Check(); cerr != nil {
				t.Fatal(cerr)
			}
			if err == nil {
				continue
			}
			if err != ErrOOM || ix.Len() != i {
				t.Fatalf("free=%d: insert %d: %v, Len %d", free, i, err, ix.Len())
			}
			a.Free(dummies[0], leafSize)
			a.Free(dummies[1], leafSize)
			dummies = dummies[2:]
			if err := ix.Insert(float64(i), []byte(member(i)), h); err != nil {
				t.Fatalf("free=%d: insert after freeing: %v", free, err)
			}
			failed = true
			break
		}
		if !failed {
			t.Fatalf("free=%d: no insert failed", free)
		}
		a.Close()
	}
}
