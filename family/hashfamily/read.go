package hashfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/object"
)

// hgetCommand: HGET key field — the value, or a null.
func hgetCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !found:
		ctx.W.Null()
	default:
		v, ok := hashval.Get(sh.Arena(), rec, ctx.Args.Arg(2), ctx.Scratch[:0])
		replyValue(ctx, v, ok)
	}
}

// replyValue answers a value or, when !ok, a null.
func replyValue(ctx *command.Ctx, v []byte, ok bool) {
	if !ok {
		ctx.W.Null()
		return
	}
	ctx.W.Bulk(v)
}

// hmgetCommand: HMGET key field [field ...] — an array of values and nulls; WRONGTYPE for
// another type.
func hmgetCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	n := ctx.Args.Len()
	ctx.W.Array(n - 2)
	for i := 2; i < n; i++ {
		if !found {
			ctx.W.Null()
			continue
		}
		v, ok := hashval.Get(sh.Arena(), rec, ctx.Args.Arg(i), ctx.Scratch[:0])
		replyValue(ctx, v, ok)
	}
}

// hlenCommand: HLEN key — the number of fields, 0 for a missing key.
func hlenCommand(ctx *command.Ctx) {
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeHash, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return int64(hashval.Len(a, rec))
	})
}

// hstrlenCommand: HSTRLEN key field — the value's length, 0 for a missing field or key.
func hstrlenCommand(ctx *command.Ctx) {
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeHash, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return int64(hashval.StrLen(a, rec, ctx.Args.Arg(2)))
	})
}

// hexistsCommand: HEXISTS key field — 1 or 0.
func hexistsCommand(ctx *command.Ctx) {
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeHash, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return b2i(hashval.Exists(a, rec, ctx.Args.Arg(2)))
	})
}

// What genericHgetallCommand replies with.
const (
	withFields = 1 << iota
	withValues
)

// hkeysCommand: HKEYS key — the fields.
func hkeysCommand(ctx *command.Ctx) { hgetallGeneric(ctx, withFields) }

// hvalsCommand: HVALS key — the values.
func hvalsCommand(ctx *command.Ctx) { hgetallGeneric(ctx, withValues) }

// hgetallCommand: HGETALL key — fields and values, a map in RESP3.
func hgetallCommand(ctx *command.Ctx) { hgetallGeneric(ctx, withFields|withValues) }

// hgetallGeneric is Redis's genericHgetallCommand: the hash's fields, values or both, in the
// listpack's order or the table's; a missing key is an empty array (an empty map for both).
func hgetallGeneric(ctx *command.Ctx, what int) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	n := 0
	if found {
		n = hashval.Len(sh.Arena(), rec)
	}
	if what == withFields|withValues {
		ctx.W.Map(n)
	} else {
		ctx.W.Array(n)
	}
	if !found {
		return
	}
	hashval.Each(sh.Arena(), rec, ctx.Scratch[:0], func(f, v []byte) bool {
		if what&withFields != 0 {
			ctx.W.Bulk(f)
		}
		if what&withValues != 0 {
			ctx.W.Bulk(v)
		}
		return true
	})
}
