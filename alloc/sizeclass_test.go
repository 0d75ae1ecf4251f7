package alloc

import "testing"

func TestSlabClasses(t *testing.T) {
	want := []uint32{16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128,
		160, 192, 224, 256, 320, 384, 448, 512, 640, 768, 896, 1024,
		1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192,
		10240, 12288, 14336, 16384, 20480, 24576, 28672, 32768}
	if len(want) != numSlabClasses {
		t.Fatalf("want %d classes, table has %d", len(want), numSlabClasses)
	}
	for c, size := range want {
		if slabClassSize[c] != size {
			t.Errorf("class %d: got %d bytes, want %d", c, slabClassSize[c], size)
		}
	}
}

func TestUsableSize(t *testing.T) {
	cases := []struct{ n, want int }{
		{0, 16}, {1, 16}, {16, 16}, {17, 24}, {25, 32}, {111, 112}, {112, 112}, {113, 120}, {121, 128}, {128, 128},
		{129, 160}, {160, 160}, {161, 192}, {1000, 1024}, {16385, 20480}, {32768, 32768},
		{32769, 40960}, {40960, 40960}, {65536, 65536}, {65537, 81920},
		{1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1<<18}, {2 << 20, 2 << 20},
		{2<<20 + 1, 2<<20 + 4096}, {100 << 20, 100 << 20}, {100<<20 + 5, 100<<20 + 4096},
	}
	for _, c := range cases {
		if got := UsableSize(c.n); got != c.want {
			t.Errorf("UsableSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	// Monotonic, never below the request, waste at most 25% above 128 bytes.
	prev := 0
	for n := 1; n <= 3<<20; n += 7 {
		u := UsableSize(n)
		if u < n || u < prev {
			t.Fatalf("UsableSize(%d) = %d (previous %d)", n, u, prev)
		}
		if n > 128 && n <= MaxRunSize && float64(u) > 1.25*float64(n) {
			t.Fatalf("UsableSize(%d) = %d wastes more than 25%%", n, u)
		}
		prev = u
	}
}

func TestRunClasses(t *testing.T) {
	seen := map[int]uint64{}
	for n := uint64(MaxSlabSize + 1); n <= MaxRunSize; n += 512 {
		size := roundClass(n)
		c := runClassOf(size)
		if c < 0 || c >= numRunClasses {
			t.Fatalf("runClassOf(%d) = %d, out of range", size, c)
		}
		if old, ok := seen[c]; ok && old != size {
			t.Fatalf("run class %d holds both %d and %d", c, old, size)
		}
		seen[c] = size
	}
	if len(seen) != numRunClasses {
		t.Fatalf("saw %d run classes, want %d", len(seen), numRunClasses)
	}
}
