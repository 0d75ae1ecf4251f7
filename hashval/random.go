package hashval

import (
	"math/rand/v2"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// Random picks for HRANDFIELD, with Redis 7.2's selection rules (t_hash.c,
// hrandfieldWithCountCommand). The bookkeeping of a pick (offsets of a listpack's pairs, the
// handles of a table's entries, the set of entries already picked) is Go memory of the one
// command, freed when it returns; the hash holds none.

// randomSubStrategyMul is Redis's HRANDFIELD_SUB_STRATEGY_MUL: when count × 3 exceeds the
// size, the whole table is copied and thinned down rather than sampled.
const randomSubStrategyMul = 3

// rnd is a uniform integer in [0, n).
func rnd(n int) int { return rand.IntN(n) }

// splitScratch gives two buffers for integers a listpack pair may hold.
func splitScratch(scratch []byte) (f, v []byte) {
	if cap(scratch) < 2*maxIntLen {
		scratch = make([]byte, 0, 2*maxIntLen)
	}
	return scratch[:0:maxIntLen], scratch[maxIntLen : maxIntLen : 2*maxIntLen]
}

// RandomPair returns a uniformly chosen field and its value of hash record rec
// (hashTypeRandomElement), ok false if it is empty. Views as Get's; a table's pick is
// dictGetRandomKey's (entries of long chains a little less likely).
func RandomPair(a *alloc.Arena, rec alloc.Handle, scratch []byte) (field, value []byte, ok bool) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		fp, vp := listpack.RandomPair(lp, rnd)
		if fp < 0 {
			return nil, nil, false
		}
		fs, vs := splitScratch(scratch)
		return lpString(lp, fp, fs), lpString(lp, vp, vs), true
	}
	t := openTable(a, root)
	h, ok := t.Random()
	if !ok {
		return nil, nil, false
	}
	field, value, _ = entryView(a, h)
	return field, value, true
}

// RandomPairs calls fn count times with a pair of hash record rec chosen uniformly, with
// repetition, in random order (HRANDFIELD with a negative count: CASE 1). The views are valid
// during the call; fn must not change the hash.
func RandomPairs(a *alloc.Arena, rec alloc.Handle, count int, scratch []byte, fn func(field, value []byte)) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		fields := lpFieldOffsets(lp)
		if len(fields) == 0 {
			return
		}
		fs, vs := splitScratch(scratch)
		for range count {
			fp := fields[rnd(len(fields))]
			fn(lpString(lp, fp, fs), lpString(lp, listpack.Next(lp, fp), vs))
		}
		return
	}
	t := openTable(a, root)
	for range count {
		h, ok := t.Random()
		if !ok {
			return
		}
		f, v, _ := entryView(a, h)
		fn(f, v)
	}
}

// lpFieldOffsets returns the offsets of lp's fields (every other entry).
func lpFieldOffsets(lp []byte) []int {
	offs := make([]int, 0, listpack.Len(lp)/2)
	for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, listpack.Next(lp, p)) {
		offs = append(offs, p)
	}
	return offs
}

// RandomPairsUnique calls fn with min(count, Len) distinct pairs of hash record rec
// (HRANDFIELD with a positive count), choosing as Redis 7.2 does: the whole hash when count
// reaches its size (CASE 2); a listpack by selection sampling, in its order (CASE 2.5); a table
// copied and thinned by random removals when count × 3 exceeds its size (CASE 3); else random
// picks until count distinct ones (CASE 4). The views are valid during the call; fn must not
// change the hash.
func RandomPairsUnique(a *alloc.Arena, rec alloc.Handle, count int, scratch []byte, fn func(field, value []byte)) {
	size := Len(a, rec)
	if count <= 0 || size == 0 {
		return
	}
	if count >= size {
		Each(a, rec, scratch, func(f, v []byte) bool { fn(f, v); return true })
		return
	}
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		fs, vs := splitScratch(scratch)
		listpack.RandomPairsUnique(lp, count, rnd, func(fp, vp int) {
			fn(lpString(lp, fp, fs), lpString(lp, vp, vs))
		})
		return
	}
	t := openTable(a, root)
	if count*randomSubStrategyMul > size {
		all := make([]alloc.Handle, 0, size)
		t.Each(func(h alloc.Handle) { all = append(all, h) })
		for len(all) > count {
			i := rnd(len(all))
			all[i] = all[len(all)-1]
			all = all[:len(all)-1]
		}
		for _, h := range all {
			f, v, _ := entryView(a, h)
			fn(f, v)
		}
		return
	}
	seen := make(map[alloc.Handle]struct{}, count)
	for len(seen) < count {
		h, _ := t.Random()
		if _, dup := seen[h]; dup {
			continue
		}
		seen[h] = struct{}{}
		f, v, _ := entryView(a, h)
		fn(f, v)
	}
}
