package debugfamily

import (
	"fmt"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/setval"
	"github.com/kvserver/kvserver/zsetval"
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

// serializedLength is Redis's rdbSavedObjectLen: the size of the value's RDB encoding, without
// its type byte and key. A string is an int encoding's 8, 16 or 32-bit RDB integer, or a raw
// string (rawStringLen). A listpack or an intset is saved as one raw string of its bytes; a
// hash or set kept as a table as its element count, then each field and value, or member, as a
// raw string; a skiplist sorted set as its member count, then each member as a raw string and
// its score as 8 bytes.
func serializedLength(ctx *command.Ctx, a *alloc.Arena, h alloc.Handle) int {
	comp := rdbCompression(ctx)
	switch typ, enc := object.TypeOf(a, h), object.EncodingOf(a, h); {
	case enc == object.EncInt:
		v, _ := object.IntValue(a, h)
		if n := rdbIntLen(v); n > 0 {
			return n
		}
		s := strconv.AppendInt(ctx.Scratch[:0], v, 10)
		return rdbLenLen(len(s)) + len(s)
	case typ == object.TypeString:
		return rawStringLen(object.Value(a, h, ctx.Scratch[:0]), comp)
	case typ == object.TypeHash && enc == object.EncListpack:
		return rawStringLen(hashval.ListpackBlob(a, h), comp)
	case typ == object.TypeSet && (enc == object.EncListpack || enc == object.EncIntset):
		return rawStringLen(setval.Blob(a, h), comp)
	case typ == object.TypeZSet && enc == object.EncListpack:
		return rawStringLen(zsetval.ListpackBytes(a, h), comp)
	case typ == object.TypeZSet:
		n := rdbLenLen(zsetval.Len(a, h))
		zsetval.Each(a, h, ctx.Scratch[:0], func(m []byte, _ float64) bool {
			n += rawStringLen(m, comp) + 8
			return true
		})
		return n
	case typ == object.TypeHash:
		n := rdbLenLen(hashval.Len(a, h))
		hashval.Each(a, h, ctx.Scratch[:0], func(f, v []byte) bool {
			n += rawStringLen(f, comp) + rawStringLen(v, comp)
			return true
		})
		return n
	case typ == object.TypeSet:
		n := rdbLenLen(setval.Len(a, h))
		setval.Each(a, h, ctx.Scratch[:0], func(m []byte) bool {
			n += rawStringLen(m, comp)
			return true
		})
		return n
	case typ == object.TypeList:
		return listSerializedLength(ctx, a, h, comp)
	}
	return 0
}

// listSerializedLength is what a list takes in an RDB file (type 18, either encoding): its
// node count, then each node's container and string — a packed node's listpack, a plain
// node's element.
func listSerializedLength(ctx *command.Ctx, a *alloc.Arena, h alloc.Handle, comp bool) int {
	nodes, n := 0, 0
	listval.Nodes(a, h, func(lp []byte, plain bool) bool {
		nodes++
		n++ // the container, 1 or 2: one length byte
		if plain {
			s, v, isInt := listpack.Get(lp, listpack.First(lp))
			if isInt {
				s = strconv.AppendInt(ctx.Scratch[:0], v, 10)
			}
			n += rawStringLen(s, comp)
		} else {
			n += rawStringLen(lp, comp)
		}
		return true
	})
	return rdbLenLen(nodes) + n
}

// rawStringLen is the size of Redis's rdbSaveRawString of s: a canonical integer of up to 11
// characters as an RDB integer when it fits 32 bits; with compression, a string longer than 20
// bytes LZF-compressed when that saves at least 4 bytes; else the string with its length prefix.
func rawStringLen(s []byte, compression bool) int {
	if len(s) <= 11 {
		if v, ok := object.CanonicalInt(s); ok {
			if n := rdbIntLen(v); n > 0 {
				return n
			}
		}
	}
	if len(s) > 20 && compression {
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
