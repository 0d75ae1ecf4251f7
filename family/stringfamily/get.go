package stringfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// opGet is Redis's lookupKeyRead and checkType for a string: the value of key (a view valid
// under sh's lock, or formatted into ctx.Scratch for an int), found false for a missing key,
// replyerr.WrongType for another type. It counts a keyspace hit or miss.
func opGet(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (val []byte, found bool, err error) {
	h, found := ctx.LookupRead(sh, key)
	if !found {
		return nil, false, nil
	}
	a := sh.Arena()
	if object.TypeOf(a, h) != object.TypeString {
		return nil, true, replyerr.WrongType
	}
	return object.Value(a, h, ctx.Scratch[:0]), true, nil
}

// replyValue is the reply of the commands that answer a value or nothing (GET, GETDEL, GETEX,
// SET…GET, MGET's elements): the bulk string, copied into the reply, or a null.
func replyValue(ctx *command.Ctx, val []byte, found bool) {
	if !found {
		ctx.W.Null()
		return
	}
	ctx.W.Bulk(val)
}

// getGenericCommand is Redis's getGenericCommand, shared by GET, GETDEL and SET…GET: it replies
// with key's value, a null, or WRONGTYPE, and reports false on WRONGTYPE.
func getGenericCommand(ctx *command.Ctx, sh *keyspace.Shard, key []byte) bool {
	val, found, err := opGet(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return false
	}
	replyValue(ctx, val, found)
	return true
}

// getCommand: GET key.
func getCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	getGenericCommand(ctx, ctx.Shard(key), key)
}

// getdelCommand: GETDEL key — the value, then the key is deleted.
func getdelCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	if getGenericCommand(ctx, sh, key) && sh.DeleteLocked(ctx.DB, key) {
		ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
	}
}

// getexCommand: GETEX key [EX s|PX ms|EXAT s|PXAT ms|PERSIST] — the value, then the expire
// changed. As in Redis: a syntax error first, then WRONGTYPE, then a missing key answers a
// null before the expire is converted; an absolute time already past deletes the key after
// its value is sent.
func getexCommand(ctx *command.Ctx) {
	flags, expireArg, ok := parseExtendedStringArguments(ctx.Args, optsGetEx)
	if !ok {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	val, found, err := opGet(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if !found {
		ctx.W.Null()
		return
	}
	now := ctx.Now()
	var when int64
	if expireArg != nil {
		if when, err = expireMilliseconds(ctx.Cmd.FullName, expireArg, flags, now); err != nil {
			ctx.W.Error(err.Error())
			return
		}
	}
	mark := ctx.W.Len()
	ctx.W.Bulk(val) // before the key may be deleted: val is a view of its record
	if err := opGetExExpire(ctx, sh, key, flags, when, now); err != nil {
		ctx.W.Truncate(mark) // nothing changed: answer the error alone
		ctx.W.Error(err.Error())
	}
}

// opGetExExpire changes the expire of key, an existing string, as GETEX's flags say: a new
// expire at when (an absolute one not after now deletes the key instead), PERSIST removes it,
// no option leaves it. The only error is the keyspace's OOM, with nothing changed.
func opGetExExpire(ctx *command.Ctx, sh *keyspace.Shard, key []byte, flags int, when, now int64) error {
	switch {
	case flags&(setEXAT|setPXAT) != 0 && when <= now:
		sh.DeleteLocked(ctx.DB, key)
		ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
	case flags&setExpireFlags != 0:
		if err := sh.SetExpireLocked(ctx.DB, key, when); err != nil {
			return err
		}
		ctx.Notify(keyspace.NotifyGeneric, command.EventExpire, key)
	case flags&setPersist != 0:
		if sh.PersistLocked(ctx.DB, key) {
			ctx.Notify(keyspace.NotifyGeneric, "persist", key)
		}
	}
	return nil
}

// mgetCommand: MGET key [key ...] — atomic across shards (the pipeline holds every key's
// shard); a missing key or one of another type is a null.
func mgetCommand(ctx *command.Ctx) {
	n := ctx.Args.Len()
	ctx.W.Array(n - 1)
	for j := 1; j < n; j++ {
		key := ctx.Args.Arg(j)
		val, found, err := opGet(ctx, ctx.Shard(key), key)
		replyValue(ctx, val, found && err == nil)
	}
}
