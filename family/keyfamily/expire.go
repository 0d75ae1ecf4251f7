package keyfamily

import (
	"math"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT and PERSIST: setting and clearing a key's expire.

// EXPIRE's conditions, as Redis's EXPIRE_NX … EXPIRE_LT.
const (
	expireNX = 1 << iota
	expireXX
	expireGT
	expireLT
)

// The argument's unit.
const (
	unitSeconds = true
	unitMillis  = false
)

func expireCommand(ctx *command.Ctx)    { expireGenericCommand(ctx, "expire", true, unitSeconds) }
func pexpireCommand(ctx *command.Ctx)   { expireGenericCommand(ctx, "pexpire", true, unitMillis) }
func expireatCommand(ctx *command.Ctx)  { expireGenericCommand(ctx, "expireat", false, unitSeconds) }
func pexpireatCommand(ctx *command.Ctx) { expireGenericCommand(ctx, "pexpireat", false, unitMillis) }

// expireGenericCommand is Redis's: errors in Redis's order — options, the number, its overflow
// (seconds × 1000, or adding now) — then the operation: 1 when the expire was set (or the key
// deleted for a time not after now), 0 for a missing key or a failed NX/XX/GT/LT condition.
// Relative commands add the command's time to their argument.
func expireGenericCommand(ctx *command.Ctx, name string, relative, seconds bool) {
	now := ctx.Now()
	flags, err := parseExtendedExpireArguments(ctx)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	when, ok := conv.String2ll(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	if seconds {
		if when > math.MaxInt64/1000 || when < math.MinInt64/1000 {
			ctx.W.Error(replyerr.InvalidExpire(name).Error())
			return
		}
		when *= 1000
	}
	if relative {
		if when > math.MaxInt64-now {
			ctx.W.Error(replyerr.InvalidExpire(name).Error())
			return
		}
		when += now
	}
	set, err := opExpire(ctx, ctx.Args.Arg(1), when, now, flags)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case set:
		ctx.W.Int(1)
	default:
		ctx.W.Int(0)
	}
}

// parseExtendedExpireArguments is Redis's parseExtendedExpireArgumentsOrReply: any number of
// NX, XX, GT, LT in any case (repeats allowed); an unknown word first, then the incompatible
// pairs.
func parseExtendedExpireArguments(ctx *command.Ctx) (int, error) {
	flags := 0
	for j := 3; j < ctx.Args.Len(); j++ {
		switch opt := ctx.Args.Arg(j); {
		case conv.EqFold(opt, "nx"):
			flags |= expireNX
		case conv.EqFold(opt, "xx"):
			flags |= expireXX
		case conv.EqFold(opt, "gt"):
			flags |= expireGT
		case conv.EqFold(opt, "lt"):
			flags |= expireLT
		default:
			return 0, errUnsupportedOption(opt)
		}
	}
	if flags&expireNX != 0 && flags&(expireXX|expireGT|expireLT) != 0 {
		return 0, errNXAndOthers
	}
	if flags&expireGT != 0 && flags&expireLT != 0 {
		return 0, errGTAndLT
	}
	return flags, nil
}

// opExpire sets key's expire to when (unix ms) under the NX/XX/GT/LT conditions and reports
// whether it did. A time not after now deletes the key, as a master does (GT counts a key
// without an expire as infinite; LT counts it as later than any time).
func opExpire(ctx *command.Ctx, key []byte, when, now int64, flags int) (bool, error) {
	sh := ctx.Shard(key)
	h, found := ctx.LookupWrite(sh, key)
	if !found {
		return false, nil
	}
	if flags != 0 {
		current, has := object.Expire(sh.Arena(), h)
		if (flags&expireNX != 0 && has) ||
			(flags&expireXX != 0 && !has) ||
			(flags&expireGT != 0 && (!has || when <= current)) ||
			(flags&expireLT != 0 && has && when >= current) {
			return false, nil
		}
	}
	if when <= now {
		sh.DeleteLocked(ctx.DB, key)
		ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key)
		return true, nil
	}
	if err := sh.SetExpireLocked(ctx.DB, key, when); err != nil {
		return false, err
	}
	ctx.Notify(keyspace.NotifyGeneric, command.EventExpire, key)
	return true, nil
}

// persistCommand: PERSIST key — 1 if the key had an expire and lost it.
func persistCommand(ctx *command.Ctx) {
	if opPersist(ctx, ctx.Args.Arg(1)) {
		ctx.W.Int(1)
		return
	}
	ctx.W.Int(0)
}

// opPersist removes key's expire and reports whether it had one.
func opPersist(ctx *command.Ctx, key []byte) bool {
	sh := ctx.Shard(key)
	if _, ok := ctx.LookupWrite(sh, key); !ok {
		return false
	}
	if !sh.PersistLocked(ctx.DB, key) {
		return false
	}
	ctx.Notify(keyspace.NotifyGeneric, "persist", key)
	return true
}
