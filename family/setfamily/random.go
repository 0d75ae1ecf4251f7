package setfamily

import (
	"math"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/setval"
)

// spopCommand: SPOP key [count] — a random member removed (a null for a missing key), or
// with a count a set of up to count of them (an empty set for a missing key or count 0). The
// key goes with its last member.
func spopCommand(ctx *command.Ctx) {
	switch ctx.Args.Len() {
	case 2:
	case 3:
		spopWithCountCommand(ctx)
		return
	default:
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
		ctx.W.Null()
		return
	}
	a := sh.Arena()
	m, err := setval.Pop(a, rec, ctx.Scratch[:0])
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.Notify(keyspace.NotifySet, "spop", key)
	ctx.W.Bulk(m)
	if !removeIfEmpty(ctx, sh, key, setval.Len(a, rec)) {
		sh.UpdateLocked(ctx.DB, key, rec, rec)
	}
}

// spopWithCountCommand is SPOP key count: count ≥ size gives the whole set and deletes the
// key; otherwise setval.PopCount's two strategies.
func spopWithCountCommand(ctx *command.Ctx) {
	// getPositiveLongFromObjectOrReply: its message for a non-integer too.
	l, ok := conv.String2ll(ctx.Args.Arg(2))
	if !ok || l < 0 {
		ctx.W.Error(errMustBePositive.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found || l == 0:
		ctx.W.Set(0)
		return
	}
	a := sh.Arena()
	size := int64(setval.Len(a, rec))
	ctx.Notify(keyspace.NotifySet, "spop", key)
	if l >= size {
		writeMembers(ctx, sh, rec)
		removeIfEmpty(ctx, sh, key, 0)
		return
	}
	mark := ctx.W.Len()
	ctx.W.Set(int(l))
	err = setval.PopCount(a, rec, int(l), func(m []byte) { ctx.W.Bulk(m) })
	if err != nil {
		ctx.W.Truncate(mark) // the set is as the pops left it; the reply says out of memory
		ctx.W.Error(replyError(err))
	}
	sh.UpdateLocked(ctx.DB, key, rec, rec)
}

// srandmemberCommand: SRANDMEMBER key [count] — a random member (a null for a missing key),
// or with a count an array: distinct members for a positive count, with repetition for a
// negative one (setval.RandomMembers).
func srandmemberCommand(ctx *command.Ctx) {
	switch ctx.Args.Len() {
	case 2:
	case 3:
		srandmemberWithCountCommand(ctx)
		return
	default:
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !found:
		ctx.W.Null()
	default:
		ctx.W.Bulk(setval.RandomMember(sh.Arena(), rec, ctx.Scratch[:0]))
	}
}

// srandmemberWithCountCommand is SRANDMEMBER key count; the count is checked before the key.
func srandmemberWithCountCommand(ctx *command.Ctx) {
	l, ok := conv.String2ll(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	if l == math.MinInt64 {
		ctx.W.Error(errCountRange.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found || l == 0:
		ctx.W.Array(0)
		return
	}
	a := sh.Arena()
	ctx.W.Array(int(setval.RandomCount(int64(setval.Len(a, rec)), l)))
	setval.RandomMembers(a, rec, l, ctx.Scratch[:0], func(m []byte) { ctx.W.Bulk(m) })
}
