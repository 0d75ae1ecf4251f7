package stringfamily

import (
	"math"
	"strconv"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// incrCommand: INCR key.
func incrCommand(ctx *command.Ctx) { incrDecrCommand(ctx, 1) }

// decrCommand: DECR key.
func decrCommand(ctx *command.Ctx) { incrDecrCommand(ctx, -1) }

// incrbyCommand: INCRBY key increment.
func incrbyCommand(ctx *command.Ctx) {
	incr, ok := conv.String2ll(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	incrDecrCommand(ctx, incr)
}

// decrbyCommand: DECRBY key decrement. The decrement is negated, so its minimum is refused.
func decrbyCommand(ctx *command.Ctx) {
	decr, ok := conv.String2ll(ctx.Args.Arg(2))
	switch {
	case !ok:
		ctx.W.Error(replyerr.NotInteger.Error())
	case decr == math.MinInt64:
		ctx.W.Error(errDecrOverflow.Error())
	default:
		incrDecrCommand(ctx, -decr)
	}
}

// incrDecrCommand is Redis's incrDecrCommand: key's value plus incr, an integer reply.
func incrDecrCommand(ctx *command.Ctx, incr int64) {
	key := ctx.Args.Arg(1)
	v, err := opIncrBy(ctx, ctx.Shard(key), key, incr)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.Notify(keyspace.NotifyString, "incrby", key)
	ctx.W.Int(v)
}

// opIncrBy adds incr to the integer value of key (0 if missing) and stores the sum with the int
// encoding, keeping the key's expire: replyerr.WrongType, replyerr.NotInteger for a value string2ll
// refuses, replyerr.Overflow past int64.
func opIncrBy(ctx *command.Ctx, sh *keyspace.Shard, key []byte, incr int64) (int64, error) {
	a := sh.Arena()
	h, found := ctx.LookupWrite(sh, key)
	var old int64
	if found {
		if object.TypeOf(a, h) != object.TypeString {
			return 0, replyerr.WrongType
		}
		v, ok := object.IntValue(a, h)
		if !ok {
			return 0, replyerr.NotInteger
		}
		old = v
	}
	if (incr < 0 && old < 0 && incr < math.MinInt64-old) ||
		(incr > 0 && old > 0 && incr > math.MaxInt64-old) {
		return 0, replyerr.Overflow
	}
	v := old + incr
	if !found {
		return v, ctx.SetString(sh, key, strconv.AppendInt(ctx.Scratch[:0], v, 10), 0)
	}
	nh, err := object.SetInt(a, h, v)
	sh.UpdateLocked(ctx.DB, key, h, nh) // the record may have moved, even on error
	return v, err
}

// incrbyfloatCommand: INCRBYFLOAT key increment — the new value as a bulk string (in RESP3
// too), computed and printed as Redis's long double (conv.LongDouble).
func incrbyfloatCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	text, err := opIncrByFloat(ctx, ctx.Shard(key), key, ctx.Args.Arg(2))
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.Notify(keyspace.NotifyString, "incrbyfloat", key)
	ctx.W.Bulk(text)
}

// opIncrByFloat adds the increment incrArg to key's value (0 if missing) and stores the sum
// as text, never as an int (Redis's createStringObject), with the key's expire kept. It
// returns the text, in ctx.Scratch when it fits: valid until the handler returns. Errors:
// replyerr.WrongType, replyerr.NotFloat for the value or the increment, errNaNOrInfinity.
func opIncrByFloat(ctx *command.Ctx, sh *keyspace.Shard, key, incrArg []byte) ([]byte, error) {
	a := sh.Arena()
	h, found := ctx.LookupWrite(sh, key)
	var value conv.LongDouble
	var expireAt int64
	if found {
		if object.TypeOf(a, h) != object.TypeString {
			return nil, replyerr.WrongType
		}
		v, ok := conv.String2ld(object.Value(a, h, ctx.Scratch[:0]))
		if !ok {
			return nil, replyerr.NotFloat
		}
		value = v
		expireAt, _ = object.Expire(a, h)
	}
	incr, ok := conv.String2ld(incrArg)
	if !ok {
		return nil, replyerr.NotFloat
	}
	sum, ok := value.Add(incr)
	if !ok {
		return nil, errNaNOrInfinity
	}
	text := conv.AppendLongDouble(ctx.Scratch[:0], sum)
	nh, err := object.NewString(a, key, text, expireAt, object.WriteText)
	if err != nil {
		return nil, err
	}
	replaced, err := sh.ReplaceFlagsLocked(ctx.DB, key, nh, ctx.WriteFlags())
	if err != nil {
		object.Free(a, nh)
		return nil, err
	}
	if !replaced {
		ctx.NotifyNew(key)
	}
	return text, nil
}
