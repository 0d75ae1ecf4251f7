package setfamily

import (
	"bytes"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/setval"
)

// smoveCommand: SMOVE source destination member — 1 when member was moved (or is already in
// a source that is its own destination), 0 when source lacks it. A missing source answers 0
// before the destination's type is checked, as in Redis. The destination may be in another
// shard: it is made in its own shard's arena.
func smoveCommand(ctx *command.Ctx) {
	srcKey, dstKey, member := ctx.Args.Arg(1), ctx.Args.Arg(2), ctx.Args.Arg(3)
	srcSh, dstSh := ctx.Shard(srcKey), ctx.Shard(dstKey)
	src, srcFound, srcErr := lookupWrite(ctx, srcSh, srcKey)
	dst, dstFound, dstErr := lookupWrite(ctx, dstSh, dstKey)
	if srcErr == nil && !srcFound {
		ctx.W.Int(0)
		return
	}
	if srcErr != nil {
		ctx.W.Error(srcErr.Error())
		return
	}
	if dstErr != nil {
		ctx.W.Error(dstErr.Error())
		return
	}
	srcA, dstA := srcSh.Arena(), dstSh.Arena()
	if bytes.Equal(srcKey, dstKey) {
		if setval.IsMember(srcA, src, member) {
			ctx.W.Int(1)
		} else {
			ctx.W.Int(0)
		}
		return
	}
	removed, err := setval.Remove(srcA, src, member)
	if err != nil || !removed {
		ctx.W.Int(0)
		return
	}
	ctx.Notify(keyspace.NotifySet, "srem", srcKey)
	if !removeIfEmpty(ctx, srcSh, srcKey, setval.Len(srcA, src)) {
		srcSh.UpdateLocked(ctx.DB, srcKey, src, src)
	}
	if !dstFound {
		if dst, err = setval.New(dstA, dstKey, member, 1, 0); err == nil {
			if err = dstSh.InsertLocked(ctx.DB, dstKey, dst); err != nil {
				object.Free(dstA, dst)
			}
		}
		if err != nil {
			ctx.W.Error(replyError(err))
			return
		}
		ctx.NotifyNew(dstKey)
	}
	added, err := setval.Add(dstA, dst, member)
	if added {
		dstSh.UpdateLocked(ctx.DB, dstKey, dst, dst)
		ctx.Notify(keyspace.NotifySet, "sadd", dstKey)
	}
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.W.Int(1)
}
