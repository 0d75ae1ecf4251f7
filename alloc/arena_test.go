package alloc

import (
	"bytes"
	"testing"
)

func newTestArena(t testing.TB) *Arena {
	t.Helper()
	a, err := NewArena(1 << 30)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

func fill(b []byte, seed byte) {
	for i := range b {
		b[i] = seed + byte(i*7)
	}
}

func TestAllocFreeAccounting(t *testing.T) {
	a := newTestArena(t)
	sizes := []int{1, 16, 17, 100, 128, 129, 1000, 16 << 10, 32 << 10, 40 << 10, 1 << 20, 3 << 20}
	handles := make([]Handle, len(sizes))
	var want int64
	for i, n := range sizes {
		h := a.Alloc(n)
		if h == 0 {
			t.Fatalf("Alloc(%d) failed", n)
		}
		if h.IsLarge() != (n > MaxSlabSize) {
			t.Fatalf("Alloc(%d): IsLarge = %v", n, h.IsLarge())
		}
		fill(a.Bytes(h, UsableSize(n)), byte(i))
		handles[i] = h
		want += int64(UsableSize(n))
		if a.Used() != want {
			t.Fatalf("after Alloc(%d): Used = %d, want %d", n, a.Used(), want)
		}
	}
	for i, n := range sizes {
		exp := make([]byte, UsableSize(n))
		fill(exp, byte(i))
		if !bytes.Equal(a.Bytes(handles[i], len(exp)), exp) {
			t.Fatalf("allocation %d (%d bytes) was overwritten", i, n)
		}
	}
	for i, n := range sizes {
		a.Free(handles[i], n)
	}
	if a.Used() != 0 {
		t.Fatalf("Used = %d after freeing everything", a.Used())
	}
	st := a.Stats()
	if st.Allocs != uint64(len(sizes)) || st.Frees != uint64(len(sizes)) {
		t.Fatalf("stats %+v", st)
	}
}

func TestSlotsAreReused(t *testing.T) {
	a := newTestArena(t)
	h1 := a.Alloc(100)
	a.Free(h1, 100)
	h2 := a.Alloc(104) // same class
	if h1 != h2 {
		t.Fatalf("freed slot %#x not reused (got %#x)", h1, h2)
	}
}

func TestSlotsDoNotOverlap(t *testing.T) {
	a := newTestArena(t)
	const n = 100000 // several spans of the 48-byte class
	hs := make([]Handle, n)
	for i := range hs {
		hs[i] = a.Alloc(44)
		b := a.Bytes(hs[i], 48)
		for j := range b {
			b[j] = byte(i)
		}
	}
	for i, h := range hs {
		for _, c := range a.Bytes(h, 48) {
			if c != byte(i) {
				t.Fatalf("slot %d overwritten", i)
			}
		}
	}
	for _, h := range hs {
		a.Free(h, 44)
	}
	if a.Used() != 0 {
		t.Fatalf("Used = %d", a.Used())
	}
	// All but one span per class go back to the OS.
	if got, want := a.Stats().SpansReleased, uint64(n*48/spanSize); got < want {
		t.Fatalf("released %d spans, want at least %d", got, want)
	}
	// Released spans serve other classes.
	h := a.Alloc(30000)
	if h == 0 || h.offset()>>spanShift > uintptr(n*48/spanSize)+2 {
		t.Fatalf("span not reused: handle %#x", h)
	}
	a.Free(h, 30000)
}

func TestReallocSameClassIsNoOp(t *testing.T) {
	a := newTestArena(t)
	for _, sizes := range [][2]int{{100, 104}, {200, 220}, {40 << 10, 39 << 10}, {3 << 20, 3<<20 - 100}} {
		h := a.Alloc(sizes[0])
		before := a.Stats()
		var nh Handle
		allocs := testing.AllocsPerRun(100, func() { nh = a.Realloc(h, sizes[0], sizes[1]) })
		if nh != h || allocs != 0 || a.Stats().Reallocs != before.Reallocs {
			t.Fatalf("Realloc %v: handle %#x→%#x, %v Go allocs, reallocs %d→%d",
				sizes, h, nh, allocs, before.Reallocs, a.Stats().Reallocs)
		}
		a.Free(h, sizes[1])
	}
}

func TestReallocKeepsContents(t *testing.T) {
	a := newTestArena(t)
	steps := []int{10, 100, 1000, 30000, 50000, 1 << 20, 3 << 20, 9 << 20, 5 << 20, 100000, 500, 20}
	h := a.Alloc(steps[0])
	fill(a.Bytes(h, steps[0]), 1)
	for i := 1; i < len(steps); i++ {
		old, n := steps[i-1], steps[i]
		h = a.Realloc(h, old, n)
		keep := min(old, n)
		exp := make([]byte, keep)
		fill(exp, byte(i))
		if i > 1 {
			fill(exp, byte(i-1))
		} else {
			fill(exp, 1)
		}
		got := a.Bytes(h, keep)
		if !bytes.Equal(got, exp) {
			t.Fatalf("step %d (%d→%d): contents lost", i, old, n)
		}
		fill(a.Bytes(h, n), byte(i))
		if a.Used() != int64(UsableSize(n)) {
			t.Fatalf("step %d: Used %d, want %d", i, a.Used(), UsableSize(n))
		}
	}
	a.Free(h, steps[len(steps)-1])
	if a.Used() != 0 {
		t.Fatalf("Used = %d", a.Used())
	}
}

func TestLargeKeepsHandleAndMremapDoesNotCopy(t *testing.T) {
	a := newTestArena(t)
	size := 3 << 20
	h := a.Alloc(size)
	fill(a.Bytes(h, size), 9)
	for size < 64<<20 {
		next := size * 3 / 2
		before := a.Stats().Copies
		if nh := a.Realloc(h, size, next); nh != h {
			t.Fatalf("large handle changed on growth: %#x → %#x", h, nh)
		}
		if Backend == "mmap" && a.Stats().Copies != before {
			t.Fatalf("growth %d → %d copied bytes instead of mremap", size, next)
		}
		size = next
	}
	exp := make([]byte, 3<<20)
	fill(exp, 9)
	if !bytes.Equal(a.Bytes(h, len(exp)), exp) {
		t.Fatal("contents lost across mremap")
	}
	a.Free(h, size)
}

func TestAdoptMovesAccounting(t *testing.T) {
	clients, shard := newTestArena(t), newTestArena(t)
	h := clients.Alloc(100000)
	fill(clients.Bytes(h, 100000), 3)
	shard.Adopt(clients, h)
	if clients.Used() != 0 || shard.Used() != int64(UsableSize(100000)) {
		t.Fatalf("after Adopt: clients %d, shard %d", clients.Used(), shard.Used())
	}
	exp := make([]byte, 100000)
	fill(exp, 3)
	if !bytes.Equal(shard.Bytes(h, 100000), exp) {
		t.Fatal("adopted object changed")
	}
	shard.Free(h, 100000)
	if shard.Used() != 0 {
		t.Fatalf("shard Used %d", shard.Used())
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Adopt of a slab handle did not panic")
		}
	}()
	shard.Adopt(clients, clients.Alloc(10))
}

func TestLargeMisusePanics(t *testing.T) {
	a, b := newTestArena(t), newTestArena(t)
	h := a.Alloc(50000)
	mustPanic(t, "wrong size", func() { a.Free(h, 100000) })
	mustPanic(t, "wrong owner", func() { b.Free(h, 50000) })
	a.Free(h, 50000)
	mustPanic(t, "double free", func() { a.Free(h, 50000) })
}

func TestCloseFreesLargeObjects(t *testing.T) {
	before := LargeObjects()
	a, err := NewArena(0)
	if err != nil {
		t.Fatal(err)
	}
	a.Alloc(100000)
	a.Alloc(5 << 20)
	if LargeObjects() != before+2 {
		t.Fatalf("LargeObjects = %d, want %d", LargeObjects(), before+2)
	}
	a.Close()
	if LargeObjects() != before {
		t.Fatalf("Close left %d large objects", LargeObjects()-before)
	}
}

func TestGoRuntimeLive(t *testing.T) {
	if n := GoRuntimeLive(); n < 64<<10 || n > 1<<40 {
		t.Fatalf("GoRuntimeLive = %d, not plausible", n)
	}
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Fatalf("%s: no panic", what)
		}
	}()
	f()
}

// TestReleaseEmptySpans: the spare span each class keeps goes back on request, live spans stay,
// and the released classes allocate again.
func TestReleaseEmptySpans(t *testing.T) {
	if Backend == "goheap" {
		t.Skip("the Go-heap backend keeps its spans (ReleaseEmptySpans)")
	}
	a := newTestArena(t)
	keep := a.Alloc(100)
	for _, size := range []int{16, 24, 200, 2000} {
		a.Free(a.Alloc(size), size)
	}
	before := a.Stats().SpansReleased
	if n := a.ReleaseEmptySpans(); n != 4 {
		t.Fatalf("released %d spans, want the 4 empty classes' spares", n)
	}
	if got := a.Stats().SpansReleased; got != before+4 {
		t.Fatalf("spans released %d → %d", before, got)
	}
	if a.ReleaseEmptySpans() != 0 {
		t.Fatal("a second call released more")
	}
	if b := a.Bytes(keep, 100); len(b) != 100 {
		t.Fatal("the live allocation is gone")
	}
	h := a.Alloc(24)
	a.Bytes(h, 24)[0] = 1
	a.Free(h, 24)
	a.Free(keep, 100)
	if a.Used() != 0 {
		t.Fatalf("Used %d", a.Used())
	}
}
