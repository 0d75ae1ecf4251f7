package serverfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
)

// timeCommand: TIME — the server's clock as seconds and microseconds.
func (f family) timeCommand(ctx *command.Ctx) {
	now := f.h.Now()
	ctx.W.Array(2)
	ctx.W.BulkInt(now.Unix())
	ctx.W.BulkInt(int64(now.Nanosecond() / 1000))
}

// functionFlushCommand: FUNCTION FLUSH [ASYNC|SYNC] — there are no functions to flush.
func functionFlushCommand(ctx *command.Ctx) {
	flushScripts(ctx, "ERR FUNCTION FLUSH only supports SYNC|ASYNC option")
}

// flushScripts checks FLUSH's one optional argument, with the command's own error text.
func flushScripts(ctx *command.Ctx, badOption string) {
	switch args := ctx.Args; {
	case args.Len() > 3:
		command.ReplySubcommandSyntaxError(ctx.W, args)
	case args.Len() == 3 && !conv.EqFold(args.Arg(2), "sync") && !conv.EqFold(args.Arg(2), "async"):
		ctx.W.Error(badOption)
	default:
		ctx.W.OK()
	}
}
