package setfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/setval"
)

// saddCommand: SADD key member [member ...] — how many members were new.
func saddCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	added, err := opSadd(ctx, ctx.Shard(key), key)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	if added > 0 {
		ctx.Notify(keyspace.NotifySet, "sadd", key)
	}
	ctx.W.Int(int64(added))
}

// opSadd adds the members of the command line to key's set: a missing key gets a set in the
// encoding setTypeCreate picks for the first member and the member count, an existing one is
// converted first when that count passes its limits (setTypeMaybeConvert).
func opSadd(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (int, error) {
	rec, found, err := lookupWrite(ctx, sh, key)
	if err != nil {
		return 0, err
	}
	a, n := sh.Arena(), ctx.Args.Len()-2
	if !found {
		if rec, err = setval.New(a, key, ctx.Args.Arg(2), n, 0); err != nil {
			return 0, err
		}
	} else if err = setval.MaybeConvert(a, rec, n); err != nil {
		return 0, err
	}
	added := 0
	for i := 2; i < ctx.Args.Len() && err == nil; i++ {
		var ok bool
		if ok, err = setval.Add(a, rec, ctx.Args.Arg(i)); ok {
			added++
		}
	}
	switch {
	case !found && (err != nil || added == 0):
		object.Free(a, rec)
		return 0, err
	case !found:
		if err := sh.InsertLocked(ctx.DB, key, rec); err != nil {
			object.Free(a, rec)
			return 0, err
		}
		ctx.NotifyNew(key)
	case added > 0:
		sh.UpdateLocked(ctx.DB, key, rec, rec)
	}
	return added, err
}

// sremCommand: SREM key member [member ...] — how many were removed; the key goes with its
// last member.
func sremCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if !found {
		ctx.W.Int(0)
		return
	}
	a := sh.Arena()
	deleted, emptied := 0, false
	for i := 2; i < ctx.Args.Len(); i++ {
		ok, err := setval.Remove(a, rec, ctx.Args.Arg(i))
		if err != nil {
			break
		}
		if ok {
			deleted++
			if setval.Len(a, rec) == 0 {
				emptied = true
				break
			}
		}
	}
	if deleted > 0 {
		if !emptied {
			sh.UpdateLocked(ctx.DB, key, rec, rec)
		}
		ctx.Notify(keyspace.NotifySet, "srem", key)
		if emptied {
			removeIfEmpty(ctx, sh, key, 0)
		}
	}
	ctx.W.Int(int64(deleted))
}

// scardCommand: SCARD key — 0 for a missing key.
func scardCommand(ctx *command.Ctx) {
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeSet, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return int64(setval.Len(a, rec))
	})
}

// sismemberCommand: SISMEMBER key member — 1 or 0.
func sismemberCommand(ctx *command.Ctx) {
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeSet, func(a *alloc.Arena, rec alloc.Handle) int64 {
		if setval.IsMember(a, rec, ctx.Args.Arg(2)) {
			return 1
		}
		return 0
	})
}

// smismemberCommand: SMISMEMBER key member [member ...] — 1 or 0 for each; a missing key is
// an empty set.
func smismemberCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Array(ctx.Args.Len() - 2)
	for i := 2; i < ctx.Args.Len(); i++ {
		if found && setval.IsMember(sh.Arena(), rec, ctx.Args.Arg(i)) {
			ctx.W.Int(1)
		} else {
			ctx.W.Int(0)
		}
	}
}

// smembersCommand: SMEMBERS key — every member, a set in RESP3, in the encoding's order
// (an intset's ascending, a listpack's insertion order).
func smembersCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !found:
		ctx.W.Set(0)
	default:
		writeMembers(ctx, sh, rec)
	}
}

// writeMembers replies every member of set rec of shard sh as a set.
func writeMembers(ctx *command.Ctx, sh *keyspace.Shard, rec alloc.Handle) {
	a := sh.Arena()
	ctx.W.Set(setval.Len(a, rec))
	setval.Each(a, rec, ctx.Scratch[:0], func(m []byte) bool {
		ctx.W.Bulk(m)
		return true
	})
}
