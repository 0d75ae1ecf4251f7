package quicklist

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
)

// str renders an element as its string.
func str(s []byte, v int64, isInt bool) string {
	if isInt {
		return strconv.FormatInt(v, 10)
	}
	return string(s)
}

// elem draws an element from b and c: integers, short strings, strings near a 4 KB node and
// strings bigger than any node of the fills tested.
func elem(b, c byte) []byte {
	switch b % 6 {
	case 0:
		return []byte(strconv.Itoa(int(int8(c)) * 1000))
	case 1:
		return []byte("e" + strconv.Itoa(int(c)))
	case 2:
		return bytes.Repeat([]byte{'a' + c%3}, int(c))
	case 3:
		return bytes.Repeat([]byte{'m'}, 1000+int(c)*8)
	case 4:
		return bytes.Repeat([]byte{'z'}, 8200+int(c))
	default:
		return []byte("-" + strconv.Itoa(int(c)*77777))
	}
}

// verify checks that l reads as model in every way it can be read.
func verify(t *testing.T, a *alloc.Arena, l List, model [][]byte) {
	t.Helper()
	if err := l.Check(a); err != nil {
		t.Fatal(err)
	}
	if l.Len(a) != len(model) {
		t.Fatalf("Len %d, model %d", l.Len(a), len(model))
	}
	i := 0
	l.Range(a, 0, false, func(s []byte, v int64, isInt bool) bool {
		if got := str(s, v, isInt); got != string(model[i]) {
			t.Fatalf("forward %d: %.20q, want %.20q", i, got, model[i])
		}
		i++
		return true
	})
	if i != len(model) {
		t.Fatalf("forward saw %d of %d", i, len(model))
	}
	i = len(model) - 1
	l.Range(a, -1, true, func(s []byte, v int64, isInt bool) bool {
		if got := str(s, v, isInt); got != string(model[i]) {
			t.Fatalf("backward %d: %.20q, want %.20q", i, got, model[i])
		}
		i--
		return true
	})
	for _, j := range []int{0, len(model) / 3, len(model) - 1, -1, -len(model)} {
		s, v, isInt, ok := l.Index(a, j)
		k := j
		if k < 0 {
			k += len(model)
		}
		if ok != (k >= 0 && k < len(model)) {
			t.Fatalf("Index(%d) ok %v, len %d", j, ok, len(model))
		}
		if ok && str(s, v, isInt) != string(model[k]) {
			t.Fatalf("Index(%d) = %.20q, want %.20q", j, str(s, v, isInt), model[k])
		}
	}
	if got, want := l.AllocSize(a)+0, int(a.Used()); got != want {
		t.Fatalf("AllocSize %d, arena Used %d", got, want)
	}
}

// run applies the operations ops encodes to a list of fill and to a [][]byte model.
func run(t *testing.T, fill int, ops []byte) {
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
	l, err := New(a, fill)
	if err != nil {
		t.Fatal(err)
	}
	var model [][]byte
	idx := func(b byte) int {
		if len(model) == 0 {
			return 0
		}
		return int(b) % (len(model) + 1)
	}
	var buf []byte
	for len(ops) > 0 {
		switch op := next() % 11; op {
		case 0:
			e := elem(next(), next())
			if err := l.PushHead(a, e); err != nil {
				t.Fatal(err)
			}
			model = append([][]byte{e}, model...)
		case 1:
			e := elem(next(), next())
			if err := l.PushTail(a, e); err != nil {
				t.Fatal(err)
			}
			model = append(model, e)
		case 2, 3:
			pop := l.PopHead
			if op == 3 {
				pop = l.PopTail
			}
			s, v, isInt, ok := pop(a, buf[:0])
			if ok != (len(model) > 0) {
				t.Fatalf("pop ok %v with %d", ok, len(model))
			}
			if ok {
				want := model[0]
				if op == 3 {
					want, model = model[len(model)-1], model[:len(model)-1]
				} else {
					model = model[1:]
				}
				if str(s, v, isInt) != string(want) {
					t.Fatalf("pop %.20q, want %.20q", str(s, v, isInt), want)
				}
			}
			buf = s
		case 4:
			i, e := idx(next()), elem(next(), next())
			if err := l.Insert(a, i, e); err != nil {
				t.Fatal(err)
			}
			model = append(model[:i], append([][]byte{e}, model[i:]...)...)
		case 5:
			i, e := idx(next()), elem(next(), next())
			ok, err := l.Replace(a, i, e)
			if err != nil || ok != (i < len(model)) {
				t.Fatalf("Replace(%d) %v %v with %d", i, ok, err, len(model))
			}
			if ok {
				model[i] = e
			}
		case 6:
			i, n := idx(next()), int(next()%16)
			del := l.DeleteRange
			if n%2 == 1 {
				del = l.DeleteRangeNoMerge
			}
			if err := del(a, i, n); err != nil {
				t.Fatal(err)
			}
			if i < len(model) {
				model = append(model[:i], model[min(i+n, len(model)):]...)
			}
		case 7:
			pivot := elem(next(), next())
			if len(model) > 0 && next()%2 == 0 {
				pivot = model[idx(next())%len(model)]
			}
			e, after := elem(next(), next()), next()%2 == 0
			ok, err := l.InsertPivot(a, pivot, e, after)
			if err != nil {
				t.Fatal(err)
			}
			i := -1
			for j, m := range model {
				if bytes.Equal(m, pivot) {
					i = j
					break
				}
			}
			if ok != (i >= 0) {
				t.Fatalf("InsertPivot found %v, model %d", ok, i)
			}
			if ok {
				if after {
					i++
				}
				model = append(model[:i], append([][]byte{e}, model[i:]...)...)
			}
		case 9:
			e := elem(next(), next())
			if len(model) > 0 && next()%2 == 0 {
				e = model[idx(next())%len(model)]
			}
			limit, fromTail := int(next()%3), next()%2 == 0
			n, err := l.RemoveEqual(a, e, limit, fromTail)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for k := range model {
				j := k
				if fromTail {
					j = len(model) - 1 - k
				}
				if bytes.Equal(model[j], e) && (limit == 0 || want < limit) {
					model[j] = nil
					want++
				}
			}
			kept := model[:0]
			for _, m := range model {
				if m != nil {
					kept = append(kept, m)
				}
			}
			model = kept
			if n != want {
				t.Fatalf("RemoveEqual %.20q limit %d: %d, want %d", e, limit, n, want)
			}
		case 10:
			if next()%2 == 0 {
				e := elem(next(), next())
				if err := l.AppendPlain(a, e); err != nil {
					t.Fatal(err)
				}
				model = append(model, e)
				break
			}
			lp := listpack.New(a)
			k := 1 + int(next()%3)
			for range k {
				e := elem(next(), next())
				if lp, err = lp.Append(a, e); err != nil {
					t.Fatal(err)
				}
				model = append(model, e)
			}
			if err := l.AppendListpack(a, lp, k); err != nil {
				t.Fatal(err)
			}
		case 8:
			b := alloc.MustNewArena(1 << 30)
			c, err := l.Copy(a, b)
			if err != nil {
				t.Fatal(err)
			}
			verify(t, b, c, model)
			c.Free(b)
			if b.Used() != 0 {
				t.Fatalf("copy freed, %d bytes left", b.Used())
			}
			b.Close()
		}
		verify(t, a, l, model)
	}
	l.Free(a)
	if a.Used() != 0 {
		t.Fatalf("freed, %d bytes left", a.Used())
	}
}

// fills are the fill factors the model tests use: small entry counts, so nodes split and merge
// often, and the smallest byte limits.
var fills = []int{1, 2, 3, 5, -1, -2}

func TestModelRandom(t *testing.T) {
	for _, fill := range fills {
		t.Run(strconv.Itoa(fill), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(fill+10), 1))
			for range 20 {
				ops := make([]byte, 600)
				for i := range ops {
					ops[i] = byte(r.UintN(256))
				}
				// Bias towards pushes and short strings so lists grow.
				for i := 0; i < len(ops); i += 7 {
					ops[i] = byte(r.UintN(2))
				}
				run(t, fill, ops)
			}
		})
	}
}

// FuzzModel applies the operations the input encodes to a list and a [][]byte model under the
// fill of fills its first byte picks, checking after each step that they read alike, that the structure is
// well formed and exactly charged, and that freeing returns every byte.
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 1, 2, 1, 1, 3, 4, 0, 1, 2, 6, 0, 3})
	f.Add(bytes.Repeat([]byte{4, 1, 2, 7, 0, 4, 1, 9, 4, 4, 5, 6, 1}, 20))
	f.Add(bytes.Repeat([]byte{4, 3, 1, 9, 6, 1, 3, 5, 0, 2, 2}, 30))
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) < 1 || len(ops) > 400 {
			return // long inputs make minimising slow; the random test covers length
		}
		run(t, fills[int(ops[0])%len(fills)], ops[1:])
	})
}
