package scriptfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/scripting"
)

// Errors of EVAL and EVALSHA, Redis's words.
const (
	errNoScript replyerr.Error = "NOSCRIPT No matching script. Please use EVAL."
	errROWrite  replyerr.Error = "ERR Can not execute a script with write flag using *_ro command."
)

// evalCommand: EVAL script numkeys [key ...] [arg ...].
func (f *Family) evalCommand(ctx *command.Ctx) { f.evalGenericCommand(ctx, false, false) }

// evalShaCommand: EVALSHA sha1 numkeys [key ...] [arg ...].
func (f *Family) evalShaCommand(ctx *command.Ctx) { f.evalGenericCommand(ctx, true, false) }

// evalRoCommand: EVAL_RO script numkeys [key ...] [arg ...] — write commands are refused.
func (f *Family) evalRoCommand(ctx *command.Ctx) { f.evalGenericCommand(ctx, false, true) }

// evalShaRoCommand: EVALSHA_RO sha1 numkeys [key ...] [arg ...].
func (f *Family) evalShaRoCommand(ctx *command.Ctx) { f.evalGenericCommand(ctx, true, true) }

// evalShards is the Shards of the EVAL rows: its declared keys' shards for a vetted script
// (found by its SHA: EVALSHA's argument, or the body's SHA1 for EVAL), else every shard
// (vettedSet).
func (f *Family) evalShards(bySHA bool) func(ctx *command.Ctx, dst []int) []int {
	return func(ctx *command.Ctx, dst []int) []int {
		var vetted bool
		if bySHA {
			vetted = f.vettedScripts.has(ctx.Args.Arg(1))
		} else {
			vetted = f.vettedScripts.has([]byte(scripting.SHA1Hex(ctx.Args.Arg(1))))
		}
		return scriptShards(ctx, dst, !vetted)
	}
}

// evalGenericCommand is Redis's evalGenericCommand: numkeys, the script (compiled and cached
// from EVAL's body, or found by EVALSHA's SHA1), the checks of its shebang flags, the run.
func (f *Family) evalGenericCommand(ctx *command.Ctx, bySHA, ro bool) {
	keys, argv, ok := KeysArgs(ctx)
	if !ok {
		return
	}
	var s *scripting.Script
	if bySHA {
		if s = f.Engine.Lookup(ctx.Args.Arg(1)); s == nil {
			ctx.W.Error(errNoScript.Error())
			return
		}
	} else {
		var err error
		if s, err = f.Engine.Load(ctx.Args.Arg(1)); err != nil {
			ctx.W.Error(err.Error())
			return
		}
	}
	o, refuseOOM, errText := scriptOptions(s.Flags, s.Shebang, ro)
	if errText != "" {
		ctx.W.Error(errText)
		return
	}
	o.Name = s.SHA
	undeclared := f.run(ctx, keys, argv, o, refuseOOM, func(c scripting.Caller, opts scripting.RunOpts) {
		f.Engine.Run(s, c, opts, ctx.W)
	})
	f.vettedScripts.note(s.SHA, undeclared)
}

// scriptOptions derives a run's options from a script's flags, as Redis's scriptPrepareForRun
// and evalGetCommandFlags: a script without a shebang (legacy mode) may write, and is refused
// OOM only at its first denyoom command; with one, no-writes makes the run read-only (and
// allows OOM), a script that may write is refused by the _RO commands and, without
// allow-oom, over maxmemory before it starts.
func scriptOptions(flags scripting.ScriptFlags, shebang, ro bool) (o command.ScriptOptions, refuseOOM bool, errText string) {
	o.ReadOnly = ro
	if !shebang {
		return o, false, ""
	}
	if flags&scripting.NoWrites != 0 {
		o.ReadOnly, o.AllowOOM = true, true
		return o, false, ""
	}
	if ro {
		return o, false, errROWrite.Error()
	}
	o.AllowOOM = flags&scripting.AllowOOM != 0
	return o, !o.AllowOOM, ""
}
