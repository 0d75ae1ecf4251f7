package keyfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// DEL, UNLINK, EXISTS, TOUCH and TYPE: the commands that look keys up one by one. The pipeline
// holds every key's shard for the whole command, so a multi-key DEL is atomic across shards.

// delCommand: DEL key [key ...] — how many of the keys existed and were removed. Values are
// freed at once, unless lazyfree-lazy-user-del makes DEL an UNLINK.
func delCommand(ctx *command.Ctx) { delGenericCommand(ctx, ctx.KS.LazyFree().UserDel) }

// unlinkCommand: UNLINK key [key ...] — DEL, but a big hash or set (a table of more than
// keyspace.LazyFreeThreshold entries) is freed by the cron after the key is gone
// (keyspace/lazyfree.go); everything else is one or two allocations, freed at once.
func unlinkCommand(ctx *command.Ctx) { delGenericCommand(ctx, true) }

// delGenericCommand is Redis's delGenericCommand, for DEL and UNLINK.
func delGenericCommand(ctx *command.Ctx, lazy bool) {
	var n int64
	for i := 1; i < ctx.Args.Len(); i++ {
		if opDel(ctx, ctx.Args.Arg(i), lazy) {
			n++
		}
	}
	ctx.W.Int(n)
}

// opDel deletes key from the client's database and reports whether it existed; lazy frees a
// big value in the background (Redis's dbAsyncDelete). A key whose time has passed is expired
// first (expireIfNeeded), so it does not count as deleted. A deleted key raises `del`.
func opDel(ctx *command.Ctx, key []byte, lazy bool) bool {
	sh := ctx.Shard(key)
	if _, ok := sh.LookupFlagsLocked(ctx.DB, key, keyspace.LookupNoTouch); !ok {
		return false
	}
	deleted := false
	if lazy {
		deleted = sh.AsyncDeleteLocked(ctx.DB, key)
	} else {
		deleted = sh.SyncDeleteLocked(ctx.DB, key)
	}
	if !deleted {
		return false
	}
	ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
	return true
}

// existsCommand: EXISTS key [key ...] — a key named twice counts twice. It does not touch the
// keys' LRU clock (Redis 7.2's LOOKUP_NOTOUCH) but counts hits and misses.
func existsCommand(ctx *command.Ctx) {
	var n int64
	for i := 1; i < ctx.Args.Len(); i++ {
		if opExists(ctx, ctx.Args.Arg(i), keyspace.LookupNoTouch) {
			n++
		}
	}
	ctx.W.Int(n)
}

// touchCommand: TOUCH key [key ...] — a read lookup of each key (setting its LRU clock), the
// number of keys that exist.
func touchCommand(ctx *command.Ctx) {
	var n int64
	for i := 1; i < ctx.Args.Len(); i++ {
		if opExists(ctx, ctx.Args.Arg(i), 0) {
			n++
		}
	}
	ctx.W.Int(n)
}

// opExists is a counted read lookup of key (lookupKeyReadWithFlags): whether it exists.
func opExists(ctx *command.Ctx, key []byte, flags keyspace.LookupFlags) bool {
	_, ok := ctx.LookupReadFlags(ctx.Shard(key), key, flags)
	return ok
}

// typeCommand: TYPE key — the type's name as a status reply, "none" for a missing key.
func typeCommand(ctx *command.Ctx) {
	ctx.W.Simple(opType(ctx, ctx.Args.Arg(1)))
}

// opType is the name of key's type, "none" when it does not exist (Redis's getObjectTypeByType
// after a NOTOUCH read lookup).
func opType(ctx *command.Ctx, key []byte) string {
	sh := ctx.Shard(key)
	h, ok := ctx.LookupReadFlags(sh, key, keyspace.LookupNoTouch)
	if !ok {
		return "none"
	}
	return object.TypeOf(sh.Arena(), h).Name()
}
