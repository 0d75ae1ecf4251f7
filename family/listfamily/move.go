package listfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// lmoveCommand: LMOVE source destination LEFT|RIGHT LEFT|RIGHT — the element moved (null for
// a missing source). source == destination rotates.
func lmoveCommand(ctx *command.Ctx) {
	from, ok1 := parseWhere(ctx.Args.Arg(3))
	to, ok2 := parseWhere(ctx.Args.Arg(4))
	if !ok1 || !ok2 {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	lmoveGeneric(ctx, from, to)
}

// rpoplpushCommand: RPOPLPUSH source destination — LMOVE source destination RIGHT LEFT.
func rpoplpushCommand(ctx *command.Ctx) { lmoveGeneric(ctx, true, false) }

// blmoveCommand: BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout — LMOVE, or blocks
// until source holds a list (a null array when the time runs out, as every list command in
// Redis 7.2; a null bulk at once where it cannot block, inside MULTI).
func blmoveCommand(ctx *command.Ctx) {
	from, ok1 := parseWhere(ctx.Args.Arg(3))
	to, ok2 := parseWhere(ctx.Args.Arg(4))
	if !ok1 || !ok2 {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	blmoveGeneric(ctx, from, to, 5)
}

// brpoplpushCommand: BRPOPLPUSH source destination timeout.
func brpoplpushCommand(ctx *command.Ctx) { blmoveGeneric(ctx, true, false, 3) }

// blmoveGeneric is blmoveGenericCommand: the timeout, then source's type; a missing source
// blocks on it, else LMOVE runs.
func blmoveGeneric(ctx *command.Ctx, from, to bool, timeoutIdx int) {
	deadline, errText := command.ParseTimeout(ctx.Args.Arg(timeoutIdx))
	if errText != "" {
		ctx.W.Error(errText)
		return
	}
	src := ctx.Args.Arg(1)
	sh := ctx.Shard(src)
	rec, found, err := lookupWrite(ctx, sh, src)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !found || listval.Len(sh.Arena(), rec) == 0:
		ctx.Block(object.TypeList, deadline, command.TimeoutNullBulk, src)
	default:
		lmoveGeneric(ctx, from, to)
	}
}

// lmoveGeneric is lmoveGenericCommand: the source's element popped (from its tail when from),
// pushed onto the destination (made in its own shard's arena if missing; at its tail when
// to), answered; then `lpush`/`rpush` on the destination, `lpop`/`rpop` on the source and
// `del` when the source is emptied. The destination's type is checked only once the source
// is known to have elements, as in Redis.
func lmoveGeneric(ctx *command.Ctx, from, to bool) {
	srcKey, dstKey := ctx.Args.Arg(1), ctx.Args.Arg(2)
	srcSh := ctx.Shard(srcKey)
	src, found, err := lookupWrite(ctx, srcSh, srcKey)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found || listval.Len(srcSh.Arena(), src) == 0:
		ctx.W.Null()
		return
	}
	dstSh := ctx.Shard(dstKey)
	dst, dstFound, err := lookupWrite(ctx, dstSh, dstKey)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	srcA := srcSh.Arena()
	// The element is copied out: the push may move or change the arena bytes it was in.
	var value []byte
	if _, err := listval.PopKeep(srcA, src, from, 1, ctx.Scratch[:0], func(elem []byte) {
		value = append([]byte(nil), elem...)
	}); err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	if err := lmovePush(ctx, dstSh, dstKey, dst, dstFound, value, to); err != nil {
		ctx.W.Error(replyError(err))
		// Put the element back where it came from; failing that it is lost, as a pop.
		if listval.Push(srcA, src, value, from) != nil {
			elementsRemoved(ctx, srcSh, srcKey, src, from)
		}
		return
	}
	ctx.W.Bulk(value)
	listval.Shrink(srcA, src)
	elementsRemoved(ctx, srcSh, srcKey, src, from)
}

// lmovePush is lmoveHandlePush without the reply: value pushed onto dstKey's list (made if
// missing), the keyspace told, `lpush` or `rpush` raised.
func lmovePush(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, found bool, value []byte, tail bool) error {
	if !found {
		var err error
		if rec, err = create(ctx, sh, key); err != nil {
			return err
		}
	}
	var err error
	if tail {
		err = listval.PushTail(sh.Arena(), rec, value)
	} else {
		err = listval.PushHead(sh.Arena(), rec, value)
	}
	if err != nil {
		if !found {
			sh.DeleteLocked(ctx.DB, key) // made for this push: gone again
		}
		return err
	}
	event := "lpush"
	if tail {
		event = "rpush"
	}
	sh.UpdateLocked(ctx.DB, key, rec, rec)
	ctx.Notify(keyspace.NotifyList, event, key)
	return nil
}
