// Package txfamily is the transactions family: MULTI, EXEC, DISCARD, WATCH and UNWATCH. The
// command pipeline does the queuing and runs EXEC (command/multi.go), because EXEC locks the
// union of its commands' shards and runs their handlers; the handlers here start and end the
// transaction state (command.Tx) and answer what Redis answers outside a transaction.
package txfamily

import (
	"github.com/kvserver/kvserver/command"
)

// Commands returns the family's rows, fresh on each call.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "multi", Handler: multiCommand},
		{Name: "exec", Locking: command.LockNone, Handler: execCommand},
		{Name: "discard", Locking: command.LockNone, Handler: discardCommand},
		{Name: "watch", Handler: watchCommand}, // its keys' shards: WATCH looks at the keys
		{Name: "unwatch", Locking: command.LockNone, Handler: unwatchCommand},
	}
}

// multiCommand: MULTI — the commands that follow are queued until EXEC. (MULTI inside MULTI
// never reaches here: the pipeline refuses it.)
func multiCommand(ctx *command.Ctx) {
	command.TxOf(ctx).Begin()
	ctx.W.OK()
}

// execCommand: EXEC outside MULTI (inside, the pipeline runs the transaction).
func execCommand(ctx *command.Ctx) {
	ctx.W.Error(command.ErrExecWithoutMulti.Error())
}

// discardCommand: DISCARD — the queue is dropped and the keys unwatched.
func discardCommand(ctx *command.Ctx) {
	if !ctx.Tx.InMulti() {
		ctx.W.Error(command.ErrDiscardWithoutMulti.Error())
		return
	}
	ctx.Tx.Discard(ctx.KS)
	ctx.W.OK()
}

// watchCommand: WATCH key [key …] — EXEC fails if any of them changes before it. The pipeline
// holds the keys' shards, so no write slips between the look at a key and its registration.
func watchCommand(ctx *command.Ctx) {
	tx := command.TxOf(ctx)
	for i := 1; i < ctx.Args.Len(); i++ {
		key := ctx.Args.Arg(i)
		tx.WatchLocked(ctx.Shard(key), ctx.DB, key)
	}
	ctx.W.OK()
}

// unwatchCommand: UNWATCH — forget the watched keys.
func unwatchCommand(ctx *command.Ctx) {
	if ctx.Tx != nil {
		ctx.Tx.Unwatch(ctx.KS)
	}
	ctx.W.OK()
}
