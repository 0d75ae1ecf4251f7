package zsetval

import (
	"math/rand/v2"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// Random picks for ZRANDMEMBER, with Redis 7.2's selection rules (t_zset.c,
// zrandmemberWithCountCommand). The bookkeeping of a pick is Go memory of the one command,
// freed when it returns; the set holds none.

// randomSubStrategyMul is ZRANDMEMBER_SUB_STRATEGY_MUL: when count × 3 exceeds the size, the
// whole set is copied and thinned down rather than sampled.
const randomSubStrategyMul = 3

// randomSampleLimit is ZRANDMEMBER_RANDOM_SAMPLE_LIMIT: a listpack's picks with repetition
// are drawn in batches of at most this many (one walk of the listpack each).
const randomSampleLimit = 1000

// rnd is a uniform integer in [0, n).
func rnd(n int) int { return rand.IntN(n) }

// RandomMember returns a uniformly chosen member of sorted-set record rec and its score
// (ZRANDMEMBER without a count); nil for an empty set. Views as Each's.
func RandomMember(a *alloc.Arena, rec alloc.Handle, scratch []byte) (member []byte, score float64) {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		return z.random()
	}
	lp := listpack.FromHandle(root).Bytes(a)
	mp, sp := listpack.RandomPair(lp, rnd)
	if mp < 0 {
		return nil, 0
	}
	return lpMember(lp, mp, scratchOf(scratch)), lpScore(lp, sp)
}

// RandomMembers calls fn with members of sorted-set record rec chosen as ZRANDMEMBER with a
// count does: count < 0 picks |count| members with repetition (a listpack's in batches, each in
// listpack order; a skiplist's one by one); count >= Len gives the whole set in score order;
// a smaller positive count gives that many distinct members (a listpack's in listpack order by
// selection sampling; a skiplist's by removing random members from a copy when count × 3 > Len,
// else by drawing until count distinct members are found). Views as Each's.
func RandomMembers(a *alloc.Arena, rec alloc.Handle, count int64, scratch []byte, fn func(member []byte, score float64)) {
	if count == 0 {
		return
	}
	enc, root := object.Root(a, rec)
	size := int64(Len(a, rec))
	if size == 0 {
		return
	}
	if enc != object.EncListpack {
		z := openSkiplist(a, root)
		z.randomMembers(count, fn)
		return
	}
	lp := listpack.FromHandle(root).Bytes(a)
	scratch = scratchOf(scratch)
	emit := func(mp, sp int) { fn(lpMember(lp, mp, scratch), lpScore(lp, sp)) }
	if count < 0 || count == 1 {
		n := count
		if n < 0 {
			n = -n
		}
		for n > 0 {
			batch := min(n, randomSampleLimit)
			n -= batch
			listpack.RandomPairs(lp, int(batch), rnd, emit)
		}
		return
	}
	if count >= size {
		eachListpack(lp, scratch, func(m []byte, s float64) bool {
			fn(m, s)
			return true
		})
		return
	}
	listpack.RandomPairsUnique(lp, int(count), rnd, emit)
}
