package debugfamily

import (
	"runtime/debug"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// MEMORY USAGE key [SAMPLES count], MEMORY PURGE and MEMORY HELP.

// memoryUsageCommand: MEMORY USAGE key [SAMPLES count] — the real bytes of the record, its
// value, and its share of the table; null for a missing key. SAMPLES may repeat (the last one
// counts; a string has nothing to sample).
func memoryUsageCommand(ctx *command.Ctx) {
	args := ctx.Args
	for j := 3; j < args.Len(); j++ {
		if !conv.EqFold(args.Arg(j), "samples") || j+1 >= args.Len() {
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
		v, ok := conv.String2ll(args.Arg(j + 1))
		if !ok {
			ctx.W.Error(replyerr.NotInteger.Error())
			return
		}
		if v < 0 {
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
		j++
	}
	n, ok := opMemoryUsage(ctx, args.Arg(2))
	if !ok {
		ctx.W.Null()
		return
	}
	ctx.W.Int(n)
}

// opMemoryUsage is key's memory: its record and value, and its share of its database's table
// in the shard (as Redis counts the dictEntry). As Redis's dictFind, the lookup neither touches
// nor expires the key, nor counts a hit.
func opMemoryUsage(ctx *command.Ctx, key []byte) (int64, bool) {
	sh := ctx.Shard(key)
	h, ok := sh.LookupFlagsLocked(ctx.DB, key, keyspace.LookupNoTouch|keyspace.LookupNoExpire)
	if !ok {
		return 0, false
	}
	var share int64
	if n := sh.DBSizeLocked(ctx.DB); n != 0 {
		table, _ := sh.OverheadLocked(ctx.DB)
		share = table / n
	}
	return int64(object.MemoryUsage(sh.Arena(), h)) + share, true
}

// memoryPurgeCommand: MEMORY PURGE — the Go runtime's free memory goes back to the OS.
func memoryPurgeCommand(ctx *command.Ctx) {
	debug.FreeOSMemory()
	ctx.W.OK()
}

// memoryHelpCommand: MEMORY HELP.
func memoryHelpCommand(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "MEMORY", []string{
		"DOCTOR",
		"    Return memory problems reports.",
		"MALLOC-STATS",
		"    Return internal statistics report from the memory allocator.",
		"PURGE",
		"    Attempt to purge dirty pages for reclamation by the allocator.",
		"STATS",
		"    Return information about the memory usage of the server.",
		"USAGE <key> [SAMPLES <count>]",
		"    Return memory in bytes used by <key> and its value. Nested values are",
		"    sampled up to <count> times (default: 5, 0 means sample all).",
	})
}
