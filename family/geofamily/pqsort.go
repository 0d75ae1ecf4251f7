package geofamily

// Redis sorts a search's points with libc's qsort when all are replied, and with its own
// partial quicksort (pqsort.c: Bentley & McIlroy's qsort that only recurses into the parts
// overlapping the ranks wanted) when COUNT cuts the result. Distances tie when points share a
// position, and then the order of the tied points is whatever the algorithm leaves: to reply
// the same order, a full sort here is stable (glibc's qsort is a merge sort) and a partial one
// follows pqsort's steps exactly.

// pqsort sorts the points so that ranks lo..hi (0-based, inclusive) hold what a full sort by
// cmp would put there, the rest in no particular order, moving the points as Redis's pqsort
// moves them.
func pqsort(p []point, cmp func(x, y *point) int, lo, hi int) {
	pqsortRange(p, 0, len(p), cmp, lo, hi)
}

// med3 is the index of the median of p[a], p[b], p[c] as pqsort's med3 chooses it.
func med3(p []point, a, b, c int, cmp func(x, y *point) int) int {
	if cmp(&p[a], &p[b]) < 0 {
		switch {
		case cmp(&p[b], &p[c]) < 0:
			return b
		case cmp(&p[a], &p[c]) < 0:
			return c
		}
		return a
	}
	switch {
	case cmp(&p[b], &p[c]) > 0:
		return b
	case cmp(&p[a], &p[c]) < 0:
		return a
	}
	return c
}

// vecswap swaps the n points from a with the n points from b.
func vecswap(p []point, a, b, n int) {
	for i := range n {
		p[a+i], p[b+i] = p[b+i], p[a+i]
	}
}

// pqsortRange sorts the n points from a (_pqsort), lo..hi being the ranks wanted.
func pqsortRange(p []point, a, n int, cmp func(x, y *point) int, lo, hi int) {
	for {
		if n < 7 { // insertion sort
			for m := a + 1; m < a+n; m++ {
				for l := m; l > a && cmp(&p[l-1], &p[l]) > 0; l-- {
					p[l], p[l-1] = p[l-1], p[l]
				}
			}
			return
		}
		m := a + n/2
		if n > 7 {
			l, r := a, a+n-1
			if n > 40 { // the pseudo-median of nine
				d := n / 8
				l = med3(p, l, l+d, l+2*d, cmp)
				m = med3(p, m-d, m, m+d, cmp)
				r = med3(p, r-2*d, r-d, r, cmp)
			}
			m = med3(p, l, m, r, cmp)
		}
		p[a], p[m] = p[m], p[a]
		pa, pb := a+1, a+1
		pc, pd := a+n-1, a+n-1
		for {
			for pb <= pc {
				c := cmp(&p[pb], &p[a])
				if c > 0 {
					break
				}
				if c == 0 {
					p[pa], p[pb] = p[pb], p[pa]
					pa++
				}
				pb++
			}
			for pb <= pc {
				c := cmp(&p[pc], &p[a])
				if c < 0 {
					break
				}
				if c == 0 {
					p[pc], p[pd] = p[pd], p[pc]
					pd--
				}
				pc--
			}
			if pb > pc {
				break
			}
			p[pb], p[pc] = p[pc], p[pb]
			pb++
			pc--
		}
		pn := a + n
		r := min(pa-a, pb-pa)
		vecswap(p, a, pb-r, r)
		r = min(pd-pc, pn-pd-1)
		vecswap(p, pb, pn-r, r)
		// The part below the pivot, then (iterating) the part above it, each only when it
		// overlaps the ranks wanted.
		if r = pb - pa; r > 1 && overlaps(a, a+r-1, lo, hi) {
			pqsortRange(p, a, r, cmp, lo, hi)
		}
		r = pd - pc
		if r <= 1 {
			return
		}
		a, n = pn-r, r
		if !overlaps(a, a+n-1, lo, hi) {
			return
		}
	}
}

// overlaps is pqsort's range test: the part [l, r] is sorted unless lo and hi both lie before
// it or both after it.
func overlaps(l, r, lo, hi int) bool {
	return !((lo < l && hi < l) || (lo > r && hi > r))
}
