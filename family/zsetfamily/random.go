package zsetfamily

import (
	"math"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/zsetval"
)

// zrandmemberCommand: ZRANDMEMBER key [count [WITHSCORES]] — a random member (a null for a
// missing key); with a count an array: distinct members for a positive count, with
// repetition for a negative one, and with WITHSCORES their scores (flat pairs in RESP2,
// [member, score] arrays in RESP3). The count and the options are checked before the key.
func zrandmemberCommand(ctx *command.Ctx) {
	argc := ctx.Args.Len()
	if argc == 2 {
		key := ctx.Args.Arg(1)
		sh := ctx.Shard(key)
		rec, found, err := lookupRead(ctx, sh, key)
		switch {
		case err != nil:
			ctx.W.Error(err.Error())
		case !found:
			ctx.W.Null()
		default:
			m, _ := zsetval.RandomMember(sh.Arena(), rec, ctx.Scratch[:0])
			ctx.W.Bulk(m)
		}
		return
	}
	// getRangeLongFromObjectOrReply(-LONG_MAX, LONG_MAX).
	l, ok := conv.String2ll(ctx.Args.Arg(2))
	switch {
	case !ok:
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	case l == math.MinInt64:
		ctx.W.Error(errLongRange.Error())
		return
	case argc > 4 || argc == 4 && !conv.EqFold(ctx.Args.Arg(3), "withscores"):
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	withScores := argc == 4
	// With scores the reply holds twice as many elements: Redis bounds the count by half.
	if withScores && (l < -math.MaxInt64/2 || l > math.MaxInt64/2) {
		ctx.W.Error(errOutOfRange.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found || l == 0:
		ctx.W.Array(0)
		return
	}
	a := sh.Arena()
	n := l
	if l < 0 {
		n = -l
	} else {
		n = min(l, int64(zsetval.Len(a, rec)))
	}
	resp3 := ctx.W.Proto() == 3
	if withScores && !resp3 {
		n *= 2
	}
	w := ctx.W
	w.Array(int(n))
	emit := func(member []byte, score float64) bool {
		if withScores && resp3 {
			w.Array(2)
		}
		w.Bulk(member)
		if withScores {
			w.Double(score)
		}
		return true
	}
	if size := zsetval.Len(a, rec); l >= int64(size) {
		// CASE 2 of zrandmemberWithCountCommand: the whole set, in the order Redis's set
		// iterator walks it (zuiNext: from the highest score down).
		zsetval.RangeByRank(a, rec, 0, size-1, true, ctx.Scratch[:0], emit)
		return
	}
	zsetval.RandomMembers(a, rec, l, ctx.Scratch[:0], func(member []byte, score float64) { emit(member, score) })
}
