package keyfamily

import (
	"math"
	"strings"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// OBJECT ENCODING | FREQ | IDLETIME | REFCOUNT key, and OBJECT HELP.

// lruClockMax is Redis's LRU_CLOCK_MAX: the LRU clock counts seconds in 24 bits.
const lruClockMax = 1<<24 - 1

// Redis's shared integers: OBJ_SHARED_INTEGERS and OBJ_SHARED_REFCOUNT.
const (
	sharedIntegers = 10000
	sharedRefcount = math.MaxInt32
)

// objectCommandLookup is Redis's: key's record, by a lookup that leaves the LRU clock alone but
// counts a hit or miss, and raises no keymiss event (LOOKUP_NONOTIFY). A missing key answers
// null (the bool is false).
func objectCommandLookup(ctx *command.Ctx) (*alloc.Arena, alloc.Handle, bool) {
	key := ctx.Args.Arg(2)
	sh := ctx.Shard(key)
	h, ok := ctx.LookupReadFlags(sh, key, keyspace.LookupNoTouch|keyspace.LookupNoNotify)
	if !ok {
		return nil, 0, false
	}
	return sh.Arena(), h, true
}

// objectEncodingCommand: OBJECT ENCODING key — for a string embstr for every value embedded in
// its record (up to 128 bytes of record, Valkey 9.1's rule), raw, or int; for a hash or set
// listpack, intset or hashtable, at Redis 7.2's thresholds.
func objectEncodingCommand(ctx *command.Ctx) {
	a, h, ok := objectCommandLookup(ctx)
	if !ok {
		ctx.W.Null()
		return
	}
	ctx.W.BulkString(object.EncodingOf(a, h).Name())
}

// objectFreqCommand: OBJECT FREQ key — the key's LFU counter, decayed to now (Redis's
// LFUDecrAndReturn); an error unless maxmemory-policy is an LFU one (checked after the lookup,
// as Redis does).
func objectFreqCommand(ctx *command.Ctx) {
	a, h, ok := objectCommandLookup(ctx)
	if !ok {
		ctx.W.Null()
		return
	}
	if !lfuPolicy(ctx) {
		ctx.W.Error(errLFUNotSet.Error())
		return
	}
	ctx.W.Int(int64(ctx.KS.LFUDecayed(object.LRU(a, h))))
}

// objectIdletimeCommand: OBJECT IDLETIME key — seconds since the key was last read or written,
// from its 24-bit LRU clock; an error under an LFU policy.
func objectIdletimeCommand(ctx *command.Ctx) {
	a, h, ok := objectCommandLookup(ctx)
	if !ok {
		ctx.W.Null()
		return
	}
	if lfuPolicy(ctx) {
		ctx.W.Error(errLFUSet.Error())
		return
	}
	ctx.W.Int(EstimateObjectIdleTime(ctx, a, h))
}

// objectRefcountCommand: OBJECT REFCOUNT key — 1, or INT_MAX for what Redis keeps as a shared
// integer.
func objectRefcountCommand(ctx *command.Ctx) {
	a, h, ok := objectCommandLookup(ctx)
	if !ok {
		ctx.W.Null()
		return
	}
	ctx.W.Int(Refcount(ctx, a, h))
}

// lfuPolicy reports whether maxmemory-policy is an LFU one (Redis's MAXMEMORY_FLAG_LFU).
func lfuPolicy(ctx *command.Ctx) bool { return strings.HasSuffix(ctx.Cfg.MaxMemoryPolicy(), "-lfu") }

// EstimateObjectIdleTime is Redis's estimateObjectIdleTime, in seconds (also DEBUG OBJECT's): the LRU clock wraps every 194 days.
func EstimateObjectIdleTime(ctx *command.Ctx, a *alloc.Arena, h alloc.Handle) int64 {
	now, lru := int64(ctx.KS.LRUClock()), int64(object.LRU(a, h))
	if now >= lru {
		return now - lru
	}
	return now + lruClockMax - lru
}

// Refcount is the reference count Redis would report (OBJECT REFCOUNT, DEBUG OBJECT) for record h: its shared integers (0 to
// 9999, unless maxmemory with an LRU or LFU policy forbids sharing) are INT_MAX, everything
// else 1 (values are never shared between keys here). Redis's COPY of a shared integer makes an
// unshared one, which is not told apart.
func Refcount(ctx *command.Ctx, a *alloc.Arena, h alloc.Handle) int64 {
	if object.EncodingOf(a, h) != object.EncInt {
		return 1
	}
	v, _ := object.IntValue(a, h)
	policy := ctx.Cfg.MaxMemoryPolicy()
	noShared := ctx.Cfg.MaxMemory() != 0 && (strings.HasSuffix(policy, "-lru") || strings.HasSuffix(policy, "-lfu"))
	if v >= 0 && v < sharedIntegers && !noShared {
		return sharedRefcount
	}
	return 1
}

// objectHelpCommand: OBJECT HELP.
func objectHelpCommand(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "OBJECT", []string{
		"ENCODING <key>",
		"    Return the kind of internal representation used in order to store the value",
		"    associated with a <key>.",
		"FREQ <key>",
		"    Return the access frequency index of the <key>. The returned integer is",
		"    proportional to the logarithm of the recent access frequency of the key.",
		"IDLETIME <key>",
		"    Return the idle time of the <key>, that is the approximated number of",
		"    seconds elapsed since the last access to the key.",
		"REFCOUNT <key>",
		"    Return the number of references of the value associated with the specified",
		"    <key>.",
	})
}
