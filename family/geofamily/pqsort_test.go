package geofamily

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPqsort: the ranks asked hold what a full sort puts there, whatever the ties, and the
// points are a permutation of the input.
func TestPqsort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cmp := func(x, y *point) int { return cmpDist(x.dist, y.dist) }
	for range 2000 {
		n := 1 + rng.IntN(120)
		p := make([]point, n)
		for i := range p {
			p[i] = point{dist: float64(rng.IntN(1 + n/3)), off: i}
		}
		sorted := slices.Clone(p)
		slices.SortFunc(sorted, func(x, y point) int { return cmp(&x, &y) })
		lo := rng.IntN(n)
		hi := lo + rng.IntN(n-lo)
		if rng.IntN(2) == 0 {
			lo = 0 // as Redis calls it
		}
		pqsort(p, cmp, lo, hi)
		for i := lo; i <= hi; i++ {
			if p[i].dist != sorted[i].dist {
				t.Fatalf("n %d ranks %d..%d: rank %d holds %v, want %v", n, lo, hi, i, p[i].dist, sorted[i].dist)
			}
		}
		seen := make([]bool, n)
		for _, q := range p {
			if seen[q.off] {
				t.Fatalf("point %d twice", q.off)
			}
			seen[q.off] = true
		}
	}
}
