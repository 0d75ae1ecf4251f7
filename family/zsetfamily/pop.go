package zsetfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/zsetval"
)

// zpopminCommand: ZPOPMIN key [count] — the lowest members and their scores: a flat array
// [member, score, …], or with a count in RESP3 an array of [member, score] pairs; an empty
// array for a missing key or count 0.
func zpopminCommand(ctx *command.Ctx) { zpopMinMax(ctx, false) }

// zpopmaxCommand: ZPOPMAX key [count] — the highest members.
func zpopmaxCommand(ctx *command.Ctx) { zpopMinMax(ctx, true) }

// zpopMinMax is zpopMinMaxCommand: a second option is a syntax error; the count is
// getPositiveLongFromObjectOrReply's (its message for a non-integer too).
func zpopMinMax(ctx *command.Ctx, max bool) {
	if ctx.Args.Len() > 3 {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	count := int64(-1)
	if ctx.Args.Len() == 3 {
		c, ok := conv.String2ll(ctx.Args.Arg(2))
		if !ok || c < 0 {
			ctx.W.Error(errMustBePositive.Error())
			return
		}
		count = c
	}
	nested := ctx.W.Proto() == 3 && count != -1
	genericZpop(ctx, 1, 2, max, false, count, nested, false)
}

// genericZpop is genericZpopCommand over the keys in arguments [from, to): the first that
// exists is popped (a key of another type before it answers WRONGTYPE); count -1 is a plain
// single pop; nothing to pop answers the null array when nilEmpty (ZMPOP), else the empty one. The event is `zpopmin` or `zpopmax` once, then `del` when the set is emptied.
func genericZpop(ctx *command.Ctx, from, to int, max, emitKey bool, count int64, nested, nilEmpty bool) {
	for j := from; j < to; j++ {
		key := ctx.Args.Arg(j)
		sh := ctx.Shard(key)
		rec, found, err := lookupWrite(ctx, sh, key)
		if err != nil {
			ctx.W.Error(err.Error())
			return
		}
		if found {
			popAndReply(ctx, sh, key, rec, max, emitKey, count, nested)
			return
		}
	}
	if nilEmpty {
		ctx.W.NullArray()
	} else {
		ctx.W.Array(0)
	}
}

// popAndReply pops from key's sorted set rec and answers in Redis's shapes: emitKey puts the
// key first (BZPOPMIN, ZMPOP), nested makes each pair an array [member, score] (ZPOPMIN with
// a count in RESP3, ZMPOP).
func popAndReply(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, max, emitKey bool, count int64, nested bool) {
	if count == 0 {
		ctx.W.Array(0)
		return
	}
	if count == -1 {
		count = 1
	}
	a := sh.Arena()
	n := int(min(count, int64(zsetval.Len(a, rec))))
	w := ctx.W
	switch {
	case !nested && !emitKey: // ZPOPMIN/ZPOPMAX, flat
		w.Array(2 * n)
	case nested && !emitKey: // ZPOPMIN/ZPOPMAX with a count in RESP3
		w.Array(n)
	case !nested && emitKey: // BZPOPMIN/BZPOPMAX
		w.Array(2*n + 1)
		w.Bulk(key)
	default: // ZMPOP/BZMPOP
		w.Array(2)
		w.Bulk(key)
		w.Array(n)
	}
	zsetval.Pop(a, rec, max, n, ctx.Scratch[:0], func(member []byte, score float64) {
		if nested {
			w.Array(2)
		}
		w.Bulk(member)
		w.Double(score)
	})
	event := "zpopmin"
	if max {
		event = "zpopmax"
	}
	endRemove(ctx, sh, key, rec, event)
}

// bzpopminCommand: BZPOPMIN key [key ...] timeout — [key, member, score] from the first key
// holding a sorted set, or blocks until one does (a null array when the time runs out).
func bzpopminCommand(ctx *command.Ctx) {
	blockingGenericZpop(ctx, 1, ctx.Args.Len()-1, false, ctx.Args.Len()-1, -1, false)
}

// bzpopmaxCommand: BZPOPMAX key [key ...] timeout — the highest member.
func bzpopmaxCommand(ctx *command.Ctx) {
	blockingGenericZpop(ctx, 1, ctx.Args.Len()-1, true, ctx.Args.Len()-1, -1, false)
}

// blockingGenericZpop is blockingGenericZpopCommand: the timeout first, then the keys in
// arguments [from, to) in order — the first non-empty sorted set is popped as ZPOPMIN or ZMPOP
// would (nested: ZMPOP's shape) — else the command blocks on all of them.
func blockingGenericZpop(ctx *command.Ctx, from, to int, max bool, timeoutIdx int, count int64, nested bool) {
	deadline, errText := command.ParseTimeout(ctx.Args.Arg(timeoutIdx))
	if errText != "" {
		ctx.W.Error(errText)
		return
	}
	for j := from; j < to; j++ {
		key := ctx.Args.Arg(j)
		sh := ctx.Shard(key)
		rec, found, err := lookupWrite(ctx, sh, key)
		if err != nil {
			ctx.W.Error(err.Error())
			return
		}
		if !found || zsetval.Len(sh.Arena(), rec) == 0 {
			continue
		}
		popAndReply(ctx, sh, key, rec, max, true, count, nested)
		return
	}
	keys := make([][]byte, 0, to-from)
	for j := from; j < to; j++ {
		keys = append(keys, ctx.Args.Arg(j))
	}
	ctx.Block(object.TypeZSet, deadline, command.TimeoutNullArray, keys...)
}

// zmpopCommand: ZMPOP numkeys key [key ...] MIN|MAX [COUNT count] — [key, [[member, score],
// …]] from the first key holding a sorted set, or a null array.
func zmpopCommand(ctx *command.Ctx) { zmpopGeneric(ctx, 1, false) }

// bzmpopCommand: BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count] — ZMPOP, or blocks
// until a key holds a sorted set.
func bzmpopCommand(ctx *command.Ctx) { zmpopGeneric(ctx, 2, true) }

// zmpopGeneric is zmpopGenericCommand: numkeys, MIN|MAX, COUNT once (each error its own
// message, for a non-integer too), then — for BZMPOP — the timeout, and the pop or the block.
func zmpopGeneric(ctx *command.Ctx, numkeysIdx int, block bool) {
	argc := ctx.Args.Len()
	numkeys, ok := conv.String2ll(ctx.Args.Arg(numkeysIdx))
	if !ok || numkeys < 1 {
		ctx.W.Error(errNumkeys.Error())
		return
	}
	if numkeys >= int64(argc) || numkeysIdx+int(numkeys)+1 >= argc {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	whereIdx := numkeysIdx + int(numkeys) + 1
	var max bool
	switch where := ctx.Args.Arg(whereIdx); {
	case conv.EqFold(where, "min"):
	case conv.EqFold(where, "max"):
		max = true
	default:
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	count := int64(-1)
	for j := whereIdx + 1; j < argc; j++ {
		if count == -1 && conv.EqFold(ctx.Args.Arg(j), "count") && j+1 < argc {
			j++
			c, ok := conv.String2ll(ctx.Args.Arg(j))
			if !ok || c < 1 {
				ctx.W.Error(errCountPositive.Error())
				return
			}
			count = c
			continue
		}
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	if count == -1 {
		count = 1
	}
	if block {
		blockingGenericZpop(ctx, numkeysIdx+1, whereIdx, max, 1, count, true)
		return
	}
	genericZpop(ctx, numkeysIdx+1, whereIdx, max, true, count, true, true)
}
