package listfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// lpopCommand: LPOP key [count] — the head element (null for a missing key), or with a count
// an array of up to count elements (a null array for a missing key, an empty one for 0).
func lpopCommand(ctx *command.Ctx) { popGenericCommand(ctx, false) }

// rpopCommand: RPOP key [count], from the tail.
func rpopCommand(ctx *command.Ctx) { popGenericCommand(ctx, true) }

// popGenericCommand is LPOP/RPOP: arity, the count (getPositiveLongFromObjectOrReply), the
// lookup, then the pop and listElementsRemoved.
func popGenericCommand(ctx *command.Ctx, tail bool) {
	if ctx.Args.Len() > 3 {
		ctx.W.Error(replyerr.WrongArgs(ctx.Cmd.FullName).Error())
		return
	}
	hasCount := ctx.Args.Len() == 3
	var count int64
	if hasCount {
		var ok bool
		if count, ok = parseLong(ctx.Args.Arg(2)); !ok || count < 0 {
			ctx.W.Error(errMustBePositive.Error())
			return
		}
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupWrite(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found && hasCount:
		ctx.W.NullArray()
		return
	case !found:
		ctx.W.Null()
		return
	case hasCount && count == 0:
		ctx.W.Array(0)
		return
	}
	if !hasCount {
		count = -1
	}
	if err := popAndReply(ctx, sh, key, rec, tail, count, false); err != nil {
		ctx.W.Error(replyError(err))
	}
}

// popAndReply pops from key's list rec (which has elements) and answers: count -1 one element
// as a bulk; else an array of up to count elements, inside [key, [...]] when withKey
// (listPopRangeAndReplyWithKey). Then listElementsRemoved. On an error nothing is answered.
func popAndReply(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, tail bool, count int64, withKey bool) error {
	a := sh.Arena()
	mark := ctx.W.Len()
	n := 1
	if count >= 0 {
		n = int(min(count, int64(listval.Len(a, rec))))
		if withKey {
			ctx.W.Array(2)
			ctx.W.Bulk(key)
		}
		ctx.W.Array(n)
	} else if withKey {
		ctx.W.Array(2)
		ctx.W.Bulk(key)
	}
	_, err := listval.Pop(a, rec, tail, n, ctx.Scratch[:0], func(elem []byte) { ctx.W.Bulk(elem) })
	if err != nil {
		ctx.W.Truncate(mark)
		return err
	}
	elementsRemoved(ctx, sh, key, rec, tail)
	return nil
}

// lmpopCommand: LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count] — [key, [elements]] from
// the first key holding a list, or a null array.
func lmpopCommand(ctx *command.Ctx) { lmpopGenericCommand(ctx, 1, false) }

// blmpopCommand: BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count] — LMPOP, or
// blocks until a key holds a list.
func blmpopCommand(ctx *command.Ctx) { lmpopGenericCommand(ctx, 2, true) }

// lmpopGenericCommand parses LMPOP's and BLMPOP's arguments in Redis's order (numkeys, where,
// COUNT once), then pops or blocks.
func lmpopGenericCommand(ctx *command.Ctx, numkeysIdx int, block bool) {
	numkeys, ok := parseLong(ctx.Args.Arg(numkeysIdx))
	if !ok || numkeys < 1 {
		ctx.W.Error(errNumkeys.Error())
		return
	}
	argc := ctx.Args.Len()
	if numkeys >= int64(argc) || numkeysIdx+int(numkeys)+1 >= argc {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	whereIdx := numkeysIdx + int(numkeys) + 1
	tail, ok := parseWhere(ctx.Args.Arg(whereIdx))
	if !ok {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	count := int64(-1)
	for j := whereIdx + 1; j < argc; j++ {
		if count == -1 && conv.EqFold(ctx.Args.Arg(j), "count") && j+1 < argc {
			j++
			c, ok := parseLong(ctx.Args.Arg(j))
			if !ok || c < 1 {
				ctx.W.Error(errCountPositive.Error())
				return
			}
			count = c
			continue
		}
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	if count == -1 {
		count = 1
	}
	from, to := numkeysIdx+1, whereIdx
	if block {
		blockingPopGeneric(ctx, from, to, tail, 1, count)
		return
	}
	served, err := popFirst(ctx, from, to, tail, count)
	if err == nil && !served {
		ctx.W.NullArray()
	}
}

// popFirst pops from the first of the keys in arguments [from, to) that holds a list and
// answers [key, element] (count -1) or [key, [elements]]; served false when none holds one
// (nothing answered). A key of another type answers WRONGTYPE (err non-nil, answered).
func popFirst(ctx *command.Ctx, from, to int, tail bool, count int64) (served bool, err error) {
	for j := from; j < to; j++ {
		key := ctx.Args.Arg(j)
		sh := ctx.Shard(key)
		rec, found, err := lookupWrite(ctx, sh, key)
		if err != nil {
			ctx.W.Error(err.Error())
			return false, err
		}
		if !found || listval.Len(sh.Arena(), rec) == 0 {
			continue
		}
		if err := popAndReply(ctx, sh, key, rec, tail, count, true); err != nil {
			ctx.W.Error(replyError(err))
			return false, err
		}
		return true, nil
	}
	return false, nil
}

// blpopCommand: BLPOP key [key ...] timeout — [key, element] from the first key holding a
// list, or blocks until one does (a null array when the time runs out).
func blpopCommand(ctx *command.Ctx) {
	blockingPopGeneric(ctx, 1, ctx.Args.Len()-1, false, ctx.Args.Len()-1, -1)
}

// brpopCommand: BRPOP key [key ...] timeout, from the tail.
func brpopCommand(ctx *command.Ctx) {
	blockingPopGeneric(ctx, 1, ctx.Args.Len()-1, true, ctx.Args.Len()-1, -1)
}

// blockingPopGeneric is blockingPopGenericCommand: the timeout at timeoutIdx is read first;
// then the keys in arguments [from, to) are tried in order as LMPOP does (count -1: one
// element, [key, element]); when none holds a list the command blocks on all of them.
func blockingPopGeneric(ctx *command.Ctx, from, to int, tail bool, timeoutIdx int, count int64) {
	deadline, errText := command.ParseTimeout(ctx.Args.Arg(timeoutIdx))
	if errText != "" {
		ctx.W.Error(errText)
		return
	}
	served, err := popFirst(ctx, from, to, tail, count)
	if err != nil || served {
		return
	}
	keys := make([][]byte, 0, to-from)
	for j := from; j < to; j++ {
		keys = append(keys, ctx.Args.Arg(j))
	}
	ctx.Block(object.TypeList, deadline, command.TimeoutNullArray, keys...)
}
