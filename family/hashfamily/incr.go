package hashfamily

import (
	"math"
	"strconv"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/replyerr"
)

// hincrbyCommand: HINCRBY key field increment — the new value; `hincrby`.
func hincrbyCommand(ctx *command.Ctx) {
	incr, ok := conv.String2ll(ctx.Args.Arg(3))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	key := ctx.Args.Arg(1)
	v, err := opHIncrBy(ctx, ctx.Shard(key), key, ctx.Args.Arg(2), incr)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Int(v)
}

// opHIncrBy adds incr to the integer value of field (0 if missing) in key's hash (made if
// missing): errHashNotInteger for a value string2ll refuses, replyerr.Overflow past int64.
func opHIncrBy(ctx *command.Ctx, sh *keyspace.Shard, key, field []byte, incr int64) (int64, error) {
	rec, err := lookupWriteOrCreate(ctx, sh, key)
	if err != nil {
		return 0, err
	}
	a := sh.Arena()
	var old int64
	if s, found := hashval.Get(a, rec, field, ctx.Scratch[:0]); found {
		v, ok := conv.String2ll(s)
		if !ok {
			return 0, errHashNotInteger
		}
		old = v
	}
	if (incr < 0 && old < 0 && incr < math.MinInt64-old) ||
		(incr > 0 && old > 0 && incr > math.MaxInt64-old) {
		endWrite(ctx, sh, key, rec, false, "")
		return 0, replyerr.Overflow
	}
	v := old + incr
	_, err = hashval.Set(a, rec, field, strconv.AppendInt(ctx.Scratch[:0], v, 10))
	endWrite(ctx, sh, key, rec, err == nil, "hincrby")
	return v, err
}

// hincrbyfloatCommand: HINCRBYFLOAT key field increment — the new value as a bulk string (in
// RESP3 too), computed and printed as Redis's long double, as INCRBYFLOAT; `hincrbyfloat`.
func hincrbyfloatCommand(ctx *command.Ctx) {
	incr, ok := conv.String2ld(ctx.Args.Arg(3))
	if !ok {
		ctx.W.Error(replyerr.NotFloat.Error())
		return
	}
	if incr.IsInf() {
		ctx.W.Error(errValueNaNOrInf.Error())
		return
	}
	key := ctx.Args.Arg(1)
	text, err := opHIncrByFloat(ctx, ctx.Shard(key), key, ctx.Args.Arg(2), incr)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Bulk(text)
}

// opHIncrByFloat adds incr to the value of field (0 if missing) in key's hash (made if
// missing) and stores the sum as text. It returns the text, in ctx.Scratch when it fits: valid
// until the handler returns. Errors: errHashNotFloat, errNaNOrInfinity.
func opHIncrByFloat(ctx *command.Ctx, sh *keyspace.Shard, key, field []byte, incr conv.LongDouble) ([]byte, error) {
	rec, err := lookupWriteOrCreate(ctx, sh, key)
	if err != nil {
		return nil, err
	}
	a := sh.Arena()
	var value conv.LongDouble
	if s, found := hashval.Get(a, rec, field, ctx.Scratch[:0]); found {
		v, ok := conv.String2ld(s)
		if !ok {
			return nil, errHashNotFloat
		}
		value = v
	}
	sum, ok := value.Add(incr)
	if !ok {
		endWrite(ctx, sh, key, rec, false, "")
		return nil, errNaNOrInfinity
	}
	text := conv.AppendLongDouble(ctx.Scratch[:0], sum)
	_, err = hashval.Set(a, rec, field, text)
	endWrite(ctx, sh, key, rec, err == nil, "hincrbyfloat")
	return text, err
}
