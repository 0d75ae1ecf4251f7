package listfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/replyerr"
)

// lremCommand: LREM key count element — how many were removed: count > 0 the first count
// from the head, < 0 from the tail, 0 all. `lrem`, then `del` when the list is emptied.
func lremCommand(ctx *command.Ctx) {
	count, ok := parseLong(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	if count == -1<<63 {
		ctx.W.Error(errLongRange.Error())
		return
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
	removed, err := listval.Remove(sh.Arena(), rec, clampIndex(count), ctx.Args.Arg(3))
	if removed > 0 {
		ctx.Notify(keyspace.NotifyList, "lrem", key)
		endRemove(ctx, sh, key, rec)
	}
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.W.Int(int64(removed))
}

// ltrimCommand: LTRIM key start stop — OK; keeps the elements from start to stop inclusive.
// `ltrim` is raised even when nothing was removed (as Redis does), then `del` when the list
// is emptied.
func ltrimCommand(ctx *command.Ctx) {
	start, ok1 := parseLong(ctx.Args.Arg(2))
	end, ok2 := parseLong(ctx.Args.Arg(3))
	if !ok1 || !ok2 {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
		ctx.W.OK()
		return
	}
	_, err = listval.Trim(sh.Arena(), rec, clampIndex(start), clampIndex(end))
	ctx.Notify(keyspace.NotifyList, "ltrim", key)
	endRemove(ctx, sh, key, rec)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.W.OK()
}
