package zsetfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/zsetval"
)

// lookupRead is lookupKeyRead and checkType for a sorted set.
func lookupRead(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (alloc.Handle, bool, error) {
	return ctx.LookupReadType(sh, key, object.TypeZSet)
}

// lookupWrite is lookupKeyWrite and checkType, before changing the sorted set in place (a
// running snapshot writes the record first).
func lookupWrite(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (alloc.Handle, bool, error) {
	return ctx.LookupWriteType(sh, key, object.TypeZSet)
}

// endRemove finishes a removal from key's sorted set rec that removed something: event (class
// z), then the key deleted with `del` when the set is empty, else the keyspace told of the
// change (dirty, WATCH). It reports whether the key was deleted.
func endRemove(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, event string) bool {
	ctx.Notify(keyspace.NotifyZset, event, key)
	if zsetval.Len(sh.Arena(), rec) == 0 {
		sh.DeleteLocked(ctx.DB, key)
		ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
		return true
	}
	sh.UpdateLocked(ctx.DB, key, rec, rec)
	return false
}

// storeResult finishes a *STORE: the sorted set b built in dstKey's shard is stored under
// dstKey when it is not empty — Redis's setKey, whatever dstKey held, with `new` for a new
// key, then event — else it is dropped and dstKey deleted (with `del` when it existed). It
// returns the size stored; on an error nothing was stored and b is released.
func storeResult(ctx *command.Ctx, dstKey []byte, b *zsetval.Builder, n int, event string) (int, error) {
	sh := ctx.Shard(dstKey)
	if n == 0 {
		b.Abort()
		if sh.DeleteLocked(ctx.DB, dstKey) {
			ctx.Notify(keyspace.NotifyGeneric, command.EventDel, dstKey)
		}
		return 0, nil
	}
	rec, err := b.Finish()
	if err != nil {
		return 0, err
	}
	a := sh.Arena()
	replaced, err := sh.ReplaceFlagsLocked(ctx.DB, dstKey, rec, ctx.WriteFlags())
	if err != nil {
		object.Free(a, rec)
		return 0, err
	}
	if !replaced {
		ctx.NotifyNew(dstKey)
	}
	ctx.Notify(keyspace.NotifyZset, event, dstKey)
	return zsetval.Len(a, rec), nil
}
