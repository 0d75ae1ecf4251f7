package setfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// lookupRead is lookupKeyRead + checkType: key's set record, found false for a missing key,
// WrongType for a key of another type.
func lookupRead(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (alloc.Handle, bool, error) {
	h, ok := ctx.LookupRead(sh, key)
	if !ok {
		return 0, false, nil
	}
	if object.TypeOf(sh.Arena(), h) != object.TypeSet {
		return 0, false, replyerr.WrongType
	}
	return h, true, nil
}

// lookupWrite is lookupKeyWrite + checkType, before changing the set in place.
func lookupWrite(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (alloc.Handle, bool, error) {
	h, ok := ctx.LookupWrite(sh, key)
	if !ok {
		return 0, false, nil
	}
	if object.TypeOf(sh.Arena(), h) != object.TypeSet {
		return 0, false, replyerr.WrongType
	}
	return h, true, nil
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
