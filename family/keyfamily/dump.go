package keyfamily

import (
	"errors"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/persist"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/replyerr"
)

// DUMP and RESTORE: a key's value as Redis's serialization (package rdb: the value's RDB
// encoding, RDB version 11 and a CRC-64), and back. Strings, hashes, sets, lists and sorted
// sets: a listpack or intset as its bytes, a hash table as its elements, a list as its quicklist
// nodes (type 18), a skiplist as its member, score pairs (type 5) (package persist builds the
// record back, converted by the limits as Redis's RDB load does).

// RESTORE's own errors, as Redis words them.
const (
	errBusyKey    replyerr.Error = "BUSYKEY Target key name already exists."
	errRestoreTTL replyerr.Error = "ERR Invalid TTL value, must be >= 0"
	errIdleTime   replyerr.Error = "ERR Invalid IDLETIME value, must be >= 0"
	errFreq       replyerr.Error = "ERR Invalid FREQ value, must be >= 0 and <= 255"
)

// dumpCommand: DUMP key — the value serialized, or a null for a missing key.
func dumpCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	h, ok := ctx.LookupRead(sh, key)
	if !ok {
		ctx.W.Null()
		return
	}
	a := sh.Arena()
	switch object.TypeOf(a, h) {
	case object.TypeString:
		ctx.W.Bulk(rdb.EncodeDump(object.Value(a, h, ctx.Scratch[:0])))
	case object.TypeHash, object.TypeSet, object.TypeList, object.TypeZSet:
		ctx.W.Bulk(persist.EncodeDump(a, h))
	default:
		ctx.W.Error(replyerr.WrongType.Error()) // no other type exists yet
	}
}

// restoreCommand: RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds]
// [FREQ frequency], in Redis's order of checks: options, the key's existence, the TTL, the
// payload's version and checksum, then its contents.
func restoreCommand(ctx *command.Ctx) {
	args := ctx.Args
	replace, absTTL := false, false
	idle, freq := int64(-1), int64(-1)
	for i := 4; i < args.Len(); i++ {
		a, more := args.Arg(i), args.Len()-i-1
		switch {
		case conv.EqFold(a, "replace"):
			replace = true
		case conv.EqFold(a, "absttl"):
			absTTL = true
		case conv.EqFold(a, "idletime") && more >= 1 && freq == -1:
			i++
			v, ok := conv.String2ll(args.Arg(i))
			if !ok {
				ctx.W.Error(replyerr.NotInteger.Error())
				return
			}
			if v < 0 {
				ctx.W.Error(errIdleTime.Error())
				return
			}
			idle = v
		case conv.EqFold(a, "freq") && more >= 1 && idle == -1:
			i++
			v, ok := conv.String2ll(args.Arg(i))
			if !ok {
				ctx.W.Error(replyerr.NotInteger.Error())
				return
			}
			if v < 0 || v > 255 {
				ctx.W.Error(errFreq.Error())
				return
			}
			freq = v
		default:
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
	}
	key := args.Arg(1)
	sh := ctx.Shard(key)
	_, exists := ctx.LookupWrite(sh, key)
	if exists && !replace {
		ctx.W.Error(errBusyKey.Error())
		return
	}
	ttl, ok := conv.String2ll(args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	if ttl < 0 {
		ctx.W.Error(errRestoreTTL.Error())
		return
	}
	d, ent, err := rdb.OpenDump(args.Arg(3))
	switch {
	case errors.Is(err, rdb.ErrDumpPayload):
		ctx.W.Error(rdb.ErrDumpPayload.Error())
		return
	case err != nil: // bad data, or a type kvserver does not have yet
		ctx.W.Error(rdb.ErrDumpData.Error())
		return
	}
	var expireAt int64
	now := ctx.Now()
	if ttl > 0 {
		expireAt = ttl
		if !absTTL {
			expireAt += now
		}
	}
	if ent.Type == rdb.TypeString {
		// SetStringAt replaces the key (REPLACE) and, for a time already past, only deletes
		// it, as Redis's RESTORE of an expired payload answers OK and leaves no key.
		if err := ctx.SetStringAt(sh, key, ent.Value, expireAt, now); err != nil {
			ctx.W.Error(replyerr.OOM.Error())
			return
		}
	} else {
		// The record is built whole before the key changes: bad data leaves nothing behind.
		h, err := persist.NewRecord(sh.Arena(), key, d, ent, expireAt)
		switch {
		case errors.Is(err, object.ErrOOM):
			ctx.W.Error(replyerr.OOM.Error())
			return
		case err != nil:
			ctx.W.Error(rdb.ErrDumpData.Error())
			return
		}
		if expireAt != 0 && expireAt <= now {
			object.Free(sh.Arena(), h)
			sh.DeleteLocked(ctx.DB, key)
		} else if replaced, err := sh.ReplaceFlagsLocked(ctx.DB, key, h, ctx.WriteFlags()); err != nil {
			object.Free(sh.Arena(), h)
			ctx.W.Error(replyerr.OOM.Error())
			return
		} else if !replaced {
			ctx.NotifyNew(key)
		}
	}
	if h, ok := sh.LookupFlagsLocked(ctx.DB, key, keyspace.LookupNoTouch); ok {
		sh.SetAccessLocked(h, idle, freq)
		if exists {
			ctx.NotifyNew(key) // REPLACE deletes the key, then adds it (Redis's dbAdd)
		}
		ctx.Notify(keyspace.NotifyGeneric, "restore", key)
	} else if exists {
		ctx.Notify(keyspace.NotifyGeneric, command.EventDel, key) // replaced by an expired payload
	}
	ctx.W.OK()
}
