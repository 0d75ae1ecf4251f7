package hashfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// lookupRead is lookupKeyRead and checkType for a hash (command.Ctx.LookupReadType).
func lookupRead(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (rec alloc.Handle, found bool, err error) {
	return ctx.LookupReadType(sh, key, object.TypeHash)
}

// lookupWrite is lookupKeyWrite and checkType for a hash (a running snapshot writes the record
// first, so it may be changed in place).
func lookupWrite(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (rec alloc.Handle, found bool, err error) {
	return ctx.LookupWriteType(sh, key, object.TypeHash)
}

// lookupWriteOrCreate is Redis's hashTypeLookupWriteOrCreate: key's hash, or a new empty one
// inserted under key (raising `new`). A created hash that stays empty must be removed by the
// caller (endWrite does).
func lookupWriteOrCreate(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (rec alloc.Handle, err error) {
	rec, found, err := lookupWrite(ctx, sh, key)
	if found || err != nil {
		return rec, err
	}
	a := sh.Arena()
	rec, err = hashval.New(a, key, 0)
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

// endWrite finishes a write to key's hash rec: when changed, the keyspace is told (dirty,
// WATCH) and event is raised (class h); a hash left empty (created by the write, which then
// failed, or emptied by HDEL) deletes its key and raises `del` when it had raised event.
func endWrite(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, changed bool, event string) {
	if changed {
		sh.UpdateLocked(ctx.DB, key, rec, rec)
		ctx.Notify(keyspace.NotifyHash, event, key)
	}
	if hashval.Len(sh.Arena(), rec) == 0 {
		sh.DeleteLocked(ctx.DB, key)
		if changed {
			ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
		}
	}
}
