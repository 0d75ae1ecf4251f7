package sds

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 30)
	t.Cleanup(a.Close)
	return a
}

func TestNewTakesOverTheClass(t *testing.T) {
	a := newArena(t)
	for _, n := range []int{0, 1, 8, 9, 100, 104, 105, 1000, 40000, 3 << 20} {
		p := bytes.Repeat([]byte{'x'}, n)
		s := New(a, p)
		if !bytes.Equal(s.Bytes(a), p) || s.Len(a) != n {
			t.Fatalf("New(%d bytes): contents or length wrong", n)
		}
		if want := alloc.UsableSize(8+n) - 8; s.Cap(a) != want {
			t.Fatalf("New(%d bytes): Cap %d, want the whole class %d", n, s.Cap(a), want)
		}
		if a.Used() != int64(s.AllocSize(a)) {
			t.Fatalf("New(%d bytes): arena charged %d, string says %d", n, a.Used(), s.AllocSize(a))
		}
		s.Free(a)
		if a.Used() != 0 {
			t.Fatalf("Free left %d bytes charged", a.Used())
		}
	}
}

func TestMakeRoomForGrowthRule(t *testing.T) {
	cases := []struct {
		len, add int
		greedy   bool
		wantCap  int
	}{
		{100, 50, true, alloc.UsableSize(8+150) - 8},            // small: exact even when greedy
		{10000, 5000, true, alloc.UsableSize(8+15000) - 8},      // still below 16 KiB
		{10000, 10000, true, alloc.UsableSize(8+40000) - 8},     // above: doubled
		{10000, 10000, false, alloc.UsableSize(8+20000) - 8},    // known size: exact
		{1 << 20, 1 << 20, true, alloc.UsableSize(8+3<<20) - 8}, // above 1 MiB: ×1.5
	}
	for _, c := range cases {
		a := newArena(t)
		s := New(a, make([]byte, c.len))
		s = s.MakeRoomFor(a, c.add, c.greedy)
		if s.Cap(a) != c.wantCap || s.Len(a) != c.len {
			t.Errorf("%+v: Cap %d Len %d, want Cap %d", c, s.Cap(a), s.Len(a), c.wantCap)
		}
		s.Free(a)
	}
}

func TestAppend(t *testing.T) {
	a := newArena(t)
	var s String
	var model []byte
	for i := 0; i < 20000; i++ {
		piece := []byte(fmt.Sprintf("piece-%d;", i))
		s = s.Append(a, piece)
		model = append(model, piece...)
	}
	if !bytes.Equal(s.Bytes(a), model) {
		t.Fatal("appended contents differ")
	}
	if a.Used() != int64(s.AllocSize(a)) {
		t.Fatalf("accounting: arena %d, string %d", a.Used(), s.AllocSize(a))
	}
	s.Free(a)
}

func TestResizeWithinClassDoesNothing(t *testing.T) {
	a := newArena(t)
	s := New(a, make([]byte, 100)).MakeRoomFor(a, 3000, false) // capacity in the 3584 class
	before := a.Stats()
	var r String
	allocs := testing.AllocsPerRun(100, func() { r = s.Resize(a, 3200, true) })
	after := a.Stats()
	if r != s || allocs != 0 || after.Reallocs != before.Reallocs || after.Allocs != before.Allocs {
		t.Fatalf("Resize within the class: moved %v, %v Go allocs, reallocs %d→%d",
			r != s, allocs, before.Reallocs, after.Reallocs)
	}
	r = s.Resize(a, 200, false) // another class: trims
	if r.Cap(a) != alloc.UsableSize(208)-8 || r.Len(a) != 100 || a.Stats().Reallocs != before.Reallocs+1 {
		t.Fatalf("Resize to 200: Cap %d Len %d", r.Cap(a), r.Len(a))
	}
	r = r.Resize(a, 10, false) // below the length: truncates
	if r.Len(a) != 10 || r.Cap(a) != alloc.UsableSize(18)-8 {
		t.Fatalf("Resize to 10: Cap %d Len %d", r.Cap(a), r.Len(a))
	}
	r.Free(a)
	if a.Used() != 0 {
		t.Fatalf("Used %d", a.Used())
	}
}

func TestRemoveFreeSpace(t *testing.T) {
	a := newArena(t)
	s := New(a, []byte("hello")).MakeRoomFor(a, 100000, true)
	s = s.RemoveFreeSpace(a, false)
	if string(s.Bytes(a)) != "hello" || s.Cap(a) != alloc.UsableSize(13)-8 {
		t.Fatalf("RemoveFreeSpace: %q cap %d", s.Bytes(a), s.Cap(a))
	}
	s.Free(a)
}

func TestSpareAndSetLen(t *testing.T) {
	a := newArena(t)
	s := WithCapacity(a, 50)
	n := copy(s.Spare(a), "abc")
	s.SetLen(a, n)
	if string(s.Bytes(a)) != "abc" || s.Avail(a) != s.Cap(a)-3 {
		t.Fatalf("got %q", s.Bytes(a))
	}
	defer func() {
		if recover() == nil {
			t.Fatal("SetLen beyond capacity did not panic")
		}
	}()
	s.SetLen(a, s.Cap(a)+1)
}

func TestLongHeader(t *testing.T) {
	if alloc.Backend != "mmap" {
		t.Skip("needs 2 GiB of address space, not of Go heap")
	}
	a := alloc.MustNewArena(0)
	defer a.Close()
	s := WithCapacity(a, 1<<31)
	if s.IsNil() {
		t.Skip("no address space for 2 GiB")
	}
	if _, _, hdr := s.header(a); hdr != longHeader || s.Cap(a) < 1<<31 {
		t.Fatalf("header %d cap %d", hdr, s.Cap(a))
	}
	s = s.Append(a, []byte("long header"))
	s = s.Resize(a, 100, true) // wouldRegrow keeps the long header
	if _, _, hdr := s.header(a); hdr != longHeader || string(s.Bytes(a)) != "long header" {
		t.Fatalf("wouldRegrow: header %d, %q", hdr, s.Bytes(a))
	}
	s = s.Resize(a, 100, false)
	if _, _, hdr := s.header(a); hdr != shortHeader || string(s.Bytes(a)) != "long header" {
		t.Fatalf("trim: header %d, %q", hdr, s.Bytes(a))
	}
	s.Free(a)
	if a.Used() != 0 {
		t.Fatalf("Used %d", a.Used())
	}
}

// FuzzString checks random appends, reservations, resizes and truncations against a []byte
// model, and the arena's accounting against the string's own size.
func FuzzString(f *testing.F) {
	f.Add([]byte{0, 10, 1, 200, 2, 3, 3, 1})
	f.Add([]byte{1, 255, 1, 255, 1, 255, 2, 0, 0, 100})
	f.Fuzz(func(t *testing.T, ops []byte) {
		a := alloc.MustNewArena(1 << 30)
		defer a.Close()
		var s String
		var model []byte
		for i := 0; i+1 < len(ops); i += 2 {
			arg := int(ops[i+1])
			switch ops[i] % 4 {
			case 0:
				p := bytes.Repeat([]byte{byte(i)}, arg)
				s, model = s.Append(a, p), append(model, p...)
			case 1:
				s = s.MakeRoomFor(a, arg*arg*3, arg%2 == 0)
			case 2:
				size := arg * arg
				s = s.Resize(a, size, arg%3 == 0)
				if size < len(model) {
					model = model[:size]
				}
			default:
				if len(model) > 0 {
					n := arg % len(model)
					s.SetLen(a, n)
					model = model[:n]
				}
			}
			if !bytes.Equal(s.Bytes(a), model) && !(len(model) == 0 && s.Len(a) == 0) {
				t.Fatalf("op %d: contents differ", i/2)
			}
			if a.Used() != int64(alloc.UsableSize(s.AllocSize(a))) && !s.IsNil() {
				t.Fatalf("op %d: arena %d, string %d", i/2, a.Used(), s.AllocSize(a))
			}
			if s.Cap(a) != 0 && alloc.UsableSize(s.AllocSize(a)) != s.AllocSize(a) {
				t.Fatalf("op %d: capacity %d does not fill the class", i/2, s.Cap(a))
			}
		}
		s.Free(a)
		if a.Used() != 0 {
			t.Fatalf("Used %d after Free", a.Used())
		}
	})
}
