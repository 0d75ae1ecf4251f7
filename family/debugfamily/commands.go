package debugfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
)

// Commands returns the family's rows, fresh on each call, with srv behind the handlers that
// need the server. Arity, flags and categories come from Redis 7.2's metadata (command.New);
// DEBUG states its hidden protected flag itself.
func Commands(srv Server) []*command.Command {
	f := &family{srv: srv}
	return []*command.Command{
		{Name: "debug", Flags: command.Protected,
			Locking: command.LockFunc, Shards: debugShards, Handler: f.debugCommand},
		{Name: "memory", Subcommands: []*command.Command{
			{Name: "usage", Locking: command.LockKeys, Handler: memoryUsageCommand},
			{Name: "purge", Locking: command.LockNone, Handler: memoryPurgeCommand},
			// STATS, DOCTOR and MALLOC-STATS read every shard's tables and span headers.
			{Name: "stats", Locking: command.LockAll, Handler: f.memoryStatsCommand},
			{Name: "doctor", Locking: command.LockAll, Handler: f.memoryDoctorCommand},
			{Name: "malloc-stats", Locking: command.LockAll, Handler: f.mallocStatsCommand},
			{Name: "help", Locking: command.LockNone, Handler: memoryHelpCommand},
		}},
	}
}

// family holds the server behind the handlers.
type family struct {
	srv Server
}

// debugShards picks what DEBUG locks: the key's shard for OBJECT, the keys' for DIGEST-VALUE,
// every shard for DIGEST and POPULATE (they see or change the whole keyspace at one instant),
// nothing for the other subcommands (SLEEP must hold no lock while it sleeps). A line whose
// argument count its subcommand refuses locks nothing.
func debugShards(ctx *command.Ctx, dst []int) []int {
	args := ctx.Args
	sub, n := args.Arg(1), args.Len()
	switch {
	case n == 3 && conv.EqFold(sub, "object"):
		dst = append(dst, ctx.KS.ShardFor(args.Arg(2)))
	case conv.EqFold(sub, "digest-value"):
		for i := 2; i < n; i++ {
			dst = append(dst, ctx.KS.ShardFor(args.Arg(i)))
		}
	case n == 2 && conv.EqFold(sub, "digest"), n >= 3 && n <= 5 && conv.EqFold(sub, "populate"),
		conv.EqFold(sub, "reload"):
		for i := range ctx.KS.NumShards() {
			dst = append(dst, i)
		}
	}
	return dst
}
