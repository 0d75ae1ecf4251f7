package debugfamily

import (
	"time"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
)

// debugCommand: the subcommands of Redis's DEBUG that tools and test suites use. Each takes
// the argument count Redis's takes; anything else is Redis's "unknown subcommand or wrong
// number of arguments" error, naming the subcommand as it was written.
func (f *family) debugCommand(ctx *command.Ctx) {
	args := ctx.Args
	sub, n := args.Arg(1), args.Len()
	switch {
	case conv.EqFold(sub, "help") && n == 2:
		debugHelp(ctx)
	case conv.EqFold(sub, "change-repl-id") && n == 2:
		f.srv.ChangeReplID()
		ctx.W.OK()
	case conv.EqFold(sub, "digest") && n == 2:
		debugDigestCommand(ctx)
	case conv.EqFold(sub, "digest-value"):
		debugDigestValueCommand(ctx)
	case conv.EqFold(sub, "log") && n == 3:
		f.srv.Log(args.Arg(2)) // cut at 1 KiB and rate-limited
		ctx.W.OK()
	case conv.EqFold(sub, "object") && n == 3:
		debugObjectCommand(ctx)
	case conv.EqFold(sub, "pause-cron") && n == 3:
		f.srv.PauseCron(atoi(args.Arg(2)) != 0)
		ctx.W.OK()
	case conv.EqFold(sub, "populate") && n >= 3 && n <= 5:
		debugPopulateCommand(ctx)
	case conv.EqFold(sub, "protocol") && n == 3:
		debugProtocolCommand(ctx)
	case conv.EqFold(sub, "reload"):
		f.debugReload(ctx)
	case conv.EqFold(sub, "set-active-expire") && n == 3:
		// Redis's atoi: anything not starting with a non-zero number switches it off.
		f.srv.SetActiveExpire(atoi(args.Arg(2)) != 0)
		ctx.W.OK()
	case conv.EqFold(sub, "sleep") && n == 3:
		// Redis reads the seconds with strtod and no check: what is not a number sleeps 0 s.
		if us := int64(strtod(args.Arg(2)) * 1e6); us > 0 {
			f.srv.Sleep(time.Duration(us) * time.Microsecond)
		}
		ctx.W.OK()
	default:
		command.ReplySubcommandSyntaxError(ctx.W, ctx.Args)
	}
}

// debugHelp: DEBUG HELP — Redis's lines for the subcommands kvserver has, in Redis's order.
func debugHelp(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "DEBUG", []string{
		"CHANGE-REPL-ID",
		"    Change the replication IDs of the instance.",
		"    Dangerous: should be used only for testing the replication subsystem.",
		"DIGEST",
		"    Output a hex signature representing the current DB content.",
		"DIGEST-VALUE <key> [<key> ...]",
		"    Output a hex signature of the values of all the specified keys.",
		"LOG <message>",
		"    Write <message> to the server log.",
		"OBJECT <key>",
		"    Show low level info about `key` and associated value.",
		"POPULATE <count> [<prefix>] [<size>]",
		"    Create <count> string keys named key:<num>. If <prefix> is specified then",
		"    it is used instead of the 'key' prefix. These are not propagated to",
		"    replicas. Cluster slots are not respected so keys not belonging to the",
		"    current node can be created in cluster mode.",
		"PROTOCOL <type>",
		"    Reply with a test value of the specified type. <type> can be: string,",
		"    integer, double, bignum, null, array, set, map, attrib, push, verbatim,",
		"    true, false.",
		"SET-ACTIVE-EXPIRE <0|1>",
		"    Setting it to 0 disables expiring keys in background when they are not",
		"    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
		"    default.",
		"SLEEP <seconds>",
		"    Stop the server for <seconds>. Decimals allowed.",
		"PAUSE-CRON <0|1>",
		"    Stop periodic cron job processing.",
	})
}

// debugReload: DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE] — save the dataset (unless NOSAVE),
// empty it and the function libraries (unless NOFLUSH) and load the file again, replacing keys
// (and libraries) that exist with MERGE (else such a key fails the load), every shard locked
// throughout (debugShards), as Redis's is synchronous. Its errors are Redis's.
func (f *family) debugReload(ctx *command.Ctx) {
	save, flush, merge := true, true, false
	for i := 2; i < ctx.Args.Len(); i++ {
		switch a := ctx.Args.Arg(i); {
		case conv.EqFold(a, "nosave"):
			save = false
		case conv.EqFold(a, "noflush"):
			flush = false
		case conv.EqFold(a, "merge"):
			merge = true
		default:
			ctx.W.Error("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.")
			return
		}
	}
	if save {
		if err := f.srv.SaveLocked(); err != nil {
			ctx.W.Error("ERR") // Redis's bare shared.err; the log says why
			return
		}
	}
	if flush {
		ctx.KS.FlushAllLocked()
		f.srv.FlushFunctions()
	}
	if err := f.srv.LoadLocked(merge); err != nil {
		ctx.W.Error("ERR Error trying to load the RDB dump")
		return
	}
	ctx.W.OK()
}
