package command

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// The keyspace operations every family shares, as Redis's db.c: a read lookup that counts hits
// and misses (ctx.go), a string record made from an argument, setKey.

// Records makes string records from a command's arguments: the connection's implementation
// adopts a big argument's buffer instead of copying it (a 100 KB SET changes the owner of one
// allocation). Nil means copy.
type Records interface {
	// NewStringRecord makes the record of key holding val (an argument of the command being
	// run) with the given expire (unix ms, 0 for none) in sh's arena. sh is locked.
	NewStringRecord(sh *keyspace.Shard, key, val []byte, expireAt int64) (alloc.Handle, error)
}

// NewStringRecord makes the record of key holding val in sh: adopted when val is a big argument
// of this command, copied otherwise.
func (ctx *Ctx) NewStringRecord(sh *keyspace.Shard, key, val []byte, expireAt int64) (alloc.Handle, error) {
	if ctx.Records != nil {
		return ctx.Records.NewStringRecord(sh, key, val, expireAt)
	}
	if len(val) >= querybuf.BigArgThreshold && ctx.BigArgCopies != nil {
		ctx.BigArgCopies.Add(1)
	}
	return object.NewString(sh.Arena(), key, val, expireAt, object.WriteSet)
}

// SetString stores val under key with the given expire (unix ms, 0 for none), replacing any
// value: Redis's setKey, which raises `new` when the key is created. sh is key's shard (Shard).
func (ctx *Ctx) SetString(sh *keyspace.Shard, key, val []byte, expireAt int64) error {
	h, err := ctx.NewStringRecord(sh, key, val, expireAt)
	if err != nil {
		return err
	}
	replaced, err := sh.ReplaceFlagsLocked(ctx.DB, key, h, ctx.WriteFlags())
	if err != nil {
		object.Free(sh.Arena(), h)
		return err
	}
	if !replaced {
		ctx.NotifyNew(key)
	}
	return nil
}

// SetStringAt is SetString for an expire computed at time now (unix ms): a time already past
// at now deletes the key instead, as Redis's checkAlreadyExpired (SET EXAT/PXAT, RESTORE
// ABSTTL). The comparison is with the now the expire was computed from, not a later reading
// of the clock: a relative expire (PX 1) is never past, however long the command took.
func (ctx *Ctx) SetStringAt(sh *keyspace.Shard, key, val []byte, expireAt, now int64) error {
	if expireAt != 0 && expireAt <= now {
		sh.DeleteLocked(ctx.DB, key)
		return nil
	}
	return ctx.SetString(sh, key, val, expireAt)
}

// LookupReadType is Redis's lookupKeyRead followed by checkType: key's record when it holds a
// value of type t; found false for a missing key; replyerr.WrongType (found true) for a key of
// another type. Callers check err first.
func (ctx *Ctx) LookupReadType(sh *keyspace.Shard, key []byte, t object.Type) (rec alloc.Handle, found bool, err error) {
	h, found := ctx.LookupRead(sh, key)
	return checkType(sh, h, found, t)
}

// LookupWriteType is LookupReadType for a command that changes the value in place (Redis's
// lookupKeyWrite): a running snapshot writes the record first.
func (ctx *Ctx) LookupWriteType(sh *keyspace.Shard, key []byte, t object.Type) (rec alloc.Handle, found bool, err error) {
	h, found := ctx.LookupWrite(sh, key)
	return checkType(sh, h, found, t)
}

func checkType(sh *keyspace.Shard, h alloc.Handle, found bool, t object.Type) (alloc.Handle, bool, error) {
	if !found {
		return 0, false, nil
	}
	if object.TypeOf(sh.Arena(), h) != t {
		return 0, true, replyerr.WrongType
	}
	return h, true, nil
}

// ReplyKeyInt answers a command that reads one integer from key's value of type t (HLEN,
// SCARD, HEXISTS…): WRONGTYPE for another type, 0 for a missing key, else fn of the record.
func (ctx *Ctx) ReplyKeyInt(key []byte, t object.Type, fn func(a *alloc.Arena, rec alloc.Handle) int64) {
	sh := ctx.Shard(key)
	rec, found, err := ctx.LookupReadType(sh, key, t)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !found:
		ctx.W.Int(0)
	default:
		ctx.W.Int(fn(sh.Arena(), rec))
	}
}
