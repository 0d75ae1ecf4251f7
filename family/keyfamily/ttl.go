package keyfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// TTL, PTTL, EXPIRETIME and PEXPIRETIME: reading a key's expire.

// ttlGenericCommand's answers without a time (Redis's -2 and -1).
const (
	ttlNoKey    = -2
	ttlNoExpire = -1
)

func ttlCommand(ctx *command.Ctx)         { ttlGenericCommand(ctx, false, false) }
func pttlCommand(ctx *command.Ctx)        { ttlGenericCommand(ctx, true, false) }
func expiretimeCommand(ctx *command.Ctx)  { ttlGenericCommand(ctx, false, true) }
func pexpiretimeCommand(ctx *command.Ctx) { ttlGenericCommand(ctx, true, true) }

// ttlGenericCommand is Redis's: -2 for a missing key, -1 without an expire, else the time left
// (or, abs, the expire itself) in ms, or in seconds rounded to the nearest — EXPIRETIME rounds
// too, as Redis does.
func ttlGenericCommand(ctx *command.Ctx, ms, abs bool) {
	ttl := opTTL(ctx, ctx.Args.Arg(1), abs)
	if ttl >= 0 && !ms {
		// Unsigned, as Redis's compiled (ttl+500)/1000 behaves near 2^63 ms.
		ttl = int64((uint64(ttl) + 500) / 1000)
	}
	ctx.W.Int(ttl)
}

// opTTL is key's time to live in ms (abs: its expire, unix ms), never below 0, or ttlNoKey or
// ttlNoExpire. The lookup counts a hit or miss and leaves the LRU clock alone.
func opTTL(ctx *command.Ctx, key []byte, abs bool) int64 {
	sh := ctx.Shard(key)
	h, ok := ctx.LookupReadFlags(sh, key, keyspace.LookupNoTouch)
	if !ok {
		return ttlNoKey
	}
	when, has := object.Expire(sh.Arena(), h)
	if !has {
		return ttlNoExpire
	}
	if !abs {
		when -= ctx.Now()
	}
	return max(when, 0)
}
