package zsetval

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 32)
	t.Cleanup(a.Close)
	return a
}

// withLimits runs the test with the given limits and puts the defaults back afterwards.
func withLimits(t testing.TB, entries, value int64) {
	SetLimits(entries, value)
	t.Cleanup(func() { SetLimits(DefaultMaxListpackEntries, DefaultMaxListpackValue) })
}

type pair struct {
	m string
	s float64
}

// bothEncodings runs fn with the default limits (listpacks) and with limits of 0 (skiplists
// from the first member).
func bothEncodings(t *testing.T, fn func(t *testing.T)) {
	t.Run("listpack", fn)
	t.Run("skiplist", func(t *testing.T) {
		withLimits(t, 0, 0)
		fn(t)
	})
}

// newZset makes a sorted-set record of key "z" and adds the pairs.
func newZset(t testing.TB, a *alloc.Arena, pairs ...pair) alloc.Handle {
	t.Helper()
	rec, err := New(a, []byte("z"), len(pairs), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if _, _, err := Add(a, rec, []byte(p.m), p.s, 0); err != nil {
			t.Fatal(err)
		}
	}
	if want := wantEncoding(len(pairs)); Encoding(a, rec) != want {
		t.Fatalf("encoding %s, want %s", Encoding(a, rec).Name(), want.Name())
	}
	mustCheck(t, a, rec)
	return rec
}

// wantEncoding is the encoding of n members of at most 64 bytes under bothEncodings' limits.
func wantEncoding(n int) object.Encoding {
	if n > maxEntries() {
		return object.EncSkiplist
	}
	return object.EncListpack
}

func all(a *alloc.Arena, rec alloc.Handle) []pair {
	var out []pair
	Each(a, rec, nil, func(m []byte, s float64) bool {
		out = append(out, pair{string(m), s})
		return true
	})
	return out
}

func collect(out *[]pair) func(m []byte, s float64) bool {
	return func(m []byte, s float64) bool {
		*out = append(*out, pair{string(m), s})
		return true
	}
}

func mustCheck(t testing.TB, a *alloc.Arena, rec alloc.Handle) {
	t.Helper()
	if err := Check(a, rec); err != nil {
		t.Fatal(err)
	}
}

func freeRec(t testing.TB, a *alloc.Arena, rec alloc.Handle) {
	t.Helper()
	object.Free(a, rec)
	if a.Used() != 0 {
		t.Fatalf("arena still charged %d after Free", a.Used())
	}
}

func TestAddFlags(t *testing.T) { bothEncodings(t, testAddFlags) }

func testAddFlags(t *testing.T) {
	a := newArena(t)
	rec := newZset(t, a, pair{"a", 1})
	type step struct {
		m     string
		s     float64
		f     AddFlags
		score float64
		res   AddResult
	}
	steps := []step{
		{"a", 1, 0, 1, 0},              // same score: processed, no change
		{"a", 2, 0, 2, AddUpdated},     // update
		{"a", 5, AddNX, 2, AddNop},     // NX on a present member
		{"b", 5, AddXX, 0, AddNop},     // XX on an absent one
		{"b", 5, AddNX, 5, AddAdded},   // NX adds
		{"a", 1, AddGT, 2, AddNop},     // GT refuses a lower score
		{"a", 3, AddGT, 3, AddUpdated}, // GT takes a higher one
		{"a", 4, AddLT, 3, AddNop},     // LT refuses a higher one
		{"a", 3, AddLT, 3, AddNop},     // LT refuses the same
		{"a", 0.5, AddLT | AddXX, 0.5, AddUpdated},
		{"a", 2, AddIncr, 2.5, AddUpdated},    // INCR adds
		{"c", 7, AddIncr, 7, AddAdded},        // INCR of an absent member starts at 0
		{"c", 0, AddIncr, 7, 0},               // INCR by 0
		{"c", -1, AddIncr | AddGT, 7, AddNop}, // INCR with GT compares the sum
		{"c", math.Inf(1), AddIncr, math.Inf(1), AddUpdated},
		{"c", math.Inf(-1), AddIncr, 0, AddNaN}, // inf + -inf
		{"d", math.NaN(), 0, 0, AddNaN},
	}
	for i, st := range steps {
		score, res, err := Add(a, rec, []byte(st.m), st.s, st.f)
		if err != nil {
			t.Fatal(err)
		}
		if res != st.res || (res&(AddNaN) == 0 && score != st.score) {
			t.Fatalf("step %d %+v: got %v, %v", i, st, score, res)
		}
		mustCheck(t, a, rec)
	}
	want := []pair{{"a", 2.5}, {"b", 5}, {"c", math.Inf(1)}}
	if got := all(a, rec); !slices.Equal(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	freeRec(t, a, rec)
}

func TestOrderAndReads(t *testing.T) { bothEncodings(t, testOrderAndReads) }

func testOrderAndReads(t *testing.T) {
	a := newArena(t)
	in := []pair{{"e", 3}, {"b", 1}, {"a", 1}, {"10", 2}, {"9", 2}, {"z", -1.5}, {"c", 1}, {"big", 1e20}, {"-inf", math.Inf(-1)}}
	rec := newZset(t, a, in...)
	mustCheck(t, a, rec)
	want := []pair{{"-inf", math.Inf(-1)}, {"z", -1.5}, {"a", 1}, {"b", 1}, {"c", 1}, {"10", 2}, {"9", 2}, {"e", 3}, {"big", 1e20}}
	if got := all(a, rec); !slices.Equal(got, want) {
		t.Fatalf("order %v", got)
	}
	if Len(a, rec) != len(want) || Encoding(a, rec) != wantEncoding(len(want)) {
		t.Fatal("len or encoding")
	}
	for i, p := range want {
		if s, ok := Score(a, rec, []byte(p.m)); !ok || s != p.s {
			t.Fatalf("Score(%s) = %v %v", p.m, s, ok)
		}
		r, s, ok := Rank(a, rec, []byte(p.m), false)
		if !ok || r != i || s != p.s {
			t.Fatalf("Rank(%s) = %d", p.m, r)
		}
		r, _, _ = Rank(a, rec, []byte(p.m), true)
		if r != len(want)-1-i {
			t.Fatalf("RevRank(%s) = %d", p.m, r)
		}
	}
	if _, ok := Score(a, rec, []byte("nope")); ok {
		t.Fatal("Score of an absent member")
	}
	if _, _, ok := Rank(a, rec, []byte("nope"), false); ok {
		t.Fatal("Rank of an absent member")
	}
	checkReads(t, a, rec, want)
	freeRec(t, a, rec)
}

// checkReads compares every range read of rec with the sorted model want.
func checkReads(t *testing.T, a *alloc.Arena, rec alloc.Handle, want []pair) {
	t.Helper()
	n := len(want)
	for start := 0; start < n; start++ {
		for stop := start; stop < n; stop++ {
			var got, rev []pair
			RangeByRank(a, rec, start, stop, false, nil, collect(&got))
			if !slices.Equal(got, want[start:stop+1]) {
				t.Fatalf("RangeByRank(%d,%d) = %v", start, stop, got)
			}
			RangeByRank(a, rec, start, stop, true, nil, collect(&rev))
			exp := slices.Clone(want)
			slices.Reverse(exp)
			if !slices.Equal(rev, exp[start:stop+1]) {
				t.Fatalf("RangeByRank(%d,%d, rev) = %v", start, stop, rev)
			}
		}
	}
	bounds := []float64{math.Inf(-1), -2, -1.5, 0, 1, 1.5, 2, 3, 1e20, math.Inf(1)}
	for _, lo := range bounds {
		for _, hi := range bounds {
			for ex := 0; ex < 4; ex++ {
				r := ScoreRange{Min: lo, Max: hi, MinEx: ex&1 != 0, MaxEx: ex&2 != 0}
				var in []pair
				for _, p := range want {
					if r.gteMin(p.s) && r.lteMax(p.s) {
						in = append(in, p)
					}
				}
				if c := CountByScore(a, rec, r); c != len(in) {
					t.Fatalf("CountByScore(%+v) = %d want %d", r, c, len(in))
				}
				for _, ol := range [][2]int{{0, -1}, {1, 2}, {0, 0}, {2, -1}} {
					var got []pair
					RangeByScore(a, rec, r, false, ol[0], ol[1], nil, collect(&got))
					if exp := window(in, ol[0], ol[1]); !slices.Equal(got, exp) {
						t.Fatalf("RangeByScore(%+v, %v) = %v want %v", r, ol, got, exp)
					}
					rin := slices.Clone(in)
					slices.Reverse(rin)
					got = nil
					RangeByScore(a, rec, r, true, ol[0], ol[1], nil, collect(&got))
					if exp := window(rin, ol[0], ol[1]); !slices.Equal(got, exp) {
						t.Fatalf("RangeByScore(%+v, %v, rev) = %v want %v", r, ol, got, exp)
					}
				}
			}
		}
	}
}

// window is offset, limit applied to in.
func window(in []pair, offset, limit int) []pair {
	if offset >= len(in) {
		return nil
	}
	in = in[offset:]
	if limit >= 0 && limit < len(in) {
		in = in[:limit]
	}
	if len(in) == 0 {
		return nil
	}
	return in
}

func TestLex(t *testing.T) { bothEncodings(t, testLex) }

func testLex(t *testing.T) {
	a := newArena(t)
	var want []pair
	for _, m := range []string{"a", "aa", "ab", "b", "c", "d", "e", "f", "g", "1", "22"} {
		want = append(want, pair{m, 0})
	}
	slices.SortFunc(want, func(x, y pair) int { return strings.Compare(x.m, y.m) })
	rec := newZset(t, a, want...)
	items := []string{"-", "+", "[a", "(a", "[b", "(b", "[aa", "(c", "[z", "[", "(", "[0", "[1", "(22"}
	for _, lo := range items {
		for _, hi := range items {
			r, ok := ParseLexRange([]byte(lo), []byte(hi))
			if !ok {
				t.Fatal(lo, hi)
			}
			var in []pair
			for _, p := range want {
				if !r.empty() && r.gteMin([]byte(p.m)) && r.lteMax([]byte(p.m)) {
					in = append(in, p)
				}
			}
			if c := CountByLex(a, rec, r); c != len(in) {
				t.Fatalf("CountByLex(%s %s) = %d want %d", lo, hi, c, len(in))
			}
			for _, ol := range [][2]int{{0, -1}, {1, 2}, {3, -1}} {
				var got []pair
				RangeByLex(a, rec, r, false, ol[0], ol[1], nil, collect(&got))
				if exp := window(in, ol[0], ol[1]); !slices.Equal(got, exp) {
					t.Fatalf("RangeByLex(%s %s %v) = %v want %v", lo, hi, ol, got, exp)
				}
				rin := slices.Clone(in)
				slices.Reverse(rin)
				got = nil
				RangeByLex(a, rec, r, true, ol[0], ol[1], nil, collect(&got))
				if exp := window(rin, ol[0], ol[1]); !slices.Equal(got, exp) {
					t.Fatalf("RangeByLex(%s %s %v rev) = %v want %v", lo, hi, ol, got, exp)
				}
			}
		}
	}
	r, _ := ParseLexRange([]byte("[aa"), []byte("(c"))
	if n := RemoveRangeByLex(a, rec, r); n != 3 {
		t.Fatalf("RemoveRangeByLex = %d", n)
	}
	mustCheck(t, a, rec)
	if Len(a, rec) != len(want)-3 {
		t.Fatal("len after RemoveRangeByLex")
	}
	freeRec(t, a, rec)
}

func TestRemoveAndPop(t *testing.T) { bothEncodings(t, testRemoveAndPop) }

func testRemoveAndPop(t *testing.T) {
	a := newArena(t)
	var in []pair
	for i := 0; i < 20; i++ {
		in = append(in, pair{fmt.Sprint("m", i), float64(i)})
	}
	rec := newZset(t, a, in...)
	if !Remove(a, rec, []byte("m5")) || Remove(a, rec, []byte("m5")) {
		t.Fatal("Remove")
	}
	in = slices.Delete(in, 5, 6)
	if n := RemoveRangeByRank(a, rec, 2, 4); n != 3 {
		t.Fatal("RemoveRangeByRank", n)
	}
	in = slices.Delete(in, 2, 5)
	if n := RemoveRangeByScore(a, rec, ScoreRange{Min: 10, Max: 12, MinEx: true}); n != 2 {
		t.Fatal("RemoveRangeByScore", n)
	}
	in = slices.DeleteFunc(in, func(p pair) bool { return p.s > 10 && p.s <= 12 })
	if n := RemoveRangeByScore(a, rec, ScoreRange{Min: 100, Max: 200}); n != 0 {
		t.Fatal("RemoveRangeByScore out of range", n)
	}
	mustCheck(t, a, rec)
	if got := all(a, rec); !slices.Equal(got, in) {
		t.Fatalf("after removes %v want %v", got, in)
	}
	var popped []pair
	if n := Pop(a, rec, false, 2, nil, func(m []byte, s float64) { popped = append(popped, pair{string(m), s}) }); n != 2 {
		t.Fatal("Pop min", n)
	}
	if n := Pop(a, rec, true, 3, nil, func(m []byte, s float64) { popped = append(popped, pair{string(m), s}) }); n != 3 {
		t.Fatal("Pop max", n)
	}
	exp := []pair{in[0], in[1], in[len(in)-1], in[len(in)-2], in[len(in)-3]}
	if !slices.Equal(popped, exp) {
		t.Fatalf("popped %v want %v", popped, exp)
	}
	in = in[2 : len(in)-3]
	mustCheck(t, a, rec)
	if got := all(a, rec); !slices.Equal(got, in) {
		t.Fatalf("after pops %v want %v", got, in)
	}
	if n := Pop(a, rec, true, 1000, nil, func([]byte, float64) {}); n != len(in) || Len(a, rec) != 0 {
		t.Fatal("pop all", n)
	}
	freeRec(t, a, rec)
}

func TestRandom(t *testing.T) { bothEncodings(t, testRandom) }

func testRandom(t *testing.T) {
	a := newArena(t)
	var in []pair
	for i := 0; i < 10; i++ {
		in = append(in, pair{fmt.Sprint(i * 1000), float64(i) / 2})
	}
	rec := newZset(t, a, in...)
	isMember := func(m []byte, s float64) bool {
		return slices.Contains(in, pair{string(m), s})
	}
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		m, s := RandomMember(a, rec, nil)
		if !isMember(m, s) {
			t.Fatalf("RandomMember %q %v", m, s)
		}
		seen[string(m)] = true
	}
	if len(seen) != len(in) {
		t.Fatalf("RandomMember saw %d of %d", len(seen), len(in))
	}
	for _, count := range []int64{-25, -1, 1, 3, 9, 10, 11, 100} {
		var got []pair
		RandomMembers(a, rec, count, nil, func(m []byte, s float64) {
			if !isMember(m, s) {
				t.Fatalf("RandomMembers %q %v", m, s)
			}
			got = append(got, pair{string(m), s})
		})
		want := int(count)
		if count < 0 {
			want = int(-count)
		} else if want > len(in) {
			want = len(in)
		}
		if len(got) != want {
			t.Fatalf("RandomMembers(%d) gave %d", count, len(got))
		}
		if count > 0 {
			uniq := map[string]bool{}
			for _, p := range got {
				uniq[p.m] = true
			}
			if len(uniq) != len(got) {
				t.Fatalf("RandomMembers(%d) repeats: %v", count, got)
			}
		}
	}
	freeRec(t, a, rec)
}

func TestScan(t *testing.T) { bothEncodings(t, testScan) }

func testScan(t *testing.T) {
	a := newArena(t)
	var in []pair
	for i := 0; i < 100; i++ {
		in = append(in, pair{fmt.Sprint("m", i), float64(i)})
	}
	rec := newZset(t, a, in...)
	seen := map[pair]bool{}
	calls := 0
	for c := uint64(0); ; calls++ {
		c = Scan(a, rec, c, 10, nil, func(m []byte, s float64) { seen[pair{string(m), s}] = true })
		if c == 0 {
			break
		}
	}
	if len(seen) != len(in) {
		t.Fatalf("scan saw %d of %d", len(seen), len(in))
	}
	if Encoding(a, rec) == object.EncListpack && calls != 0 {
		t.Fatal("a listpack scans in one call")
	}
	if Encoding(a, rec) == object.EncSkiplist && calls == 0 {
		t.Fatal("a skiplist of 100 scans in one call with COUNT 10")
	}
	freeRec(t, a, rec)
}

func TestBuilder(t *testing.T) {
	a := newArena(t)
	b := NewBuilder(a, []byte("z"), 3, 1, 0)
	for _, p := range []pair{{"c", 3}, {"a", 1}, {"b", 1}, {"x", 0.25}} {
		if err := b.Add([]byte(p.m), p.s); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, a, rec)
	if got := all(a, rec); !slices.Equal(got, []pair{{"x", 0.25}, {"a", 1}, {"b", 1}, {"c", 3}}) {
		t.Fatal(got)
	}
	// A listpack given whole is kept byte for byte.
	lp := append([]byte(nil), ListpackBytes(a, rec)...)
	b2 := NewBuilder(a, []byte("y"), 0, 0, 0)
	if err := b2.AppendListpack(lp); err != nil {
		t.Fatal(err)
	}
	rec2, err := b2.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if string(ListpackBytes(a, rec2)) != string(lp) {
		t.Fatal("AppendListpack did not keep the bytes")
	}
	object.Free(a, rec2)
	// Aborted: nothing left.
	b3 := NewBuilder(a, []byte("w"), 0, 0, 0)
	b3.Add([]byte("q"), 1)
	b3.Abort()
	freeRec(t, a, rec)
}

func TestCopyAndSize(t *testing.T) { bothEncodings(t, testCopyAndSize) }

func testCopyAndSize(t *testing.T) {
	a, b := newArena(t), newArena(t)
	rec := newZset(t, a, pair{"a", 1.5}, pair{"b", 2})
	c, err := object.CopyCollection(a, rec, b, []byte("z2"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(all(b, c), all(a, rec)) {
		t.Fatal("copy differs")
	}
	freeRec(t, b, c)
	freeRec(t, a, rec)
}
