package alloc

import (
	"bytes"
	"testing"
)

// FuzzAllocator runs random sequences of Alloc, Free, Realloc and writes against a model that
// keeps each live allocation's size and contents in Go memory, and checks after every step that
// the arena's contents and accounting match the model.
func FuzzAllocator(f *testing.F) {
	f.Add([]byte{0, 10, 0, 200, 1, 0, 2, 1, 50, 3, 0})
	f.Add([]byte{0, 255, 0, 255, 0, 255, 2, 0, 255, 2, 1, 255, 1, 0, 1, 1})
	f.Add([]byte{0, 128, 4, 0, 130, 5, 2, 0, 250, 6, 2, 0, 7, 1, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		a := MustNewArena(8 << 30)
		defer a.Close()
		type live struct {
			h    Handle
			size int
			data []byte
		}
		var lives []live
		var want int64
		next := func() byte {
			if len(ops) == 0 {
				return 0
			}
			b := ops[0]
			ops = ops[1:]
			return b
		}
		// size draws sizes from every tier: small steps near class boundaries, the slab
		// maximum, page runs and mappings.
		size := func() int {
			b, c := int(next()), int(next())
			switch b % 8 {
			case 0, 1, 2:
				return b<<2 + c%16
			case 3:
				return 100 + b*c
			case 4:
				return MaxSlabSize - 64 + c
			case 5:
				return MaxSlabSize + c*2000
			case 6:
				return MaxRunSize - 4096 + c*64
			default:
				return MaxRunSize + c*40000
			}
		}
		check := func() {
			for _, l := range lives {
				if !bytes.Equal(a.Bytes(l.h, l.size), l.data) {
					t.Fatalf("contents of %#x (%d bytes) differ from the model", l.h, l.size)
				}
			}
			if a.Used() != want {
				t.Fatalf("Used %d, model %d", a.Used(), want)
			}
		}
		for len(ops) > 0 {
			switch op := next() % 4; {
			case op == 0 || len(lives) == 0:
				n := size()
				h := a.Alloc(n)
				if h == 0 {
					t.Fatalf("Alloc(%d) failed", n)
				}
				d := make([]byte, n)
				fill(d, byte(len(lives)))
				copy(a.Bytes(h, n), d)
				lives = append(lives, live{h, n, d})
				want += int64(UsableSize(n))
			case op == 1:
				i := int(next()) % len(lives)
				a.Free(lives[i].h, lives[i].size)
				want -= int64(UsableSize(lives[i].size))
				lives = append(lives[:i], lives[i+1:]...)
			case op == 2:
				i := int(next()) % len(lives)
				l := &lives[i]
				n := size()
				l.h = a.Realloc(l.h, l.size, n)
				want += int64(UsableSize(n) - UsableSize(l.size))
				d := make([]byte, n)
				copy(d, l.data)
				if n > l.size { // the grown part is unspecified: give it the model's bytes
					copy(a.Bytes(l.h, n)[l.size:], d[l.size:])
				}
				l.size, l.data = n, d
			default:
				i := int(next()) % len(lives)
				l := lives[i]
				if len(l.data) > 0 {
					off := int(next()) * 997 % len(l.data)
					l.data[off] ^= 0x5a
					a.Bytes(l.h, l.size)[off] ^= 0x5a
				}
			}
			check()
		}
		for _, l := range lives {
			a.Free(l.h, l.size)
		}
		if a.Used() != 0 {
			t.Fatalf("Used %d after freeing all", a.Used())
		}
	})
}
