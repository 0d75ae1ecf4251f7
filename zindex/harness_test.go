package zindex

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// The tests' entries: an 8-byte score, a 1-byte length and the member, as a sorted set's.

func newEntry(a *alloc.Arena, score float64, member []byte) alloc.Handle {
	h := a.Alloc(9 + len(member))
	if h == 0 {
		panic("out of memory")
	}
	b := a.Bytes(h, 9+len(member))
	binary.LittleEndian.PutUint64(b, math.Float64bits(score))
	b[8] = byte(len(member))
	copy(b[9:], member)
	return h
}

func readEntry(a *alloc.Arena, h alloc.Handle) (float64, []byte) {
	b := a.Bytes(h, 9)
	n := int(b[8])
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), a.Bytes(h, 9+n)[9:]
}

func freeEntry(a *alloc.Arena, h alloc.Handle) {
	_, m := readEntry(a, h)
	a.Free(h, 9+len(m))
}

type ent struct {
	score  float64
	member string
	h      alloc.Handle
}

func cmpEnt(x, y ent) int {
	switch {
	case x.score < y.score:
		return -1
	case x.score > y.score:
		return 1
	}
	return bytes.Compare([]byte(x.member), []byte(y.member))
}

// harness runs operations on an index and on a sorted slice (the model) side by side, and
// compares them.
type harness struct {
	t     testing.TB
	a     *alloc.Arena
	root  alloc.Handle
	model []ent
	check bool               // Check after every operation
	score map[string]float64 // the model's members and their scores
}

func newHarness(t testing.TB) *harness {
	a := alloc.MustNewArena(1 << 30)
	t.Cleanup(a.Close)
	root, err := Create(a)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, a: a, root: root, check: invariantsOn && !raceEnabled, score: map[string]float64{}}
}

func (th *harness) ix() Index { return Open(th.a, th.root, readEntry) }

func (th *harness) verify() {
	th.t.Helper()
	if err := th.ix().Check(); err != nil {
		th.t.Fatal(err)
	}
	if th.ix().Len() != len(th.model) {
		th.t.Fatalf("Len %d, model %d", th.ix().Len(), len(th.model))
	}
	// The arena holds the index's bytes and the entries, nothing else.
	entries := 0
	for _, e := range th.model {
		entries += alloc.UsableSize(9 + len(e.member))
	}
	if got := th.a.Used() - int64(entries); got != int64(th.ix().Bytes()) {
		th.t.Fatalf("arena charges the index %d bytes, Bytes says %d", got, th.ix().Bytes())
	}
	i := 0
	th.ix().Walk(0, false, func(h alloc.Handle) bool {
		if h != th.model[i].h {
			th.t.Fatalf("walk: rank %d is %d, model %d", i, h, th.model[i].h)
		}
		i++
		return true
	})
	if i != len(th.model) {
		th.t.Fatalf("walk saw %d entries of %d", i, len(th.model))
	}
}

func (th *harness) step() {
	th.t.Helper()
	if th.check {
		th.verify()
	}
}

func (th *harness) find(member string) int {
	s, ok := th.score[member]
	if !ok {
		return -1
	}
	i, _ := slices.BinarySearchFunc(th.model, ent{score: s, member: member}, cmpEnt)
	return i
}

func (th *harness) insert(score float64, member string) {
	th.t.Helper()
	if th.find(member) >= 0 {
		return
	}
	e := ent{score, member, newEntry(th.a, score, []byte(member))}
	if err := th.ix().Insert(score, []byte(member), e.h); err != nil {
		th.t.Fatal(err)
	}
	i, _ := slices.BinarySearchFunc(th.model, e, cmpEnt)
	th.model = slices.Insert(th.model, i, e)
	th.score[member] = score
	th.step()
}

func (th *harness) append(score float64, member string) {
	th.t.Helper()
	e := ent{score, member, newEntry(th.a, score, []byte(member))}
	if err := th.ix().Append(score, []byte(member), e.h); err != nil {
		th.t.Fatal(err)
	}
	th.model = append(th.model, e)
	th.score[member] = score
	th.step()
}

func (th *harness) delete(member string) {
	th.t.Helper()
	i := th.find(member)
	if i < 0 {
		if _, ok := th.ix().Delete(0, []byte(member)); ok {
			th.t.Fatalf("Delete of absent %q succeeded", member)
		}
		return
	}
	e := th.model[i]
	// A wrong score finds nothing.
	if wrong := math.Nextafter(e.score, 0); wrong != e.score {
		if _, ok := th.ix().Delete(wrong, []byte(member)); ok {
			th.t.Fatalf("Delete of %q with a wrong score succeeded", member)
		}
	}
	h, ok := th.ix().Delete(e.score, []byte(member))
	if !ok || h != e.h {
		th.t.Fatalf("Delete(%v, %q) = %d %v, want %d", e.score, member, h, ok, e.h)
	}
	freeEntry(th.a, h)
	delete(th.score, member)
	th.model = slices.Delete(th.model, i, i+1)
	th.step()
}

func (th *harness) deleteRange(start, stop int) {
	th.t.Helper()
	want := slices.Clone(th.model[start : stop+1])
	k := 0
	th.ix().DeleteRange(start, stop, func(h alloc.Handle) {
		if h != want[k].h {
			th.t.Fatalf("DeleteRange(%d, %d): entry %d is %d, want %d", start, stop, k, h, want[k].h)
		}
		k++
		freeEntry(th.a, h)
	})
	if k != len(want) {
		th.t.Fatalf("DeleteRange(%d, %d) gave %d entries", start, stop, k)
	}
	for _, e := range want {
		delete(th.score, e.member)
	}
	th.model = slices.Delete(th.model, start, stop+1)
	th.step()
}

// queries checks every read operation at a few points.
func (th *harness) queries(score float64, member string, r int) {
	th.t.Helper()
	ix := th.ix()
	n := len(th.model)
	if i := th.find(member); i >= 0 {
		e := th.model[i]
		if got, ok := ix.Rank(e.score, []byte(member)); !ok || got != i {
			th.t.Fatalf("Rank(%v, %q) = %d %v, want %d", e.score, member, got, ok, i)
		}
		if wrong := math.Nextafter(e.score, 0); wrong != e.score {
			if _, ok := ix.Rank(wrong, []byte(member)); ok {
				th.t.Fatalf("Rank of %q with a wrong score found it", member)
			}
		}
	} else if _, ok := ix.Rank(score, []byte(member)); ok {
		th.t.Fatalf("Rank of absent %q found it", member)
	}
	if n > 0 {
		r = (r%n + n) % n
		if h := ix.At(r); h != th.model[r].h {
			th.t.Fatalf("At(%d) = %d, want %d", r, h, th.model[r].h)
		}
		for _, rev := range []bool{false, true} {
			i, limit := r, 70
			ix.Walk(r, rev, func(h alloc.Handle) bool {
				if h != th.model[i].h {
					th.t.Fatalf("Walk(%d, %v): %d at rank %d, want %d", r, rev, h, i, th.model[i].h)
				}
				if rev {
					i--
				} else {
					i++
				}
				limit--
				return limit > 0
			})
			if limit > 0 && i != -1 && i != n {
				th.t.Fatalf("Walk(%d, %v) stopped at %d", r, rev, i)
			}
		}
	}
	for _, ex := range []bool{false, true} {
		first := n
		for i, e := range th.model {
			if e.score > score || !ex && e.score == score {
				first = i
				break
			}
		}
		if got := ix.FirstAbove(score, ex); got != first {
			th.t.Fatalf("FirstAbove(%v, %v) = %d, want %d", score, ex, got, first)
		}
		last := -1
		for i, e := range th.model {
			if e.score < score || !ex && e.score == score {
				last = i
			}
		}
		if got := ix.LastBelow(score, ex); got != last {
			th.t.Fatalf("LastBelow(%v, %v) = %d, want %d", score, ex, got, last)
		}
	}
}

// lexQueries checks the lex searches (meaningful when all scores are equal).
func (th *harness) lexQueries(member string) {
	th.t.Helper()
	ix := th.ix()
	m := []byte(member)
	for _, ex := range []bool{false, true} {
		first := len(th.model)
		for i, e := range th.model {
			if c := bytes.Compare([]byte(e.member), m); c > 0 || !ex && c == 0 {
				first = i
				break
			}
		}
		if got := ix.FirstLexAbove(m, ex); got != first {
			th.t.Fatalf("FirstLexAbove(%q, %v) = %d, want %d", m, ex, got, first)
		}
		last := -1
		for i, e := range th.model {
			if c := bytes.Compare([]byte(e.member), m); c < 0 || !ex && c == 0 {
				last = i
			}
		}
		if got := ix.LastLexBelow(m, ex); got != last {
			th.t.Fatalf("LastLexBelow(%q, %v) = %d, want %d", m, ex, got, last)
		}
	}
}

// destroy frees everything, checking that the entries come in order and that nothing leaks.
func (th *harness) destroy(budget int) {
	th.t.Helper()
	k := 0
	fn := func(h alloc.Handle) {
		if h != th.model[k].h {
			th.t.Fatalf("free: entry %d is %d, want %d", k, h, th.model[k].h)
		}
		k++
		freeEntry(th.a, h)
	}
	if budget <= 0 {
		th.ix().Destroy(fn)
	} else {
		bytes := th.ix().Bytes()
		for steps := 0; ; steps++ {
			before := k
			if FreeStep(th.a, th.root, budget, fn) {
				break
			}
			if left := th.ix().Len(); left != len(th.model)-k {
				th.t.Fatalf("FreeStep: Len %d, %d entries not freed", left, len(th.model)-k)
			}
			// About budget entries a step: whole leaves, at least one.
			if k-before == 0 || k-before > budget+leafCap {
				th.t.Fatalf("FreeStep(budget %d) freed %d entries", budget, k-before)
			}
			if b := th.ix().Bytes(); b >= bytes {
				th.t.Fatalf("FreeStep: the index still holds %d bytes, %d before", b, bytes)
			} else {
				bytes = b
			}
			if steps > len(th.model)+1 {
				th.t.Fatal("FreeStep does not end")
			}
		}
	}
	if k != len(th.model) {
		th.t.Fatalf("destroy freed %d entries of %d", k, len(th.model))
	}
	if u := th.a.Used(); u != 0 {
		th.t.Fatalf("arena holds %d bytes after destroy", u)
	}
	th.model = nil
	clear(th.score)
}
