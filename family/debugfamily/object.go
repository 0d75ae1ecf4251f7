package debugfamily

import (
	"fmt"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// debugObjectCommand: DEBUG OBJECT key — Redis's status line on a key's value, found as
// dictFind finds it (no expiry, no LRU touch, no statistics): "Value at:<address>
// refcount:<n> encoding:<name> serializedlength:<bytes in an RDB file> lru:<24-bit clock>
// lru_seconds_idle:<s>". The address is the record's shard and handle.
func debugObjectCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(2)
	sh := ctx.Shard(key)
	h, ok := sh.LookupFlagsLocked(ctx.DB, key, keyspace.LookupNoTouch|keyspace.LookupNoExpire)
	if !ok {
		ctx.W.Error(replyerr.NoSuchKey.Error())
		return
	}
	a := sh.Arena()
	line := fmt.Sprintf("Value at:0x%x refcount:%d encoding:%s serializedlength:%d lru:%d lru_seconds_idle:%d",
		uint64(sh.Index())<<32|uint64(h), keyfamily.Refcount(ctx, a, h), object.EncodingOf(a, h).Name(),
		serializedLength(ctx, a, h), object.LRU(a, h), keyfamily.EstimateObjectIdleTime(ctx, a, h))
	ctx.W.Simple(line)
}

// serializedLength is Redis's rdbSavedObjectLen for a string: an int encoding as an 8, 16 or
// 32-bit RDB integer, else the string with its length prefix — LZF-compressed when
// rdbcompression is on, the string is longer than 20 bytes and compression saves at least 4.
func serializedLength(ctx *command.Ctx, a *alloc.Arena, h alloc.Handle) int {
	if object.EncodingOf(a, h) == object.EncInt {
		v, _ := object.IntValue(a, h)
		if n := rdbIntLen(v); n > 0 {
			return n
		}
		s := strconv.AppendInt(ctx.Scratch[:0], v, 10)
		return rdbLenLen(len(s)) + len(s)
	}
	s := object.Value(a, h, ctx.Scratch[:0])
	if len(s) <= 11 {
		if v, ok := object.CanonicalInt(s); ok {
			if n := rdbIntLen(v); n > 0 {
				return n
			}
		}
	}
	if len(s) > 20 && rdbCompression(ctx) {
		if n := lzfCompressedLen(s); n > 0 {
			// RDB_ENCVAL_LZF, the compressed and original lengths, the compressed bytes.
			return 1 + rdbLenLen(n) + rdbLenLen(len(s)) + n
		}
	}
	return rdbLenLen(len(s)) + len(s)
}

// rdbCompression reports whether rdbcompression is on.
func rdbCompression(ctx *command.Ctx) bool {
	v, _ := ctx.Cfg.Value("rdbcompression")
	return v == "yes"
}

// rdbIntLen is the size of rdbEncodeInteger's encoding of v: a type byte and 1, 2 or 4 bytes;
// 0 if v needs more than 32 bits.
func rdbIntLen(v int64) int {
	switch {
	case v >= -(1<<7) && v <= 1<<7-1:
		return 2
	case v >= -(1<<15) && v <= 1<<15-1:
		return 3
	case v >= -(1<<31) && v <= 1<<31-1:
		return 5
	}
	return 0
}

// rdbLenLen is the size of rdbSaveLen's encoding of n.
func rdbLenLen(n int) int {
	switch {
	case n < 1<<6:
		return 1
	case n < 1<<14:
		return 2
	case uint64(n) <= 1<<32-1:
		return 5
	}
	return 9
}
