package listfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
)

// lookupRead is lookupKeyRead and checkType for a list.
func lookupRead(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (rec alloc.Handle, found bool, err error) {
	return ctx.LookupReadType(sh, key, object.TypeList)
}

// lookupWrite is lookupKeyWrite and checkType for a list (a running snapshot writes the record
// first, so it may be changed in place).
func lookupWrite(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (rec alloc.Handle, found bool, err error) {
	return ctx.LookupWriteType(sh, key, object.TypeList)
}

// create makes an empty list under key in sh (createListListpackObject and dbAdd, raising
// `new`); the caller pushes into it at once, or deletes it again if that fails (endPush).
func create(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (alloc.Handle, error) {
	a := sh.Arena()
	rec, err := listval.New(a, key, 0)
	if err != nil {
		return 0, err
	}
	if err := sh.InsertLocked(ctx.DB, key, rec); err != nil {
		object.Free(a, rec)
		return 0, err
	}
	ctx.NotifyNew(key)
	return rec, nil
}

// endPush finishes a push into key's list rec: when it changed, the keyspace is told (dirty,
// WATCH) and event raised; a list left empty (made for a push that then failed) is deleted.
func endPush(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, changed bool, event string) {
	if changed {
		// Something was pushed: the list is not empty, and its length need not be read.
		sh.UpdateLocked(ctx.DB, key, rec, rec)
		ctx.Notify(keyspace.NotifyList, event, key)
		return
	}
	if listval.Len(sh.Arena(), rec) == 0 {
		sh.DeleteLocked(ctx.DB, key)
	}
}

// elementsRemoved is Redis's listElementsRemoved after a pop from key's list rec: `lpop` or
// `rpop`, then the key deleted (`del`) when the list is empty, else the keyspace told of the
// change. It reports whether the key was deleted.
func elementsRemoved(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, tail bool) bool {
	event := "lpop"
	if tail {
		event = "rpop"
	}
	ctx.Notify(keyspace.NotifyList, event, key)
	return endRemove(ctx, sh, key, rec)
}

// endRemove finishes a removal from key's list rec whose event was raised: the key deleted
// (`del`) when the list is empty, else the keyspace told of the change.
func endRemove(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle) bool {
	if listval.Len(sh.Arena(), rec) == 0 {
		sh.DeleteLocked(ctx.DB, key)
		ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
		return true
	}
	sh.UpdateLocked(ctx.DB, key, rec, rec)
	return false
}

// parseWhere reads LEFT or RIGHT (any case): tail is true for RIGHT; ok false otherwise.
func parseWhere(arg []byte) (tail, ok bool) {
	switch {
	case conv.EqFold(arg, "left"):
		return false, true
	case conv.EqFold(arg, "right"):
		return true, true
	}
	return false, false
}

// parseLong is getLongFromObjectOrReply: ok false for what is not a 64-bit integer.
func parseLong(arg []byte) (int64, bool) { return conv.String2ll(arg) }
