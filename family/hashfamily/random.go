package hashfamily

import (
	"math"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/replyerr"
)

// hrandfieldCommand: HRANDFIELD key [count [WITHVALUES]] — Redis 7.2's hrandfieldCommand.
// Without a count: one field, or a null. With one: the count is checked (an integer within
// ±LONG_MAX, within ±LONG_MAX/2 with WITHVALUES) before the key is looked up.
func hrandfieldCommand(ctx *command.Ctx) {
	args := ctx.Args
	if args.Len() >= 3 {
		count, ok := conv.String2ll(args.Arg(2))
		switch {
		case !ok:
			ctx.W.Error(replyerr.NotInteger.Error())
			return
		case count == math.MinInt64:
			ctx.W.Error(errCountRange.Error())
			return
		case args.Len() > 4 || (args.Len() == 4 && !conv.EqFold(args.Arg(3), "withvalues")):
			ctx.W.Error(replyerr.Syntax.Error())
			return
		case args.Len() == 4 && (count < -math.MaxInt64/2 || count > math.MaxInt64/2):
			ctx.W.Error(errOutOfRange.Error())
			return
		}
		hrandfieldWithCount(ctx, count, args.Len() == 4)
		return
	}
	key := args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !found:
		ctx.W.Null()
	default:
		f, _, _ := hashval.RandomPair(sh.Arena(), rec, ctx.Scratch[:0])
		ctx.W.Bulk(f)
	}
}

// hrandfieldWithCount is hrandfieldWithCountCommand: a negative count picks with repetition,
// in random order (as does a count of 1); a positive one picks distinct fields, at most the
// hash's size. WITHVALUES pairs each field with its value: flat in RESP2, a two-element array
// per pair in RESP3.
func hrandfieldWithCount(ctx *command.Ctx, count int64, withValues bool) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if !found || count == 0 {
		ctx.W.Array(0)
		return
	}
	a := sh.Arena()
	resp3 := ctx.W.Proto() == 3
	emit := func(f, v []byte) {
		if withValues && resp3 {
			ctx.W.Array(2)
		}
		ctx.W.Bulk(f)
		if withValues {
			ctx.W.Bulk(v)
		}
	}
	header := func(n int) {
		if withValues && !resp3 {
			n *= 2
		}
		ctx.W.Array(n)
	}
	if count < 0 || count == 1 {
		n := int(count)
		if count < 0 {
			n = int(-count)
		}
		header(n)
		hashval.RandomPairs(a, rec, n, ctx.Scratch[:0], emit)
		return
	}
	n := int(min(count, int64(hashval.Len(a, rec))))
	header(n)
	hashval.RandomPairsUnique(a, rec, n, ctx.Scratch[:0], emit)
}
