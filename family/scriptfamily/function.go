package scriptfamily

import (
	"time"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/funclib"
	"github.com/kvserver/kvserver/scripting"
)

// FUNCTION's subcommands (Redis's functions.c). The libraries are the registry's
// (funclib.Registry); none of these touches keys, so nothing is locked.

// functionCommand is the FUNCTION container's row.
func (f *Family) functionCommand() *command.Command {
	return &command.Command{Name: "function", Subcommands: []*command.Command{
		{Name: "load", Locking: command.LockNone, Handler: f.functionLoadCommand},
		{Name: "delete", Locking: command.LockNone, Handler: f.functionDeleteCommand},
		{Name: "flush", Locking: command.LockNone, Handler: f.functionFlushCommand},
		{Name: "list", Locking: command.LockNone, Handler: f.functionListCommand},
		{Name: "stats", Locking: command.LockNone, Handler: f.functionStatsCommand},
		{Name: "dump", Locking: command.LockNone, Handler: f.functionDumpCommand},
		{Name: "restore", Locking: command.LockNone, Handler: f.functionRestoreCommand},
		{Name: "kill", Locking: command.LockNone, Handler: f.functionKillCommand},
		{Name: "help", Locking: command.LockNone, Handler: functionHelpCommand},
	}}
}

// functionLoadCommand: FUNCTION LOAD [REPLACE] code — every argument before the code must be
// REPLACE (repeats allowed); the reply is the library's name.
func (f *Family) functionLoadCommand(ctx *command.Ctx) {
	f.vettedFunctions.reset() // a name may get another body
	args := ctx.Args
	replace := false
	for i := 2; i < args.Len()-1; i++ {
		if !conv.EqFold(args.Arg(i), "replace") {
			ctx.W.Error("ERR Unknown option given: " + string(args.Arg(i)))
			return
		}
		replace = true
	}
	name, err := f.Functions.Load(args.Arg(args.Len()-1), replace)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.BulkString(name)
}

// functionDeleteCommand: FUNCTION DELETE library-name.
func (f *Family) functionDeleteCommand(ctx *command.Ctx) {
	f.vettedFunctions.reset() // a name may get another body
	if err := f.Functions.Delete(string(ctx.Args.Arg(2))); err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.OK()
}

// functionFlushCommand: FUNCTION FLUSH [ASYNC|SYNC] — both flush at once (nothing is slow to
// free: the engine's states drop the libraries when next used).
func (f *Family) functionFlushCommand(ctx *command.Ctx) {
	f.vettedFunctions.reset() // a name may get another body
	switch args := ctx.Args; {
	case args.Len() > 3:
		command.ReplySubcommandSyntaxError(ctx.W, args)
		return
	case args.Len() == 3 && !conv.EqFold(args.Arg(2), "sync") && !conv.EqFold(args.Arg(2), "async"):
		ctx.W.Error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option")
		return
	}
	f.Functions.Flush()
	ctx.W.OK()
}

// functionListCommand: FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE], each option once, in
// any order. Each library is a map of library_name, engine, functions (each a map of name,
// description — null when none — and flags, a set of status replies) and, with WITHCODE,
// library_code.
func (f *Family) functionListCommand(ctx *command.Ctx) {
	args := ctx.Args
	withCode, named := false, false
	var pattern []byte
	for i := 2; i < args.Len(); i++ {
		a := args.Arg(i)
		switch {
		case !withCode && conv.EqFold(a, "withcode"):
			withCode = true
			continue
		case !named && conv.EqFold(a, "libraryname"):
			if i >= args.Len()-1 {
				ctx.W.Error("ERR library name argument was not given")
				return
			}
			i++
			pattern, named = append([]byte{}, args.Arg(i)...), true // non-nil: "" matches only ""
			continue
		}
		ctx.W.Error("ERR Unknown argument " + string(a))
		return
	}
	libs := f.Functions.List(pattern)
	w := ctx.W
	w.Array(len(libs))
	for _, lib := range libs {
		if withCode {
			w.Map(4)
		} else {
			w.Map(3)
		}
		w.BulkString("library_name")
		w.BulkString(lib.Name)
		w.BulkString("engine")
		w.BulkString(funclib.EngineName)
		w.BulkString("functions")
		w.Array(len(lib.Functions))
		for _, fn := range lib.Functions {
			writeFunctionInfo(ctx, fn)
		}
		if withCode {
			w.BulkString("library_code")
			w.Bulk(lib.Code)
		}
	}
}

// writeFunctionInfo writes one function of FUNCTION LIST: name, description, flags.
func writeFunctionInfo(ctx *command.Ctx, fn *scripting.Function) {
	w := ctx.W
	w.Map(3)
	w.BulkString("name")
	w.BulkString(fn.Name)
	w.BulkString("description")
	if fn.Description == "" {
		w.Null()
	} else {
		w.BulkString(fn.Description)
	}
	w.BulkString("flags")
	names := fn.Flags.Names()
	w.Set(len(names))
	for _, n := range names {
		w.Simple(n)
	}
}

// functionStatsCommand: FUNCTION STATS — the running function (name, command, duration_ms;
// the one running longest when several run) or null, and the engine's counts. A busy script
// that is no function (an EVAL) refuses it with BUSY, as Redis.
func (f *Family) functionStatsCommand(ctx *command.Ctx) {
	w := ctx.W
	// The reply is written under the runs' lock, with the running FCALL's command line valid.
	running := f.fcalls.oldest(func(r *fcallRun) {
		w.Map(2)
		w.BulkString("running_script")
		w.Map(3)
		w.BulkString("name")
		w.BulkString(r.name)
		w.BulkString("command")
		w.Array(r.args.Len())
		for i := range r.args.Len() {
			w.Bulk(r.args.Arg(i))
		}
		w.BulkString("duration_ms")
		w.Int(time.Since(r.start).Milliseconds())
	})
	if !running {
		if f.Scripts.Busy() {
			ctx.W.Error(command.ErrBusyScript.Error())
			return
		}
		w.Map(2)
		w.BulkString("running_script")
		w.Null()
	}
	st := f.Functions.Stats()
	w.BulkString("engines")
	w.Map(1)
	w.BulkString(funclib.EngineName)
	w.Map(2)
	w.BulkString("libraries_count")
	w.Int(int64(st.Libraries))
	w.BulkString("functions_count")
	w.Int(int64(st.Functions))
}

// functionDumpCommand: FUNCTION DUMP — every library as a payload FUNCTION RESTORE takes.
func (f *Family) functionDumpCommand(ctx *command.Ctx) {
	ctx.W.Bulk(f.Functions.Dump())
}

// functionRestoreCommand: FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE] (default APPEND).
func (f *Family) functionRestoreCommand(ctx *command.Ctx) {
	f.vettedFunctions.reset() // a name may get another body
	args := ctx.Args
	if args.Len() > 4 {
		command.ReplySubcommandSyntaxError(ctx.W, args)
		return
	}
	policy := funclib.Append
	if args.Len() == 4 {
		switch p := args.Arg(3); {
		case conv.EqFold(p, "append"):
		case conv.EqFold(p, "replace"):
			policy = funclib.Replace
		case conv.EqFold(p, "flush"):
			policy = funclib.Flush
		default:
			ctx.W.Error("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.")
			return
		}
	}
	if err := f.Functions.Restore(args.Arg(2), policy); err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.OK()
}

// functionKillCommand: FUNCTION KILL — kills the running function if it has not written
// (Redis's scriptKill for functions).
func (f *Family) functionKillCommand(ctx *command.Ctx) {
	if errText := f.Scripts.Kill(true); errText != "" {
		ctx.W.Error(errText)
		return
	}
	ctx.W.OK()
}

// functionHelpCommand: FUNCTION HELP, Redis 7.2's text.
func functionHelpCommand(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "FUNCTION", []string{
		"LOAD [REPLACE] <FUNCTION CODE>",
		"    Create a new library with the given library name and code.",
		"DELETE <LIBRARY NAME>",
		"    Delete the given library.",
		"LIST [LIBRARYNAME PATTERN] [WITHCODE]",
		"    Return general information on all the libraries:",
		"    * Library name",
		"    * The engine used to run the Library",
		"    * Library description",
		"    * Functions list",
		"    * Library code (if WITHCODE is given)",
		"    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
		"STATS",
		"    Return information about the current function running:",
		"    * Function name",
		"    * Command used to run the function",
		"    * Duration in MS that the function is running",
		"    If no function is running, return nil",
		"    In addition, returns a list of available engines.",
		"KILL",
		"    Kill the current running function.",
		"FLUSH [ASYNC|SYNC]",
		"    Delete all the libraries.",
		"    When called without the optional mode argument, the behavior is determined by the",
		"    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
		"    * ASYNC: Asynchronously flush the libraries.",
		"    * SYNC: Synchronously flush the libraries.",
		"DUMP",
		"    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command",
		"RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
		"    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
		"    control how to handle existing libraries (default APPEND):",
		"    * FLUSH: delete all existing libraries.",
		"    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
		"    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
		"      libraries with the new libraries (notice that even on this option there is a chance of failure",
		"      in case of functions name collision with another library).",
	})
}
