package listfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// llenCommand: LLEN key — the length, 0 for a missing key.
func llenCommand(ctx *command.Ctx) {
	ctx.ReplyKeyInt(ctx.Args.Arg(1), object.TypeList, func(a *alloc.Arena, rec alloc.Handle) int64 {
		return int64(listval.Len(a, rec))
	})
}

// lrangeCommand: LRANGE key start stop — the elements from start to stop inclusive (negative
// indexes count from the tail; an empty array for a missing key or an empty range). The
// indexes are read before the key is looked up.
func lrangeCommand(ctx *command.Ctx) {
	start, ok1 := parseLong(ctx.Args.Arg(2))
	end, ok2 := parseLong(ctx.Args.Arg(3))
	if !ok1 || !ok2 {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !found:
		ctx.W.Array(0)
	default:
		writeRange(ctx, sh.Arena(), rec, start, end)
	}
}

// writeRange is addListRangeReply: the elements of rec from start to end inclusive, as an
// array, walked from the nearer end.
func writeRange(ctx *command.Ctx, a *alloc.Arena, rec alloc.Handle, start, end int64) {
	n := int64(listval.Len(a, rec))
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	start = max(start, 0)
	if start > end || start >= n {
		ctx.W.Array(0)
		return
	}
	end = min(end, n-1)
	count := int(end - start + 1)
	ctx.W.Array(count)
	// Range finds start from the nearer end: LRANGE near either end is O(distance + count).
	listval.Range(a, rec, int(start), count, false, ctx.Scratch[:0], func(elem []byte) bool {
		ctx.W.Bulk(elem)
		return true
	})
}

// lindexCommand: LINDEX key index — the element (null out of range or for a missing key). The
// key is looked up before the index is read, as in Redis.
func lindexCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
		ctx.W.Null()
		return
	}
	index, ok := parseLong(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	if elem, ok := listval.Index(sh.Arena(), rec, clampIndex(index), ctx.Scratch[:0]); ok {
		ctx.W.Bulk(elem)
	} else {
		ctx.W.Null()
	}
}

// lposCommand: LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len] — the index of
// the rank-th match (null when none), or with COUNT an array of up to num-matches indexes (0:
// all). Options are read (repeats allowed, the last wins) before the key is looked up.
func lposCommand(ctx *command.Ctx) {
	rank, count, maxlen := int64(1), int64(-1), int64(0)
	argc := ctx.Args.Len()
	for j := 3; j < argc; j++ {
		opt := ctx.Args.Arg(j)
		more := j+1 < argc
		switch {
		case conv.EqFold(opt, "rank") && more:
			j++
			v, ok := parseLong(ctx.Args.Arg(j))
			if !ok {
				ctx.W.Error(replyerr.NotInteger.Error())
				return
			}
			if v == -1<<63 {
				ctx.W.Error(errLongRange.Error())
				return
			}
			if v == 0 {
				ctx.W.Error(errRankZero.Error())
				return
			}
			rank = v
		case conv.EqFold(opt, "count") && more:
			j++
			v, ok := parseLong(ctx.Args.Arg(j))
			if !ok || v < 0 {
				ctx.W.Error(errCountNegative.Error())
				return
			}
			count = v
		case conv.EqFold(opt, "maxlen") && more:
			j++
			v, ok := parseLong(ctx.Args.Arg(j))
			if !ok || v < 0 {
				ctx.W.Error(errMaxlenNegative.Error())
				return
			}
			maxlen = v
		default:
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found && count != -1:
		ctx.W.Array(0)
		return
	case !found:
		ctx.W.Null()
		return
	}
	a := sh.Arena()
	// A rank or a maxlen past any list's length works as the length does.
	r := clampIndex(rank)
	ml := int(min(maxlen, 1<<62))
	if count == -1 {
		pos := -1
		listval.Pos(a, rec, ctx.Args.Arg(2), r, ml, func(i int) bool {
			pos = i
			return false
		})
		if pos < 0 {
			ctx.W.Null()
		} else {
			ctx.W.Int(int64(pos))
		}
		return
	}
	d := ctx.W.ArrayDeferred()
	n := int64(0)
	listval.Pos(a, rec, ctx.Args.Arg(2), r, ml, func(i int) bool {
		ctx.W.Int(int64(i))
		n++
		return count == 0 || n < count
	})
	ctx.W.SetArrayLen(d, int(n))
}
