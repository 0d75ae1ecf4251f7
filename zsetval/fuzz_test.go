package zsetval

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// model is a sorted set as a map and its sorted pairs.
type model map[string]float64

func (m model) sorted() []pair {
	var out []pair
	for k, v := range m {
		out = append(out, pair{k, v})
	}
	return sorted(out)
}

func (m model) equalScores() bool {
	first, s0 := true, 0.0
	for _, s := range m {
		if !first && s != s0 {
			return false
		}
		first, s0 = false, s
	}
	return true
}

// fuzzMember draws a member: repeats, integers (listpack integer entries), and lengths on both
// sides of the lowered value limit (8).
func fuzzMember(b, c byte) string {
	switch b % 5 {
	case 0, 1:
		return "m" + strconv.Itoa(int(c)%16)
	case 2:
		return strconv.Itoa(int(int8(c)) * 1000)
	case 3:
		return string(bytes.Repeat([]byte{'a' + c%3}, int(c)%12))
	default:
		return ""
	}
}

// fuzzScore draws a score: few distinct values (ties), fractions, infinities.
func fuzzScore(b byte) float64 {
	switch b % 8 {
	case 0:
		return math.Inf(-1)
	case 1:
		return math.Inf(1)
	case 2:
		return float64(int8(b)) / 4
	default:
		return float64(b % 4)
	}
}

// FuzzModel applies random writes to a sorted set and to a model (a map and its sorted pairs),
// with the limits lowered to 6 entries and 8 bytes so that both encodings and every conversion
// happen, and checks after each step that the set reads as the model (every read), is well
// formed and is charged what MemoryUsage says; freeing it returns every byte.
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 2, 0, 3, 5, 1, 0, 4, 4, 0, 9, 3, 3, 1, 0, 2})
	f.Add(bytes.Repeat([]byte{0, 0, 7, 2, 9, 3}, 30))
	f.Add(bytes.Repeat([]byte{0, 1, 3, 1, 0, 5, 6, 3, 1, 0, 5, 1, 0, 3, 7, 2, 2, 8, 1}, 10))
	f.Fuzz(func(t *testing.T, ops []byte) {
		SetLimits(6, 8)
		defer SetLimits(DefaultMaxListpackEntries, DefaultMaxListpackValue)
		a := alloc.MustNewArena(1 << 30)
		defer a.Close()
		next := func() byte {
			if len(ops) == 0 {
				return 0
			}
			b := ops[0]
			ops = ops[1:]
			return b
		}
		rec, err := New(a, []byte("key"), int(next()%8), int(next()%10), 0)
		if err != nil {
			t.Fatal(err)
		}
		m := model{}
		for steps := 0; len(ops) > 0 && steps < 400; steps++ {
			op := next()
			switch op % 9 {
			case 0, 1, 2: // Add
				mem := fuzzMember(next(), next())
				score := fuzzScore(next())
				flags := AddFlags(next() & 0x1f)
				if flags&AddNX != 0 && flags&(AddXX|AddGT|AddLT) != 0 {
					flags &^= AddXX | AddGT | AddLT // ZADD refuses these together
				}
				if flags&AddGT != 0 && flags&AddLT != 0 {
					flags &^= AddLT
				}
				wantScore, wantRes := modelAdd(m, mem, score, flags)
				got, res, err := Add(a, rec, []byte(mem), score, flags)
				if err != nil {
					t.Fatal(err)
				}
				if res != wantRes || (res&(AddNaN|AddNop) == 0 && got != wantScore) {
					t.Fatalf("Add(%q, %v, %b) = %v %b, model %v %b", mem, score, flags, got, res, wantScore, wantRes)
				}
			case 3: // Remove
				mem := fuzzMember(next(), next())
				_, want := m[mem]
				delete(m, mem)
				if Remove(a, rec, []byte(mem)) != want {
					t.Fatalf("Remove(%q) != %v", mem, want)
				}
			case 4: // RemoveRangeByRank
				n := len(m)
				if n == 0 {
					continue
				}
				start := int(next()) % n
				stop := start + int(next())%(n-start)
				ps := m.sorted()
				for _, p := range ps[start : stop+1] {
					delete(m, p.m)
				}
				if got := RemoveRangeByRank(a, rec, start, stop); got != stop-start+1 {
					t.Fatalf("RemoveRangeByRank(%d, %d) = %d", start, stop, got)
				}
			case 5: // RemoveRangeByScore
				r := ScoreRange{Min: fuzzScore(next()), Max: fuzzScore(next()), MinEx: op&16 != 0, MaxEx: op&32 != 0}
				want := 0
				for k, s := range m {
					if !r.empty() && r.gteMin(s) && r.lteMax(s) {
						delete(m, k)
						want++
					}
				}
				if got := RemoveRangeByScore(a, rec, r); got != want {
					t.Fatalf("RemoveRangeByScore(%+v) = %d want %d", r, got, want)
				}
			case 6: // RemoveRangeByLex, only where Redis defines it: all scores equal
				if !m.equalScores() {
					continue
				}
				r := fuzzLexRange(next(), next(), next())
				want := 0
				for k := range m {
					if !r.empty() && r.gteMin([]byte(k)) && r.lteMax([]byte(k)) {
						delete(m, k)
						want++
					}
				}
				if got := RemoveRangeByLex(a, rec, r); got != want {
					t.Fatalf("RemoveRangeByLex(%+v) = %d want %d", r, got, want)
				}
			case 7: // Pop
				count := int(next() % 5)
				maxFirst := op&16 != 0
				ps := m.sorted()
				if maxFirst {
					slices.Reverse(ps)
				}
				want := ps[:min(count, len(ps))]
				var got []pair
				n := Pop(a, rec, maxFirst, count, nil, func(mb []byte, s float64) { got = append(got, pair{string(mb), s}) })
				if n != len(want) || !slices.Equal(got, want) {
					t.Fatalf("Pop(%v, %d) = %v want %v", maxFirst, count, got, want)
				}
				for _, p := range want {
					delete(m, p.m)
				}
			case 8: // rebuild through a Builder, odd ranks first
				b := NewBuilder(a, []byte("key"), len(m), 0, 0)
				ps := m.sorted()
				for i, p := range ps {
					if i%2 == 0 {
						continue
					}
					b.Add([]byte(p.m), p.s)
				}
				for i, p := range ps {
					if i%2 == 0 {
						b.Add([]byte(p.m), p.s)
					}
				}
				nrec, err := b.Finish()
				if err != nil {
					t.Fatal(err)
				}
				object.Free(a, rec)
				rec = nrec
				enc := Encoding(a, rec)
				long := false
				for k := range m {
					long = long || len(k) > 8
				}
				if (enc == object.EncListpack) != (len(m) <= 6 && !long) {
					t.Fatalf("Builder of %d members (long %v) made a %s", len(m), long, enc.Name())
				}
			}
			compareModel(t, a, rec, m)
		}
		object.Free(a, rec)
		if a.Used() != 0 {
			t.Fatalf("arena charged %d after Free", a.Used())
		}
	})
}

// fuzzLexRange draws a lex range over the fuzz members.
func fuzzLexRange(x, y, z byte) LexRange {
	item := func(b, c byte) []byte {
		switch b % 4 {
		case 0:
			return []byte("-")
		case 1:
			return []byte("+")
		case 2:
			return append([]byte("("), fuzzMember(c, c/5)...)
		}
		return append([]byte("["), fuzzMember(c, c/5)...)
	}
	r, ok := ParseLexRange(item(x, z), item(y, z+x))
	if !ok {
		panic("fuzzLexRange")
	}
	return r
}

// modelAdd is zsetAdd on the model.
func modelAdd(m model, mem string, score float64, flags AddFlags) (float64, AddResult) {
	if math.IsNaN(score) {
		return 0, AddNaN
	}
	cur, ok := m[mem]
	if !ok {
		if flags&AddXX != 0 {
			return 0, AddNop
		}
		m[mem] = score
		return score, AddAdded
	}
	s, res := updateScore(cur, score, flags)
	if res == AddUpdated {
		m[mem] = s
	}
	return s, res
}

// compareModel checks every read of rec against m.
func compareModel(t *testing.T, a *alloc.Arena, rec alloc.Handle, m model) {
	t.Helper()
	if err := Check(a, rec); err != nil {
		t.Fatal(err)
	}
	if got, want := int64(object.MemoryUsage(a, rec)), a.Used(); got != want {
		t.Fatalf("MemoryUsage %d, arena charged %d", got, want)
	}
	ps := m.sorted()
	if Len(a, rec) != len(ps) {
		t.Fatalf("Len %d, model %d", Len(a, rec), len(ps))
	}
	if got := all(a, rec); !slices.Equal(got, ps) && !(len(got) == 0 && len(ps) == 0) {
		t.Fatalf("%s set %v, model %v", Encoding(a, rec).Name(), got, ps)
	}
	for i, p := range ps {
		if s, ok := Score(a, rec, []byte(p.m)); !ok || s != p.s {
			t.Fatalf("Score(%q) = %v %v", p.m, s, ok)
		}
		if r, _, ok := Rank(a, rec, []byte(p.m), i%2 == 1); !ok || (i%2 == 0 && r != i) || (i%2 == 1 && r != len(ps)-1-i) {
			t.Fatalf("Rank(%q) = %d", p.m, r)
		}
	}
	if len(ps) > 0 {
		var got []pair
		RangeByRank(a, rec, len(ps)/3, len(ps)-1, true, nil, collect(&got))
		rev := slices.Clone(ps)
		slices.Reverse(rev)
		if !slices.Equal(got, rev[len(ps)/3:]) {
			t.Fatalf("RangeByRank rev %v", got)
		}
	}
	for _, r := range []ScoreRange{{Min: 0, Max: 2}, {Min: 1, Max: 3, MinEx: true}, {Min: math.Inf(-1), Max: 0.5, MaxEx: true}} {
		var in []pair
		for _, p := range ps {
			if r.gteMin(p.s) && r.lteMax(p.s) {
				in = append(in, p)
			}
		}
		if c := CountByScore(a, rec, r); c != len(in) {
			t.Fatalf("CountByScore(%+v) = %d want %d", r, c, len(in))
		}
		var got []pair
		RangeByScore(a, rec, r, false, 1, 2, nil, collect(&got))
		if exp := window(in, 1, 2); !slices.Equal(got, exp) {
			t.Fatalf("RangeByScore(%+v) = %v want %v", r, got, exp)
		}
	}
	if m.equalScores() {
		r, _ := ParseLexRange([]byte("[b"), []byte("(m5"))
		var in []pair
		for _, p := range ps {
			if r.gteMin([]byte(p.m)) && r.lteMax([]byte(p.m)) {
				in = append(in, p)
			}
		}
		var got []pair
		RangeByLex(a, rec, r, true, 0, -1, nil, collect(&got))
		slices.Reverse(in)
		if !slices.Equal(got, in) && !(len(got) == 0 && len(in) == 0) {
			t.Fatalf("RangeByLex rev %v want %v", got, in)
		}
		if c := CountByLex(a, rec, r); c != len(in) {
			t.Fatalf("CountByLex = %d want %d", c, len(in))
		}
	}
}
