package listval

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// fuzzElem draws an element: repeats (for LREM, LINSERT's pivot, LPOS), integers (listpack
// integer entries), short strings, and strings near and past a 4 KB node.
func fuzzElem(next func() byte) string {
	b, c := next(), next()
	switch b % 6 {
	case 0:
		return "k" + strconv.Itoa(int(c)%6)
	case 1:
		return strconv.Itoa(int(int8(c)) * 1000)
	case 2:
		return string(bytes.Repeat([]byte{'a' + c%3}, int(c)%20))
	case 3:
		return string(bytes.Repeat([]byte{'m'}, 900+int(c)*4))
	case 4:
		return string(bytes.Repeat([]byte{'z'}, 4000+int(c)))
	default:
		return strconv.Itoa(int(c) % 4)
	}
}

// fuzzFills are the fills the model runs under: 4 KB and 8 KB nodes, and 1, 3 and 5 entries.
var fuzzFills = []int64{-1, -2, 1, 3, 5, 0}

// FuzzModel applies random sequences of every write (pushes one by one and in batches, pops
// of n from either end, LSET, LINSERT, LREM, LTRIM, LMOVE's rotation) to a list and to a
// [][]byte model, under lowered fills so that both encodings and both conversions happen, and
// checks after each step that the list reads as the model through every reader, is well
// formed and is charged what MemoryUsage says; freeing it returns every byte.
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 2, 0, 3, 5, 1, 0, 4, 4, 0, 9, 3, 3, 1, 0, 2})
	f.Add(bytes.Repeat([]byte{2, 0, 0, 7, 2, 9, 1, 1, 4}, 30))
	f.Add(bytes.Repeat([]byte{3, 0, 3, 1, 0, 5, 0, 3, 1, 0, 5, 1, 0, 3, 6, 2, 8, 7, 1}, 10))
	f.Add(bytes.Repeat([]byte{1, 1, 4, 9, 0, 4, 2, 5, 0, 6, 3}, 20))
	f.Fuzz(func(t *testing.T, ops []byte) {
		next := func() byte {
			if len(ops) == 0 {
				return 0
			}
			b := ops[0]
			ops = ops[1:]
			return b
		}
		SetLimits(fuzzFills[int(next())%len(fuzzFills)])
		defer SetLimits(DefaultFill)
		a := alloc.MustNewArena(1 << 30)
		defer a.Close()
		before := a.Used()
		rec, err := New(a, []byte("key"), 0)
		if err != nil {
			t.Fatal(err)
		}
		var model []string
		for steps := 0; len(ops) > 0 && steps < 200; steps++ {
			switch next() % 10 {
			case 0, 1: // LPUSH/RPUSH of 1…3 elements, converted once for all
				tail := next()%2 == 0
				n := 1 + int(next())%3
				elems := make([]string, n)
				total := 0
				for i := range elems {
					elems[i] = fuzzElem(next)
					total += len(elems[i])
				}
				if err := TryConversionAppend(a, rec, n, total); err != nil {
					t.Fatal(err)
				}
				for _, e := range elems {
					if err := Push(a, rec, []byte(e), tail); err != nil {
						t.Fatal(err)
					}
					if tail {
						model = append(model, e)
					} else {
						model = append([]string{e}, model...)
					}
				}
			case 2: // pop n from either end
				tail := next()%2 == 0
				n := int(next()) % 5
				var got []string
				had := len(model)
				k, err := Pop(a, rec, tail, n, nil, func(e []byte) { got = append(got, string(e)) })
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				if tail {
					for i := 0; i < k; i++ {
						want = append(want, model[len(model)-1-i])
					}
					model = model[:len(model)-k]
				} else {
					want = append(want, model[:k]...)
					model = model[k:]
				}
				if k != min(n, had) || !slices.Equal(got, want) {
					t.Fatalf("Pop %v %d: %q, want %q", tail, n, got, want)
				}
			case 3: // LSET
				i := int(int8(next()))
				e := fuzzElem(next)
				ok, err := Set(a, rec, i, []byte(e))
				if err != nil {
					t.Fatal(err)
				}
				j := i
				if j < 0 {
					j += len(model)
				}
				if want := j >= 0 && j < len(model); ok != want {
					t.Fatalf("Set %d: %v, want %v", i, ok, want)
				}
				if ok {
					model[j] = e
				}
			case 4: // LINSERT
				pivot, e, after := fuzzElem(next), fuzzElem(next), next()%2 == 0
				found, err := InsertPivot(a, rec, []byte(pivot), []byte(e), after)
				if err != nil {
					t.Fatal(err)
				}
				j := slices.Index(model, pivot)
				if found != (j >= 0) {
					t.Fatalf("InsertPivot %q: %v", pivot, found)
				}
				if found {
					if after {
						j++
					}
					model = slices.Insert(model, j, e)
				}
			case 5: // LREM
				count := int(int8(next())) % 4
				e := fuzzElem(next)
				n, err := Remove(a, rec, count, []byte(e))
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				limit := count
				if limit < 0 {
					limit = -limit
				}
				if count >= 0 {
					for i := 0; i < len(model); i++ {
						if model[i] == e && (limit == 0 || want < limit) {
							model = slices.Delete(model, i, i+1)
							i--
							want++
						}
					}
				} else {
					for i := len(model) - 1; i >= 0; i-- {
						if model[i] == e && want < limit {
							model = slices.Delete(model, i, i+1)
							want++
						}
					}
				}
				if n != want {
					t.Fatalf("Remove %d %q: %d, want %d", count, e, n, want)
				}
			case 6: // LTRIM
				start, stop := int(int8(next()))%8, int(int8(next()))%40
				if _, err := Trim(a, rec, start, stop); err != nil {
					t.Fatal(err)
				}
				n := len(model)
				s, e := start, stop
				if s < 0 {
					s += n
				}
				if e < 0 {
					e += n
				}
				s = max(s, 0)
				if s > e || s >= n {
					model = model[:0]
				} else {
					model = model[s:min(e+1, n)]
				}
			case 7: // LMOVE's rotation: pop, push onto the same list, then shrink
				from, to := next()%2 == 0, next()%2 == 0
				if len(model) == 0 {
					continue
				}
				var v []byte
				if _, err := PopKeep(a, rec, from, 1, nil, func(e []byte) { v = append([]byte(nil), e...) }); err != nil {
					t.Fatal(err)
				}
				if err := TryConversionAppend(a, rec, 1, len(v)); err != nil {
					t.Fatal(err)
				}
				if err := Push(a, rec, v, to); err != nil {
					t.Fatal(err)
				}
				Shrink(a, rec)
				var e string
				if from {
					e, model = model[len(model)-1], model[:len(model)-1]
				} else {
					e, model = model[0], model[1:]
				}
				if string(v) != e {
					t.Fatalf("rotation popped %.20q, want %.20q", v, e)
				}
				if to {
					model = append(model, e)
				} else {
					model = append([]string{e}, model...)
				}
			case 8: // LPOS
				e, rank := fuzzElem(next), int(int8(next()))%3
				if rank == 0 {
					rank = 1
				}
				var got, want []int
				Pos(a, rec, []byte(e), rank, 0, func(i int) bool { got = append(got, i); return true })
				matches := 0
				visit := func(i int) {
					if model[i] == e {
						if matches++; matches >= max(rank, -rank) {
							want = append(want, i)
						}
					}
				}
				if rank > 0 {
					for i := range model {
						visit(i)
					}
				} else {
					for i := len(model) - 1; i >= 0; i-- {
						visit(i)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("Pos %q rank %d: %v, want %v", e, rank, got, want)
				}
			default: // a copy reads the same
				b := alloc.MustNewArena(1 << 30)
				c, err := object.CopyCollection(a, rec, b, []byte("copy"), 0)
				if err != nil {
					t.Fatal(err)
				}
				checkModel(t, b, c, model)
				object.Free(b, c)
				if b.Used() != 0 {
					t.Fatalf("copy left %d bytes", b.Used())
				}
				b.Close()
			}
			checkModel(t, a, rec, model)
		}
		object.Free(a, rec)
		if a.Used() != before {
			t.Fatalf("arena uses %d bytes after Free, %d before", a.Used(), before)
		}
	})
}
