package zsetfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/zsetval"
)

// zaddCommand: ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...] — how
// many members were added (with CH: added or updated); with INCR the member's new score, or
// a null when a flag stopped the change.
func zaddCommand(ctx *command.Ctx) { zaddGeneric(ctx, false) }

// zincrbyCommand: ZINCRBY key increment member — the member's new score.
func zincrbyCommand(ctx *command.Ctx) { zaddGeneric(ctx, true) }

// zaddGeneric is zaddGenericCommand: the options, every score (so that a bad one changes
// nothing), the key (XX on a missing key does nothing; a new key is made for the pairs, as
// zsetTypeCreate sizes it, and raises `new`; an existing listpack is converted first when the
// pairs would not fit, zsetTypeMaybeConvert), then one zsetAdd per pair. A NaN result stops
// at that pair with its error, keeping what the pairs before it did. The event is `zadd`, or
// `zincr` with INCR, when something was added or updated.
func zaddGeneric(ctx *command.Ctx, incr bool) {
	o, err := parseZaddOptions(ctx.Args, incr)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	var room [8]float64
	scores, maxLen, err := parseScores(ctx.Args, o, room[:0])
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	a := sh.Arena()
	if !found {
		if o.xx {
			zaddReply(ctx, o, 0, 0, 0, 0)
			return
		}
		if rec, err = zsetval.New(a, key, o.pairs, maxLen, 0); err == nil {
			if err = sh.InsertLocked(ctx.DB, key, rec); err != nil {
				object.Free(a, rec)
			}
		}
		if err != nil {
			ctx.W.Error(replyError(err))
			return
		}
		ctx.NotifyNew(key)
	} else if err := zsetval.MaybeConvert(a, rec, o.pairs, maxLen); err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	flags := o.flags()
	var added, updated, processed int
	var score float64
	var failed error
	for j := 0; j < o.pairs; j++ {
		newScore, res, err := zsetval.Add(a, rec, ctx.Args.Arg(o.scoreIdx+2*j+1), scores[j], flags)
		if err != nil {
			failed = replyerr.Error(replyError(err))
			break
		}
		switch res {
		case zsetval.AddNaN:
			failed = errNaN
		case zsetval.AddAdded:
			added++
		case zsetval.AddUpdated:
			updated++
		}
		if failed != nil {
			break
		}
		if res != zsetval.AddNop {
			processed++
		}
		score = newScore
	}
	if failed != nil {
		ctx.W.Error(failed.Error())
	} else {
		zaddReply(ctx, o, added, updated, processed, score)
	}
	switch {
	case added > 0 || updated > 0:
		sh.UpdateLocked(ctx.DB, key, rec, rec)
		event := "zadd"
		if o.incr {
			event = "zincr"
		}
		ctx.Notify(keyspace.NotifyZset, event, key)
	case zsetval.Len(a, rec) == 0:
		sh.DeleteLocked(ctx.DB, key) // made for pairs that then failed
	}
}

// zaddReply answers ZADD or ZINCRBY: with INCR the score, or a null when nothing was
// processed; else the count (added, or added and updated with CH).
func zaddReply(ctx *command.Ctx, o zaddOptions, added, updated, processed int, score float64) {
	switch {
	case o.incr && processed > 0:
		ctx.W.Double(score)
	case o.incr:
		ctx.W.Null()
	case o.ch:
		ctx.W.Int(int64(added + updated))
	default:
		ctx.W.Int(int64(added))
	}
}

// zremCommand: ZREM key member [member ...] — how many were removed; the key goes with its
// last member (`zrem`, then `del`).
func zremCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
		ctx.W.Int(0)
		return
	}
	a := sh.Arena()
	deleted := 0
	for j := 2; j < ctx.Args.Len(); j++ {
		if zsetval.Remove(a, rec, ctx.Args.Arg(j)) {
			deleted++
			if zsetval.Len(a, rec) == 0 {
				break
			}
		}
	}
	if deleted > 0 {
		endRemove(ctx, sh, key, rec, "zrem")
	}
	ctx.W.Int(int64(deleted))
}

// zremrangebyrankCommand: ZREMRANGEBYRANK key start stop — how many were removed.
func zremrangebyrankCommand(ctx *command.Ctx) { zremrangeGeneric(ctx, rangeRank) }

// zremrangebyscoreCommand: ZREMRANGEBYSCORE key min max.
func zremrangebyscoreCommand(ctx *command.Ctx) { zremrangeGeneric(ctx, rangeScore) }

// zremrangebylexCommand: ZREMRANGEBYLEX key min max.
func zremrangebylexCommand(ctx *command.Ctx) { zremrangeGeneric(ctx, rangeLex) }

// zremrangeGeneric is zremrangeGenericCommand: the range is parsed before the key is looked
// up; a rank range is normalised against the set's length (an empty one removes nothing).
// The event names the command; the key goes with its last member.
func zremrangeGeneric(ctx *command.Ctx, kind rangeKind) {
	var start, end int64
	var sr zsetval.ScoreRange
	var lr zsetval.LexRange
	var ok bool
	var event string
	minArg, maxArg := ctx.Args.Arg(2), ctx.Args.Arg(3)
	switch kind {
	case rangeRank:
		event = "zremrangebyrank"
		start, ok = conv.String2ll(minArg)
		if ok {
			end, ok = conv.String2ll(maxArg)
		}
		if !ok {
			ctx.W.Error(replyerr.NotInteger.Error())
			return
		}
	case rangeScore:
		event = "zremrangebyscore"
		if sr, ok = zsetval.ParseScoreRange(minArg, maxArg); !ok {
			ctx.W.Error(errMinMaxFloat.Error())
			return
		}
	default:
		event = "zremrangebylex"
		if lr, ok = zsetval.ParseLexRange(minArg, maxArg); !ok {
			ctx.W.Error(errMinMaxLex.Error())
			return
		}
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
		ctx.W.Int(0)
		return
	}
	a := sh.Arena()
	var deleted int
	switch kind {
	case rangeRank:
		s, e, ok := normalizeRanks(start, end, zsetval.Len(a, rec))
		if !ok {
			ctx.W.Int(0)
			return
		}
		deleted = zsetval.RemoveRangeByRank(a, rec, s, e)
	case rangeScore:
		deleted = zsetval.RemoveRangeByScore(a, rec, sr)
	default:
		deleted = zsetval.RemoveRangeByLex(a, rec, lr)
	}
	if deleted > 0 {
		endRemove(ctx, sh, key, rec, event)
	}
	ctx.W.Int(int64(deleted))
}
