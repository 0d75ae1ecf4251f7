package listval

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestPushAll: a whole LPUSH or RPUSH through PushAll leaves the same elements, in the same
// order and the same encoding, as the command's steps one by one (TryConversionAppend over all
// the elements, then Push of each), from empty, small and big lists, on both sides of the
// conversion, under a negative and a positive fill; its length and count are right.
func TestPushAll(t *testing.T) {
	for _, fill := range []int64{-1, 5} {
		withFill(t, fill)
		rng := rand.New(rand.NewSource(fill))
		for round := range 200 {
			a := newArena(t)
			got, want := newList(t, a), newList(t, a)
			for step := range 6 {
				n := 1 + rng.Intn(8)
				elems := make([][]byte, n)
				bytes := 0
				for i := range elems {
					elems[i] = []byte(fmt.Sprintf("%d-%d-%d", round, step, i))
					if rng.Intn(8) == 0 {
						elems[i] = append(elems[i], make([]byte, 200+rng.Intn(2000))...)
					}
					bytes += len(elems[i])
				}
				tail := rng.Intn(2) == 0
				length, pushed, err := PushAll(a, got, n, bytes, func(i int) []byte { return elems[i] }, tail)
				if err != nil || pushed != n {
					t.Fatalf("PushAll: %d pushed, %v", pushed, err)
				}
				if err := TryConversionAppend(a, want, n, bytes); err != nil {
					t.Fatal(err)
				}
				for _, e := range elems {
					if err := Push(a, want, e, tail); err != nil {
						t.Fatal(err)
					}
				}
				g, w := contents(t, a, got), contents(t, a, want)
				if !slices.Equal(g, w) || length != len(w) || encoding(a, got) != encoding(a, want) {
					t.Fatalf("fill %d round %d step %d: PushAll gave %d elements (%s), length %d; steps gave %d (%s)",
						fill, round, step, len(g), encoding(a, got), length, len(w), encoding(a, want))
				}
				if err := Check(a, got); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
