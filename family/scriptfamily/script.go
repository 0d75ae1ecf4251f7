package scriptfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/replyerr"
)

// Errors of SCRIPT's subcommands: Redis's words, and kvserver's for the debugger.
const (
	errFlushOption  replyerr.Error = "ERR SCRIPT FLUSH only support SYNC|ASYNC option"
	errDebugInMulti replyerr.Error = "ERR SCRIPT DEBUG must be called outside MULTI"
	errDebugOption  replyerr.Error = "ERR Use SCRIPT DEBUG YES/SYNC/NO"
	// errNoDebugger answers SCRIPT DEBUG YES and SYNC: kvserver has no Lua debugger (LDB).
	errNoDebugger replyerr.Error = "ERR the Lua debugger (SCRIPT DEBUG YES|SYNC) is not supported by kvserver: scripts always run normally"
)

// scriptLoadCommand: SCRIPT LOAD script — compiled and cached, its SHA1 answered.
func (f *Family) scriptLoadCommand(ctx *command.Ctx) {
	s, err := f.Engine.Load(ctx.Args.Arg(2))
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.BulkString(s.SHA)
}

// scriptExistsCommand: SCRIPT EXISTS sha1 [sha1 ...] — 1 or 0 for each.
func (f *Family) scriptExistsCommand(ctx *command.Ctx) {
	ctx.W.Array(ctx.Args.Len() - 2)
	for i := 2; i < ctx.Args.Len(); i++ {
		if f.Engine.Lookup(ctx.Args.Arg(i)) != nil {
			ctx.W.Int(1)
		} else {
			ctx.W.Int(0)
		}
	}
}

// scriptFlushCommand: SCRIPT FLUSH [ASYNC|SYNC] — the script cache is emptied (at once either
// way: the cache's memory is the Go heap's, which the collector frees in the background).
func (f *Family) scriptFlushCommand(ctx *command.Ctx) {
	if n := ctx.Args.Len(); n == 3 {
		if a := ctx.Args.Arg(2); !conv.EqFold(a, "sync") && !conv.EqFold(a, "async") {
			ctx.W.Error(errFlushOption.Error())
			return
		}
	} else if n != 2 {
		ctx.W.Error(errFlushOption.Error())
		return
	}
	f.Engine.Flush()
	f.vettedScripts.reset()
	ctx.W.OK()
}

// scriptKillCommand: SCRIPT KILL — the busy EVAL script is stopped if it has not written.
func (f *Family) scriptKillCommand(ctx *command.Ctx) {
	if msg := f.Scripts.Kill(false); msg != "" {
		ctx.W.Error(msg)
		return
	}
	ctx.W.OK()
}

// scriptDebugCommand: SCRIPT DEBUG YES|SYNC|NO. kvserver has no Lua debugger: NO (the mode
// scripts always run in) answers +OK, YES and SYNC are refused.
func scriptDebugCommand(ctx *command.Ctx) {
	if ctx.Tx.InMulti() {
		ctx.W.Error(errDebugInMulti.Error())
		return
	}
	switch a := ctx.Args.Arg(2); {
	case conv.EqFold(a, "no"):
		ctx.W.OK()
	case conv.EqFold(a, "yes"), conv.EqFold(a, "sync"):
		ctx.W.Error(errNoDebugger.Error())
	default:
		ctx.W.Error(errDebugOption.Error())
	}
}

// scriptHelpLines are SCRIPT HELP's, Redis 7.2's.
var scriptHelpLines = []string{
	"DEBUG (YES|SYNC|NO)",
	"    Set the debug mode for subsequent scripts executed.",
	"EXISTS <sha1> [<sha1> ...]",
	"    Return information about the existence of the scripts in the script cache.",
	"FLUSH [ASYNC|SYNC]",
	"    Flush the Lua scripts cache. Very dangerous on replicas.",
	"    When called without the optional mode argument, the behavior is determined by the",
	"    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
	"    * ASYNC: Asynchronously flush the scripts cache.",
	"    * SYNC: Synchronously flush the scripts cache.",
	"KILL",
	"    Kill the currently executing Lua script.",
	"LOAD <script>",
	"    Load a script into the scripts cache without executing it.",
}

// scriptHelpCommand: SCRIPT HELP.
func scriptHelpCommand(ctx *command.Ctx) { command.ReplyHelp(ctx.W, "SCRIPT", scriptHelpLines) }
