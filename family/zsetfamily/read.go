package zsetfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/zsetval"
)

// zcardCommand: ZCARD key — the number of members, 0 for a missing key.
func zcardCommand(ctx *command.Ctx) {
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeZSet, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return int64(zsetval.Len(a, rec))
	})
}

// zcountCommand: ZCOUNT key min max — the members with a score in the range; the range is
// checked before the key.
func zcountCommand(ctx *command.Ctx) {
	r, ok := zsetval.ParseScoreRange(ctx.Args.Arg(2), ctx.Args.Arg(3))
	if !ok {
		ctx.W.Error(errMinMaxFloat.Error())
		return
	}
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeZSet, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return int64(zsetval.CountByScore(a, rec, r))
	})
}

// zlexcountCommand: ZLEXCOUNT key min max — the members in the lex range.
func zlexcountCommand(ctx *command.Ctx) {
	r, ok := zsetval.ParseLexRange(ctx.Args.Arg(2), ctx.Args.Arg(3))
	if !ok {
		ctx.W.Error(errMinMaxLex.Error())
		return
	}
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeZSet, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return int64(zsetval.CountByLex(a, rec, r))
	})
}

// zscoreCommand: ZSCORE key member — the score (a double in RESP3), or a null.
func zscoreCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
		ctx.W.Null()
		return
	}
	if s, ok := zsetval.Score(sh.Arena(), rec, ctx.Args.Arg(2)); ok {
		ctx.W.Double(s)
	} else {
		ctx.W.Null()
	}
}

// zmscoreCommand: ZMSCORE key member [member ...] — a score or a null for each; a missing
// key is an empty set.
func zmscoreCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Array(ctx.Args.Len() - 2)
	for j := 2; j < ctx.Args.Len(); j++ {
		if !found {
			ctx.W.Null()
			continue
		}
		if s, ok := zsetval.Score(sh.Arena(), rec, ctx.Args.Arg(j)); ok {
			ctx.W.Double(s)
		} else {
			ctx.W.Null()
		}
	}
}

// zrankCommand: ZRANK key member [WITHSCORE] — the member's rank from the lowest score, or a
// null; with WITHSCORE [rank, score], or a null array (Redis 7.2).
func zrankCommand(ctx *command.Ctx) { zrankGeneric(ctx, false) }

// zrevrankCommand: ZREVRANK key member [WITHSCORE] — the rank from the highest score.
func zrevrankCommand(ctx *command.Ctx) { zrankGeneric(ctx, true) }

// zrankGeneric is zrankGenericCommand: more than one option is an arity error, an option but
// WITHSCORE a syntax error, both before the key.
func zrankGeneric(ctx *command.Ctx, reverse bool) {
	if ctx.Args.Len() > 4 {
		ctx.W.Error(replyerr.WrongArgs(ctx.Cmd.FullName).Error())
		return
	}
	withScore := false
	if ctx.Args.Len() == 4 {
		if !conv.EqFold(ctx.Args.Arg(3), "withscore") {
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
		withScore = true
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	var rank int
	var score float64
	if found {
		rank, score, found = zsetval.Rank(sh.Arena(), rec, ctx.Args.Arg(2), reverse)
	}
	switch {
	case !found && withScore:
		ctx.W.NullArray()
	case !found:
		ctx.W.Null()
	case withScore:
		ctx.W.Array(2)
		ctx.W.Int(int64(rank))
		ctx.W.Double(score)
	default:
		ctx.W.Int(int64(rank))
	}
}
