package keyfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/replyerr"
)

// SWAPDB, DBSIZE, FLUSHDB and FLUSHALL: whole databases. SWAPDB and the flushes hold every
// shard (LockAll), so no command sees a database half swapped or half flushed; DBSIZE holds
// none and sums the shards' counters.

// swapdbCommand: SWAPDB index1 index2 — clients keep their selected index and so see the other
// data. Each index's errors are replaced by SWAPDB's own text, as Redis does.
func swapdbCommand(ctx *command.Ctx) {
	a, err := getIntFromObject(ctx.Args.Arg(1))
	if err != nil {
		ctx.W.Error(errFirstDB.Error())
		return
	}
	b, err := getIntFromObject(ctx.Args.Arg(2))
	if err != nil {
		ctx.W.Error(errSecondDB.Error())
		return
	}
	if err := opSwapDB(ctx, a, b); err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.OK()
}

// opSwapDB swaps databases a and b in every shard (all locked by the pipeline).
func opSwapDB(ctx *command.Ctx, a, b int) error {
	if n := ctx.KS.Databases(); a < 0 || a >= n || b < 0 || b >= n {
		return replyerr.DBIndex
	}
	if a != b {
		ctx.KS.SwapDBLocked(a, b)
	}
	return nil
}

// dbsizeCommand: DBSIZE — the keys of the client's database, expired ones not yet removed
// included, from counters read without locks.
func dbsizeCommand(ctx *command.Ctx) { ctx.W.Int(ctx.KS.Keys(ctx.DB)) }

// flushdbCommand: FLUSHDB [ASYNC|SYNC] — empties the client's database.
func flushdbCommand(ctx *command.Ctx) {
	async, err := flushOption(ctx)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if async {
		ctx.KS.FlushDBAsyncLocked(ctx.DB)
	} else {
		ctx.KS.FlushDBLocked(ctx.DB)
	}
	ctx.W.OK()
}

// flushallCommand: FLUSHALL [ASYNC|SYNC] — empties every database.
func flushallCommand(ctx *command.Ctx) {
	async, err := flushOption(ctx)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if async {
		ctx.KS.FlushAllAsyncLocked()
	} else {
		ctx.KS.FlushAllLocked()
	}
	ctx.W.OK()
}

// flushOption is Redis's getFlushCommandFlags: at most one argument, ASYNC or SYNC; without
// one, lazyfree-lazy-user-flush decides. ASYNC empties the tables at once as SYNC does, but
// leaves big hashes and sets to the cron (keyspace/lazyfree.go).
func flushOption(ctx *command.Ctx) (async bool, err error) {
	args := ctx.Args
	switch {
	case args.Len() > 2:
		return false, replyerr.Syntax
	case args.Len() == 1:
		return ctx.KS.LazyFree().UserFlush, nil
	case conv.EqFold(args.Arg(1), "async"):
		return true, nil
	case conv.EqFold(args.Arg(1), "sync"):
		return false, nil
	}
	return false, replyerr.Syntax
}
