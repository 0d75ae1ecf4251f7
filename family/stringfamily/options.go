package stringfamily

import (
	"math"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// SET's and GETEX's flags, as Redis's OBJ_SET_* and OBJ_* bits.
const (
	setNX = 1 << iota
	setXX
	setGet
	setKeepTTL
	setEX
	setPX
	setEXAT
	setPXAT
	setPersist
)

// setExpireFlags are the options that carry an expire time.
const setExpireFlags = setEX | setPX | setEXAT | setPXAT

// The option families of parseExtendedStringArguments: Redis's COMMAND_SET and COMMAND_GET.
const (
	// optsSet is SET's: NX XX GET KEEPTTL EX PX EXAT PXAT, after the key and value.
	optsSet = iota
	// optsGetEx is GETEX's: PERSIST EX PX EXAT PXAT, after the key.
	optsGetEx
)

// parseExtendedStringArguments is Redis's parseExtendedStringArgumentsOrReply: one loop
// collects the flags and the expire argument of SET (optsSet) or GETEX (optsGetEx). A repeated
// option is accepted (the last value wins); conflicting ones (NX and XX, two kinds of expire,
// KEEPTTL or PERSIST with an expire), an option of the other command, or an expire without
// its argument are a syntax error (ok false). The number is converted afterwards
// (expireMilliseconds), so a syntax error is found before a bad number.
func parseExtendedStringArguments(args querybuf.Args, typ int) (flags int, expire []byte, ok bool) {
	from := 3
	if typ == optsGetEx {
		from = 2
	}
	isSet := typ == optsSet
	for j := from; j < args.Len(); j++ {
		opt := args.Arg(j)
		hasNext := j+1 < args.Len()
		// An expire option conflicts with KEEPTTL, PERSIST and any other kind of expire.
		expireOK := func(self int) bool { return flags&(setKeepTTL|setPersist|setExpireFlags&^self) == 0 && hasNext }
		switch {
		case conv.EqFold(opt, "nx") && flags&setXX == 0 && isSet:
			flags |= setNX
		case conv.EqFold(opt, "xx") && flags&setNX == 0 && isSet:
			flags |= setXX
		case conv.EqFold(opt, "get") && isSet:
			flags |= setGet
		case conv.EqFold(opt, "keepttl") && flags&(setPersist|setExpireFlags) == 0 && isSet:
			flags |= setKeepTTL
		case conv.EqFold(opt, "persist") && flags&(setKeepTTL|setExpireFlags) == 0 && !isSet:
			flags |= setPersist
		case conv.EqFold(opt, "ex") && expireOK(setEX):
			flags |= setEX
			j++
			expire = args.Arg(j)
		case conv.EqFold(opt, "px") && expireOK(setPX):
			flags |= setPX
			j++
			expire = args.Arg(j)
		case conv.EqFold(opt, "exat") && expireOK(setEXAT):
			flags |= setEXAT
			j++
			expire = args.Arg(j)
		case conv.EqFold(opt, "pxat") && expireOK(setPXAT):
			flags |= setPXAT
			j++
			expire = args.Arg(j)
		default:
			return 0, nil, false
		}
	}
	return flags, expire, true
}

// expireMilliseconds converts an expire argument to an absolute unix time in ms, as Redis's
// getExpireMillisecondsOrReply: not an integer → replyerr.NotInteger; ≤ 0, or seconds that would
// overflow → replyerr.InvalidExpire naming the command (its full name, cmd); relative times (EX,
// PX: flags, or the unit of SETEX and PSETEX) are added to now, and an overflow there is
// invalid too.
func expireMilliseconds(cmd string, arg []byte, flags int, now int64) (int64, error) {
	v, ok := conv.String2ll(arg)
	if !ok {
		return 0, replyerr.NotInteger
	}
	seconds := flags&(setEX|setEXAT) != 0
	if v <= 0 || (seconds && v > math.MaxInt64/1000) {
		return 0, replyerr.InvalidExpire(cmd)
	}
	if seconds {
		v *= 1000
	}
	if flags&(setEX|setPX) != 0 {
		v += now // may wrap: caught below, as Redis's check after the addition
	}
	if v <= 0 {
		return 0, replyerr.InvalidExpire(cmd)
	}
	return v, nil
}
