package listpack

// Random picks (for HRANDFIELD, SRANDMEMBER, SPOP). rnd(n) must return a uniform integer in
// [0, n); the caller chooses the generator.

// Random returns the offset of a uniformly chosen entry of lp, or -1 if it is empty.
func Random(lp []byte, rnd func(n int) int) int {
	n := Len(lp)
	if n == 0 {
		return -1
	}
	return Seek(lp, rnd(n))
}

// RandomPair returns the offsets of a uniformly chosen pair (entries 2k and 2k+1) of lp, which
// holds pairs (a hash), or -1, -1 if it is empty — lpRandomPair.
func RandomPair(lp []byte, rnd func(n int) int) (key, val int) {
	pairs := Len(lp) / 2
	if pairs == 0 {
		return -1, -1
	}
	key = Seek(lp, 2*rnd(pairs))
	return key, Next(lp, key)
}

// RandomPairs calls fn with count pairs chosen uniformly with repetition (HRANDFIELD with a
// negative count) — lpRandomPairs: the indices are drawn first, sorted, and the listpack is
// walked once; fn sees the pairs in listpack order.
func RandomPairs(lp []byte, count int, rnd func(n int) int, fn func(key, val int)) {
	pairs := Len(lp) / 2
	if pairs == 0 || count <= 0 {
		return
	}
	hits := make([]int, pairs) // picks per pair; walked once below
	for i := 0; i < count; i++ {
		hits[rnd(pairs)]++
	}
	key := First(lp)
	for i := 0; i < pairs; i++ {
		val := Next(lp, key)
		for j := 0; j < hits[i]; j++ {
			fn(key, val)
		}
		key = Next(lp, val)
	}
}

// RandomPairsUnique calls fn with up to count distinct pairs, in listpack order, each subset of
// that size equally likely (selection sampling, as lpRandomPairsUnique), and returns how many it
// picked.
func RandomPairsUnique(lp []byte, count int, rnd func(n int) int, fn func(key, val int)) int {
	pairs := Len(lp) / 2
	if count > pairs {
		count = pairs
	}
	picked := 0
	key := First(lp)
	for i := 0; picked < count && key >= 0; i++ {
		val := Next(lp, key)
		// Pick this pair with probability (still to pick) / (still to see).
		if rnd(pairs-i) < count-picked {
			fn(key, val)
			picked++
		}
		key = Next(lp, val)
	}
	return picked
}

// RandomEntriesUnique is RandomPairsUnique for a listpack of single entries (a set): up to
// count distinct entries in listpack order.
func RandomEntriesUnique(lp []byte, count int, rnd func(n int) int, fn func(p int)) int {
	n := Len(lp)
	if count > n {
		count = n
	}
	picked := 0
	p := First(lp)
	for i := 0; picked < count && p >= 0; i++ {
		if rnd(n-i) < count-picked {
			fn(p)
			picked++
		}
		p = Next(lp, p)
	}
	return picked
}
