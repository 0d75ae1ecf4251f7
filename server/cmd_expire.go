package server

import (
	"fmt"
	"math"

	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// expireCommands are the expire commands of the @keyspace family.
func expireCommands() []*command {
	return []*command{
		{Name: "expire", Arity: -3, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: expireCommand},
		{Name: "pexpire", Arity: -3, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: pexpireCommand},
		{Name: "expireat", Arity: -3, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: expireatCommand},
		{Name: "pexpireat", Arity: -3, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: pexpireatCommand},
		{Name: "ttl", Arity: 2, Flags: cmdReadOnly | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: ttlCommand},
		{Name: "pttl", Arity: 2, Flags: cmdReadOnly | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: pttlCommand},
		{Name: "expiretime", Arity: 2, Flags: cmdReadOnly | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: expiretimeCommand},
		{Name: "pexpiretime", Arity: 2, Flags: cmdReadOnly | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: pexpiretimeCommand},
		{Name: "persist", Arity: 2, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: persistCommand},
	}
}

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

func expireCommand(c *client, args querybuf.Args) {
	c.expireGeneric(args, "expire", nowMs(), true, unitSeconds)
}

func pexpireCommand(c *client, args querybuf.Args) {
	c.expireGeneric(args, "pexpire", nowMs(), true, unitMillis)
}

func expireatCommand(c *client, args querybuf.Args) {
	c.expireGeneric(args, "expireat", nowMs(), false, unitSeconds)
}

func pexpireatCommand(c *client, args querybuf.Args) {
	c.expireGeneric(args, "pexpireat", nowMs(), false, unitMillis)
}

// expireFlagsOrReply is Redis's parseExtendedExpireArgumentsOrReply: any number of NX, XX, GT,
// LT in any case (repeats allowed); an unknown word first, then the incompatible pairs.
func (c *client) expireFlagsOrReply(args querybuf.Args) (int, bool) {
	flags := 0
	for j := 3; j < args.Len(); j++ {
		switch opt := args.Arg(j); {
		case eqFold(opt, "nx"):
			flags |= expireNX
		case eqFold(opt, "xx"):
			flags |= expireXX
		case eqFold(opt, "gt"):
			flags |= expireGT
		case eqFold(opt, "lt"):
			flags |= expireLT
		default:
			c.w.Error("ERR Unsupported option " + cString(opt))
			return 0, false
		}
	}
	if flags&expireNX != 0 && flags&(expireXX|expireGT|expireLT) != 0 {
		c.w.Error("ERR NX and XX, GT or LT options at the same time are not compatible")
		return 0, false
	}
	if flags&expireGT != 0 && flags&expireLT != 0 {
		c.w.Error("ERR GT and LT options at the same time are not compatible")
		return 0, false
	}
	return flags, true
}

// cString is arg as C's %s prints it: up to the first NUL byte.
func cString(arg []byte) string {
	for i, ch := range arg {
		if ch == 0 {
			return string(arg[:i])
		}
	}
	return string(arg)
}

// expireGeneric is Redis's expireGenericCommand. Errors come in Redis's order: options, the
// number, its overflow (seconds × 1000, or adding now); then a missing key answers 0, a
// failed NX/XX/GT/LT condition 0, and a time not after now deletes the key (1), as a master
// does. now is the command's time; relative commands add it to their argument.
func (c *client) expireGeneric(args querybuf.Args, name string, now int64, relative, seconds bool) {
	flags, ok := c.expireFlagsOrReply(args)
	if !ok {
		return
	}
	when, ok := parseInt(args.Arg(2))
	if !ok {
		c.w.Error(errNotInteger)
		return
	}
	if seconds {
		if when > math.MaxInt64/1000 || when < math.MinInt64/1000 {
			c.w.Error(fmt.Sprintf(errInvalidExpire, name))
			return
		}
		when *= 1000
	}
	if relative {
		if when > math.MaxInt64-now {
			c.w.Error(fmt.Sprintf(errInvalidExpire, name))
			return
		}
		when += now
	}

	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, found := sh.LookupLocked(c.db, key)
	if !found {
		c.w.Int(0)
		return
	}
	if flags != 0 {
		current, has := object.Expire(sh.Arena(), h)
		if (flags&expireNX != 0 && has) ||
			(flags&expireXX != 0 && !has) ||
			(flags&expireGT != 0 && (!has || when <= current)) ||
			(flags&expireLT != 0 && has && when >= current) {
			c.w.Int(0)
			return
		}
	}
	if when <= now {
		sh.DeleteLocked(c.db, key)
		c.w.Int(1)
		return
	}
	if err := sh.SetExpireLocked(c.db, key, when); err != nil {
		c.w.Error(err.Error())
		return
	}
	c.w.Int(1)
}

func ttlCommand(c *client, args querybuf.Args)         { c.ttlGeneric(args, false, false) }
func pttlCommand(c *client, args querybuf.Args)        { c.ttlGeneric(args, true, false) }
func expiretimeCommand(c *client, args querybuf.Args)  { c.ttlGeneric(args, false, true) }
func pexpiretimeCommand(c *client, args querybuf.Args) { c.ttlGeneric(args, true, true) }

// ttlGeneric is Redis's ttlGenericCommand (TTL, PTTL, EXPIRETIME, PEXPIRETIME): -2 for a
// missing key, -1 without an expire, else the time left (or the expire itself) in ms, or in
// seconds rounded to the nearest — EXPIRETIME rounds too, as Redis does.
func (c *client) ttlGeneric(args querybuf.Args, ms, abs bool) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, ok := c.lookupReadFlagsLocked(sh, key, keyspace.LookupNoTouch)
	if !ok {
		c.w.Int(-2)
		return
	}
	when, has := object.Expire(sh.Arena(), h)
	if !has {
		c.w.Int(-1)
		return
	}
	ttl := when
	if !abs {
		ttl = when - nowMs()
	}
	ttl = max(ttl, 0)
	if !ms {
		// Unsigned, as Redis's compiled (ttl+500)/1000 behaves near 2^63 ms.
		ttl = int64((uint64(ttl) + 500) / 1000)
	}
	c.w.Int(ttl)
}

// persistCommand: PERSIST key — 1 if the key had an expire and lost it.
func persistCommand(c *client, args querybuf.Args) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	if _, ok := sh.LookupLocked(c.db, key); ok && sh.PersistLocked(c.db, key) {
		c.w.Int(1)
		return
	}
	c.w.Int(0)
}
