package listval

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 32)
	t.Cleanup(a.Close)
	return a
}

func newList(t testing.TB, a *alloc.Arena) alloc.Handle {
	t.Helper()
	rec, err := New(a, []byte("l"), 0)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// withFill runs the test under list-max-listpack-size f.
func withFill(t testing.TB, f int64) {
	SetLimits(f)
	t.Cleanup(func() { SetLimits(DefaultFill) })
}

func encoding(a *alloc.Arena, rec alloc.Handle) string { return Encoding(a, rec).Name() }

func push(t testing.TB, a *alloc.Arena, rec alloc.Handle, tail bool, elems ...string) {
	t.Helper()
	for _, e := range elems {
		var err error
		if tail {
			err = PushTail(a, rec, []byte(e))
		} else {
			err = PushHead(a, rec, []byte(e))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// contents reads the list through Each, checking Len agrees.
func contents(t testing.TB, a *alloc.Arena, rec alloc.Handle) []string {
	t.Helper()
	var out []string
	Each(a, rec, nil, func(e []byte) bool {
		out = append(out, string(e))
		return true
	})
	if len(out) != Len(a, rec) {
		t.Fatalf("Each saw %d elements, Len says %d", len(out), Len(a, rec))
	}
	return out
}

// checkModel compares the list with model through every reader (Each, Index from both ends,
// Range both ways, Nodes), and checks it and its charge.
func checkModel(t testing.TB, a *alloc.Arena, rec alloc.Handle, model []string) {
	t.Helper()
	if err := Check(a, rec); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, a, rec); !slices.Equal(got, model) && !(len(got) == 0 && len(model) == 0) {
		t.Fatalf("list %.200q, model %.200q", got, model)
	}
	n := len(model)
	for i := range n {
		if e, ok := Index(a, rec, i, nil); !ok || string(e) != model[i] {
			t.Fatalf("Index(%d) = %.30q %v, want %.30q", i, e, ok, model[i])
		}
		if e, ok := Index(a, rec, i-n, nil); !ok || string(e) != model[i] {
			t.Fatalf("Index(%d) = %.30q %v, want %.30q", i-n, e, ok, model[i])
		}
	}
	if _, ok := Index(a, rec, n, nil); ok {
		t.Fatalf("Index(%d) found past the end", n)
	}
	if _, ok := Index(a, rec, -n-1, nil); ok {
		t.Fatalf("Index(%d) found before the start", -n-1)
	}
	if n > 0 {
		var back []string
		Range(a, rec, n-1, n, true, nil, func(e []byte) bool {
			back = append(back, string(e))
			return true
		})
		slices.Reverse(back)
		if !slices.Equal(back, model) {
			t.Fatalf("Range backwards %.200q, model %.200q", back, model)
		}
		var fromNodes []string
		Nodes(a, rec, func(lp []byte, plain bool) bool {
			if plain && listpack.Len(lp) != 1 {
				t.Fatalf("plain node of %d entries", listpack.Len(lp))
			}
			for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
				s, v, isInt := listpack.Get(lp, p)
				fromNodes = append(fromNodes, string(elemString(s, v, isInt, nil)))
			}
			return true
		})
		if !slices.Equal(fromNodes, model) {
			t.Fatalf("Nodes %.200q, model %.200q", fromNodes, model)
		}
	}
	if got, want := object.MemoryUsage(a, rec)-object.Size(a, rec), allocSize(a, Encoding(a, rec), rootOf(a, rec)); got != want {
		t.Fatalf("MemoryUsage says %d for the value, allocSize %d", got, want)
	}
}

func rootOf(a *alloc.Arena, rec alloc.Handle) alloc.Handle {
	_, root := object.Root(a, rec)
	return root
}

// freeAll frees rec and checks the arena is back to before.
func freeAll(t testing.TB, a *alloc.Arena, rec alloc.Handle, before int64) {
	t.Helper()
	object.Free(a, rec)
	if a.Used() != before {
		t.Fatalf("arena uses %d bytes after Free, %d before the list", a.Used(), before)
	}
}

func TestPushPopBothEncodings(t *testing.T) {
	for _, n := range []int{5, 3000} { // a listpack list, a quicklist (8 KB nodes)
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			a := newArena(t)
			before := a.Used()
			rec := newList(t, a)
			var model []string
			for i := range n {
				e := fmt.Sprintf("e%d", i)
				if i%3 == 0 {
					e = fmt.Sprint(i * 7) // an integer entry
				}
				if i%2 == 0 {
					push(t, a, rec, true, e)
					model = append(model, e)
				} else {
					push(t, a, rec, false, e)
					model = append([]string{e}, model...)
				}
			}
			want := "listpack"
			if n > 1000 {
				want = "quicklist"
			}
			if encoding(a, rec) != want {
				t.Fatalf("encoding %s after %d pushes, want %s", encoding(a, rec), n, want)
			}
			checkModel(t, a, rec, model)
			var got []string
			k, err := Pop(a, rec, false, 3, nil, func(e []byte) { got = append(got, string(e)) })
			if err != nil || k != 3 || !slices.Equal(got, model[:3]) {
				t.Fatalf("Pop head 3: %d %v %q, want %q", k, err, got, model[:3])
			}
			model = model[3:]
			got = got[:0]
			k, err = Pop(a, rec, true, 2, nil, func(e []byte) { got = append(got, string(e)) })
			if err != nil || k != 2 || got[0] != model[len(model)-1] || got[1] != model[len(model)-2] {
				t.Fatalf("Pop tail 2: %d %v %q", k, err, got)
			}
			model = model[:len(model)-2]
			checkModel(t, a, rec, model)
			k, _ = Pop(a, rec, true, n+10, nil, func([]byte) {})
			if k != len(model) || Len(a, rec) != 0 {
				t.Fatalf("Pop of all took %d of %d, left %d", k, len(model), Len(a, rec))
			}
			freeAll(t, a, rec, before)
		})
	}
}

// TestConversionNegativeFill: under fill -2 (8 KB), a listpack becomes a quicklist when its
// bytes plus the new element's length pass 8192, and back only when one node of at most 4096
// bytes is left.
func TestConversionNegativeFill(t *testing.T) {
	withFill(t, -2)
	a := newArena(t)
	before := a.Used()
	rec := newList(t, a)
	e := strings.Repeat("x", 100) // entry of 102 bytes
	var model []string
	for {
		lp := listpack.FromHandle(rootOf(a, rec)).Bytes(a)
		if len(lp)+len(e) > 8192 {
			break
		}
		push(t, a, rec, true, e)
		model = append(model, e)
		if encoding(a, rec) != "listpack" {
			t.Fatalf("quicklist at %d bytes", len(lp))
		}
	}
	push(t, a, rec, true, e)
	model = append(model, e)
	if encoding(a, rec) != "quicklist" {
		t.Fatal("still a listpack past 8192 bytes")
	}
	checkModel(t, a, rec, model)
	// The quicklist is the old listpack as one node and a node of the last element. Popping
	// from the head leaves both nodes (no merge after deletes, as Redis): still a quicklist
	// with 2 elements left.
	headModel := slices.Clone(model)
	c, err := object.CopyCollection(a, rec, a, []byte("copy"), 0)
	if err != nil {
		t.Fatal(err)
	}
	for Len(a, c) > 2 {
		Pop(a, c, false, 1, nil, func([]byte) {})
		headModel = headModel[1:]
		if encoding(a, c) != "quicklist" {
			t.Fatalf("head pops: a listpack at %d elements, while two nodes are left", Len(a, c))
		}
	}
	Pop(a, c, false, 1, nil, func([]byte) {})
	if encoding(a, c) != "listpack" {
		t.Fatal("head pops: one node of one element left, still a quicklist")
	}
	checkModel(t, a, c, headModel[1:])
	object.Free(a, c)
	// Popping from the tail removes the one-element node, then shrinks the single node: a
	// listpack again once it is at most 4096 bytes.
	for encoding(a, rec) == "quicklist" {
		Pop(a, rec, true, 1, nil, func([]byte) {})
		model = model[:len(model)-1]
		if encoding(a, rec) == "listpack" {
			if sz := len(listpack.FromHandle(rootOf(a, rec)).Bytes(a)); sz > 4096 || sz+102 <= 4096 {
				t.Fatalf("converted back at %d bytes (want the first size ≤ 4096)", sz)
			}
		}
	}
	checkModel(t, a, rec, model)
	freeAll(t, a, rec, before)
}

// TestConversionPositiveFill: under fill 4 a fifth element makes a quicklist; the quicklist
// goes back to a listpack at 2 elements (half the limit), not at 3 or 4.
func TestConversionPositiveFill(t *testing.T) {
	withFill(t, 4)
	a := newArena(t)
	before := a.Used()
	rec := newList(t, a)
	push(t, a, rec, true, "a", "b", "c", "d")
	if encoding(a, rec) != "listpack" {
		t.Fatal("4 elements under fill 4: want listpack")
	}
	push(t, a, rec, true, "e")
	if encoding(a, rec) != "quicklist" {
		t.Fatal("5 elements under fill 4: want quicklist")
	}
	for _, wantLen := range []int{4, 3} {
		Pop(a, rec, true, 1, nil, func([]byte) {})
		if Len(a, rec) != wantLen || encoding(a, rec) != "quicklist" {
			t.Fatalf("%d elements: %s, want quicklist (above half the limit)", Len(a, rec), encoding(a, rec))
		}
	}
	Pop(a, rec, true, 1, nil, func([]byte) {})
	if encoding(a, rec) != "listpack" {
		t.Fatal("2 elements under fill 4: want listpack")
	}
	checkModel(t, a, rec, []string{"a", "b"})
	// A batch is checked at once: 2 + 3 > 4 converts before the first push.
	if err := TryConversionAppend(a, rec, 3, 3); err != nil {
		t.Fatal(err)
	}
	if encoding(a, rec) != "quicklist" {
		t.Fatal("TryConversionAppend of 3 onto 2 under fill 4: want quicklist")
	}
	checkModel(t, a, rec, []string{"a", "b"})
	freeAll(t, a, rec, before)
}

// TestConversionPositiveFillBytes: a positive fill still caps a listpack at 8 KB.
func TestConversionPositiveFillBytes(t *testing.T) {
	withFill(t, 128)
	a := newArena(t)
	rec := newList(t, a)
	push(t, a, rec, true, strings.Repeat("y", 5000))
	if encoding(a, rec) != "listpack" {
		t.Fatal("one 5000-byte element under fill 128: want listpack")
	}
	push(t, a, rec, true, strings.Repeat("y", 5000))
	if encoding(a, rec) != "quicklist" {
		t.Fatal("10 KB under fill 128: want quicklist (8 KB safety limit)")
	}
	// No byte limit when shrinking under a positive fill: one node of one 5000-byte element
	// (≤ 64 entries) converts back.
	Pop(a, rec, true, 1, nil, func([]byte) {})
	if encoding(a, rec) != "listpack" {
		t.Fatalf("after the pop: %s, want listpack", encoding(a, rec))
	}
}

func TestWrites(t *testing.T) {
	for _, fill := range []int64{-2, 3} {
		t.Run(fmt.Sprint(fill), func(t *testing.T) {
			withFill(t, fill)
			a := newArena(t)
			before := a.Used()
			rec := newList(t, a)
			model := []string{"a", "b", "c", "b", "1", "b", "d"}
			push(t, a, rec, true, model...)
			checkModel(t, a, rec, model)

			if ok, err := Set(a, rec, -1, []byte("D")); !ok || err != nil {
				t.Fatal("Set -1", ok, err)
			}
			model[6] = "D"
			if ok, _ := Set(a, rec, 7, []byte("x")); ok {
				t.Fatal("Set 7 out of range succeeded")
			}
			if found, err := InsertPivot(a, rec, []byte("1"), []byte("one"), true); !found || err != nil {
				t.Fatal("InsertPivot after 1", found, err)
			}
			model = slices.Insert(model, 5, "one")
			if found, _ := InsertPivot(a, rec, []byte("b"), []byte("B"), false); !found {
				t.Fatal("InsertPivot before b")
			}
			model = slices.Insert(model, 1, "B")
			if found, _ := InsertPivot(a, rec, []byte("zz"), []byte("B"), false); found {
				t.Fatal("InsertPivot found a missing pivot")
			}
			checkModel(t, a, rec, model)

			// model: a B b c b 1 one b D
			if n, _ := Remove(a, rec, -1, []byte("b")); n != 1 {
				t.Fatal("Remove -1 b:", n)
			}
			model = slices.Delete(model, 7, 8)
			if n, _ := Remove(a, rec, 1, []byte("b")); n != 1 {
				t.Fatal("Remove 1 b:", n)
			}
			model = slices.Delete(model, 2, 3)
			checkModel(t, a, rec, model) // a B c b 1 one D
			push(t, a, rec, true, "b", "b")
			model = append(model, "b", "b")
			if n, _ := Remove(a, rec, 0, []byte("b")); n != 3 {
				t.Fatal("Remove 0 b:", n)
			}
			model = []string{"a", "B", "c", "1", "one", "D"}
			checkModel(t, a, rec, model)

			var pos []int
			push(t, a, rec, true, "c", "x", "c")
			model = append(model, "c", "x", "c") // a B c 1 one D c x c
			Pos(a, rec, []byte("c"), 1, 0, func(i int) bool { pos = append(pos, i); return true })
			if !slices.Equal(pos, []int{2, 6, 8}) {
				t.Fatal("Pos c:", pos)
			}
			pos = pos[:0]
			Pos(a, rec, []byte("c"), -2, 0, func(i int) bool { pos = append(pos, i); return true })
			if !slices.Equal(pos, []int{6, 2}) {
				t.Fatal("Pos c rank -2:", pos)
			}
			pos = pos[:0]
			Pos(a, rec, []byte("c"), 1, 6, func(i int) bool { pos = append(pos, i); return true })
			if !slices.Equal(pos, []int{2}) {
				t.Fatal("Pos c maxlen 6:", pos)
			}
			pos = pos[:0]
			Pos(a, rec, []byte("1"), 1, 0, func(i int) bool { pos = append(pos, i); return false })
			if !slices.Equal(pos, []int{3}) {
				t.Fatal("Pos 1:", pos)
			}

			if n, _ := Trim(a, rec, 1, -2); n != 2 {
				t.Fatal("Trim 1 -2 removed", n)
			}
			model = model[1 : len(model)-1]
			checkModel(t, a, rec, model)
			if n, _ := Trim(a, rec, 5, 2); n != len(model) || Len(a, rec) != 0 {
				t.Fatal("Trim 5 2 removed", n)
			}
			freeAll(t, a, rec, before)
		})
	}
}

func TestCopyAndFree(t *testing.T) {
	for _, n := range []int{3, 5000} {
		a, b := newArena(t), newArena(t)
		rec := newList(t, a)
		var model []string
		for i := range n {
			model = append(model, fmt.Sprintf("v%05d", i))
		}
		push(t, a, rec, true, model...)
		before := b.Used()
		c, err := object.CopyCollection(a, rec, b, []byte("copy"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if encoding(b, c) != encoding(a, rec) {
			t.Fatal("copy changed the encoding")
		}
		checkModel(t, b, c, model)
		freeAll(t, b, c, before)
	}
}

func TestBuilder(t *testing.T) {
	a := newArena(t)
	before := a.Used()
	mk := func(elems ...string) []byte {
		lp := listpack.NewSlice(0)
		for _, e := range elems {
			var err error
			if lp, err = listpack.AppendSlice(lp, []byte(e)); err != nil {
				t.Fatal(err)
			}
		}
		return lp
	}
	// One small node: a listpack list.
	b := NewBuilder(a, []byte("k"), 0)
	b.AppendListpack(mk("a", "1", "b"))
	rec, err := b.Finish()
	if err != nil || encoding(a, rec) != "listpack" {
		t.Fatal("one small node:", err)
	}
	checkModel(t, a, rec, []string{"a", "1", "b"})
	freeAll(t, a, rec, before)

	// Two nodes and a plain one: a quicklist, kept node for node.
	b = NewBuilder(a, []byte("k"), 0)
	b.AppendListpack(mk("a", "b"))
	b.AppendPlain([]byte("p"))
	b.AppendListpack(mk())
	b.AppendElem([]byte("c"))
	rec, err = b.Finish()
	if err != nil || encoding(a, rec) != "quicklist" {
		t.Fatal("several nodes:", err)
	}
	var plains []bool
	Nodes(a, rec, func(lp []byte, plain bool) bool { plains = append(plains, plain); return true })
	if !slices.Equal(plains, []bool{false, true, false}) {
		t.Fatal("nodes", plains)
	}
	checkModel(t, a, rec, []string{"a", "b", "p", "c"})
	freeAll(t, a, rec, before)

	// A plain node alone stays a quicklist; nothing at all is ErrEmpty.
	b = NewBuilder(a, []byte("k"), 0)
	b.AppendPlain(bytes.Repeat([]byte("z"), 10))
	rec, _ = b.Finish()
	if encoding(a, rec) != "quicklist" {
		t.Fatal("a plain node alone became a listpack")
	}
	freeAll(t, a, rec, before)
	b = NewBuilder(a, []byte("k"), 0)
	b.AppendListpack(mk())
	if _, err := b.Finish(); err != ErrEmpty {
		t.Fatal("empty builder:", err)
	}
	b = NewBuilder(a, []byte("k"), 0)
	b.AppendElem([]byte("x"))
	b.Abort()
	if a.Used() != before {
		t.Fatal("Abort leaked", a.Used()-before)
	}
}
