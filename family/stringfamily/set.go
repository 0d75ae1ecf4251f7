package stringfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// setCommand: SET key value [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL].
func setCommand(ctx *command.Ctx) {
	flags, expireArg, ok := parseExtendedStringArguments(ctx.Args, optsSet)
	if !ok {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	var expireAt int64
	now := ctx.Now()
	if expireArg != nil {
		var err error
		if expireAt, err = expireMilliseconds(ctx.Cmd.FullName, expireArg, flags, now); err != nil {
			ctx.W.Error(err.Error())
			return
		}
	}
	setGenericCommand(ctx, ctx.Args.Arg(1), ctx.Args.Arg(2), flags, expireAt, now, setReplyOK)
}

// setnxCommand: SETNX key value — SET NX answering 1 or 0.
func setnxCommand(ctx *command.Ctx) {
	setGenericCommand(ctx, ctx.Args.Arg(1), ctx.Args.Arg(2), setNX, 0, 0, setReplyInt)
}

// setexCommand: SETEX key seconds value.
func setexCommand(ctx *command.Ctx) { setexGenericCommand(ctx, setEX) }

// psetexCommand: PSETEX key milliseconds value.
func psetexCommand(ctx *command.Ctx) { setexGenericCommand(ctx, setPX) }

// setexGenericCommand is SETEX and PSETEX: SET with a relative expire in unit (setEX, setPX),
// which must be a positive integer.
func setexGenericCommand(ctx *command.Ctx, unit int) {
	now := ctx.Now()
	expireAt, err := expireMilliseconds(ctx.Cmd.FullName, ctx.Args.Arg(2), unit, now)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	setGenericCommand(ctx, ctx.Args.Arg(1), ctx.Args.Arg(3), unit, expireAt, now, setReplyOK)
}

// getsetCommand: GETSET key value — SET key value GET.
func getsetCommand(ctx *command.Ctx) {
	setGenericCommand(ctx, ctx.Args.Arg(1), ctx.Args.Arg(2), setGet, 0, 0, setReplyOK)
}

// setReply is what setGenericCommand answers without GET: Redis's ok_reply and abort_reply.
type setReply uint8

const (
	setReplyOK  setReply = iota // +OK, or a null when NX or XX refuses (SET)
	setReplyInt                 // :1, or :0 when NX refuses (SETNX)
)

// setGenericCommand is Redis's setGenericCommand: with GET the old value is answered first (or
// WRONGTYPE, and nothing is set), then the NX/XX condition, then the write. Without GET it
// answers as reply says. A write that fails (the keyspace's OOM, which Redis's setKey cannot
// meet) answers the error alone. now is the time expireAt was computed at (SetStringAt).
func setGenericCommand(ctx *command.Ctx, key, val []byte, flags int, expireAt, now int64, reply setReply) {
	sh := ctx.Shard(key)
	mark := ctx.W.Len()
	if flags&setGet != 0 && !getGenericCommand(ctx, sh, key) {
		return
	}
	past := expireAt != 0 && expireAt <= now
	existed := false
	if past && ctx.KS.NotifyClasses() != 0 {
		_, existed = ctx.LookupWrite(sh, key)
	}
	done, err := opSet(ctx, sh, key, val, flags, expireAt, now)
	if done && err == nil {
		notifySet(ctx, key, expireAt != 0, past, existed)
	}
	switch {
	case err != nil:
		ctx.W.Truncate(mark) // GET's reply too: one reply per command, the error
		ctx.W.Error(err.Error())
	case flags&setGet != 0: // the old value is the reply
	case reply == setReplyInt && done:
		ctx.W.Int(1)
	case reply == setReplyInt:
		ctx.W.Int(0)
	case done:
		ctx.W.OK()
	default:
		ctx.W.Null()
	}
}

// notifySet raises SET's events: `set`, then `expire` when it set one. A time already past
// (EXAT, PXAT) leaves no key here, where Redis stores the key and expires it at its next
// lookup: the events are Redis's all the same — `new` for a key that did not exist, `set`,
// `expire`, and `expired` at once.
func notifySet(ctx *command.Ctx, key []byte, expire, past, existed bool) {
	if past && !existed {
		ctx.NotifyNew(key)
	}
	ctx.Notify(keyspace.NotifyString, "set", key)
	if expire {
		ctx.Notify(keyspace.NotifyGeneric, command.EventExpire, key)
	}
	if past {
		ctx.Notify(keyspace.NotifyExpired, command.EventExpired, key)
	}
}

// opSet stores val under key with the expire expireAt (unix ms, 0 for none) unless NX or XX in
// flags refuses (done false); KEEPTTL keeps the key's expire. The key is looked up as Redis's
// lookupKeyWrite: no hit or miss is counted.
func opSet(ctx *command.Ctx, sh *keyspace.Shard, key, val []byte, flags int, expireAt, now int64) (done bool, err error) {
	if flags&(setNX|setXX|setKeepTTL) == 0 {
		// Nothing depends on the old value: setKey replaces it, expired or not, in one lookup.
		return true, ctx.SetStringAt(sh, key, val, expireAt, now)
	}
	h, found := ctx.LookupWrite(sh, key)
	if (flags&setNX != 0 && found) || (flags&setXX != 0 && !found) {
		return false, nil
	}
	if flags&setKeepTTL != 0 && found {
		expireAt, _ = object.Expire(sh.Arena(), h)
	}
	return true, ctx.SetStringAt(sh, key, val, expireAt, now)
}

// msetCommand: MSET key value [key value ...].
func msetCommand(ctx *command.Ctx) { msetGenericCommand(ctx, false) }

// msetnxCommand: MSETNX key value [key value ...] — all or nothing: 0 if any key exists.
func msetnxCommand(ctx *command.Ctx) { msetGenericCommand(ctx, true) }

// msetGenericCommand is Redis's msetGenericCommand, atomic across shards: the pipeline holds
// every key's shard before the first key is looked at. An odd number of keys and values is
// Redis's arity error.
func msetGenericCommand(ctx *command.Ctx, nx bool) {
	if ctx.Args.Len()%2 == 0 {
		ctx.W.Error(replyerr.WrongArgs(ctx.Cmd.FullName).Error())
		return
	}
	done, err := opMSet(ctx, nx)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !nx:
		ctx.W.OK()
	case done:
		ctx.W.Int(1)
	default:
		ctx.W.Int(0)
	}
}

// opMSet sets every key of the command line to the value after it; with nx, nothing is set
// (done false) if any of the keys exists.
func opMSet(ctx *command.Ctx, nx bool) (done bool, err error) {
	args := ctx.Args
	if nx {
		for j := 1; j < args.Len(); j += 2 {
			key := args.Arg(j)
			if _, found := ctx.LookupWrite(ctx.Shard(key), key); found {
				return false, nil
			}
		}
	}
	for j := 1; j < args.Len(); j += 2 {
		key := args.Arg(j)
		if err := ctx.SetString(ctx.Shard(key), key, args.Arg(j+1), 0); err != nil {
			return false, err
		}
		ctx.Notify(keyspace.NotifyString, "set", key)
	}
	return true, nil
}
