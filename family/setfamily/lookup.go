package setfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// lookupRead is lookupKeyRead + checkType for a set (command.Ctx.LookupReadType).
func lookupRead(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (alloc.Handle, bool, error) {
	return ctx.LookupReadType(sh, key, object.TypeSet)
}

// lookupWrite is lookupKeyWrite + checkType, before changing the set in place.
func lookupWrite(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (alloc.Handle, bool, error) {
	return ctx.LookupWriteType(sh, key, object.TypeSet)
}

// removeIfEmpty deletes key when its set rec is empty, with Redis's `del` event, and reports
// whether it did.
func removeIfEmpty(ctx *command.Ctx, sh *keyspace.Shard, key []byte, n int) bool {
	if n != 0 {
		return false
	}
	sh.DeleteLocked(ctx.DB, key)
	ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
	return true
}
