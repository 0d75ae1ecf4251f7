package listfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/replyerr"
)

// lpushCommand: LPUSH key element [element ...] — the list's length after the pushes.
func lpushCommand(ctx *command.Ctx) { pushGenericCommand(ctx, false, false) }

// rpushCommand: RPUSH key element [element ...].
func rpushCommand(ctx *command.Ctx) { pushGenericCommand(ctx, true, false) }

// lpushxCommand: LPUSHX key element [element ...] — 0 for a missing key, which stays missing.
func lpushxCommand(ctx *command.Ctx) { pushGenericCommand(ctx, false, true) }

// rpushxCommand: RPUSHX key element [element ...].
func rpushxCommand(ctx *command.Ctx) { pushGenericCommand(ctx, true, true) }

// pushGenericCommand is LPUSH/RPUSH (xx: only onto an existing list): the conversion is
// checked once for all the elements, then each is pushed in order; `lpush` or `rpush` once.
func pushGenericCommand(ctx *command.Ctx, tail, xx bool) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if !found {
		if xx {
			ctx.W.Int(0)
			return
		}
		if rec, err = create(ctx, sh, key); err != nil {
			ctx.W.Error(replyError(err))
			return
		}
	}
	n, err := opPush(ctx, sh, key, rec, tail)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.W.Int(int64(n))
}

// opPush pushes the arguments from index 2 on into key's list rec and returns its length.
func opPush(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, tail bool) (int, error) {
	a := sh.Arena()
	n := ctx.Args.Len()
	total := 0
	for i := 2; i < n; i++ {
		total += len(ctx.Args.Arg(i))
	}
	event := "lpush"
	if tail {
		event = "rpush"
	}
	length, pushed, err := listval.PushAll(a, rec, n-2, total, func(i int) []byte { return ctx.Args.Arg(2 + i) }, tail)
	endPush(ctx, sh, key, rec, pushed > 0, event)
	if err != nil {
		return 0, err
	}
	return length, nil
}

// linsertCommand: LINSERT key BEFORE|AFTER pivot element — the length after the insert, -1
// when no element equals pivot, 0 for a missing key.
func linsertCommand(ctx *command.Ctx) {
	var after bool
	switch w := ctx.Args.Arg(2); {
	case conv.EqFold(w, "after"):
		after = true
	case conv.EqFold(w, "before"):
	default:
		ctx.W.Error(replyerr.Syntax.Error())
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
	a := sh.Arena()
	inserted, err := listval.InsertPivot(a, rec, ctx.Args.Arg(3), ctx.Args.Arg(4), after)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	if !inserted {
		ctx.W.Int(-1)
		return
	}
	sh.UpdateLocked(ctx.DB, key, rec, rec)
	ctx.Notify(keyspace.NotifyList, "linsert", key)
	ctx.W.Int(int64(listval.Len(a, rec)))
}

// lsetCommand: LSET key index element — OK; `ERR no such key` for a missing key (before the
// index is read), `ERR index out of range`.
func lsetCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
		ctx.W.Error(replyerr.NoSuchKey.Error())
		return
	}
	index, ok := parseLong(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	replaced, err := listval.Set(sh.Arena(), rec, clampIndex(index), ctx.Args.Arg(3))
	switch {
	case err != nil:
		ctx.W.Error(replyError(err))
	case !replaced:
		ctx.W.Error(errIndexRange.Error())
	default:
		sh.UpdateLocked(ctx.DB, key, rec, rec)
		ctx.Notify(keyspace.NotifyList, "lset", key)
		ctx.W.OK()
	}
}

// clampIndex makes a 64-bit index an int that is out of range whenever the index is (no list
// has 2^62 elements).
func clampIndex(i int64) int {
	const lim = 1 << 62
	return int(min(max(i, -lim), lim))
}
