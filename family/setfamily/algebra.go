package setfamily

import (
	"slices"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/resp"
	"github.com/kvserver/kvserver/setval"
)

// The set algebra: sinterGenericCommand and sunionDiffGenericCommand of t_set.c. Sources may
// live in different shards, each read in its own arena; a *STORE destination is built in the
// destination's shard (its arena), a reply's temporary set in the first key's.

// source is one input set: its shard's arena and record, rec 0 for a missing key.
type source struct {
	a    *alloc.Arena
	rec  alloc.Handle
	size int
}

func (s source) same(o source) bool { return s.rec != 0 && s.a == o.a && s.rec == o.rec }

// isMember tests a member given as EachRaw gives it.
func (s source) isMember(m []byte, n int64, isInt bool) bool {
	if isInt {
		return setval.IsMemberInt(s.a, s.rec, n)
	}
	return setval.IsMember(s.a, s.rec, m)
}

// lookupSources reads the sets named by args[from:to]: a missing key is rec 0, a key of
// another type WrongType (after every lookup before it, as Redis's loop).
func lookupSources(ctx *command.Ctx, from, to int) ([]source, error) {
	srcs := make([]source, 0, to-from)
	for i := from; i < to; i++ {
		key := ctx.Args.Arg(i)
		sh := ctx.Shard(key)
		rec, found, err := lookupRead(ctx, sh, key)
		if err != nil {
			return nil, err
		}
		s := source{a: sh.Arena()}
		if found {
			s.rec, s.size = rec, setval.Len(s.a, rec)
		}
		srcs = append(srcs, s)
	}
	return srcs, nil
}

// addTo adds a member given as EachRaw gives it to set rec of arena a.
func addTo(a *alloc.Arena, rec alloc.Handle, m []byte, n int64, isInt bool) (bool, error) {
	if isInt {
		return setval.AddInt(a, rec, n)
	}
	return setval.Add(a, rec, m)
}

// bulkRaw replies a member given as EachRaw gives it.
func bulkRaw(ctx *command.Ctx, m []byte, n int64, isInt bool) {
	if isInt {
		ctx.W.Bulk(strconv.AppendInt(ctx.Scratch[:0], n, 10))
	} else {
		ctx.W.Bulk(m)
	}
}

// storeResult stores set rec (made in dstKey's shard) under dstKey when it is not empty —
// setKey, with a `new` event for a new key and event — else frees it and deletes dstKey
// (with `del`). It returns the size stored.
func storeResult(ctx *command.Ctx, dstKey []byte, rec alloc.Handle, event string) (int, error) {
	sh := ctx.Shard(dstKey)
	a := sh.Arena()
	n := setval.Len(a, rec)
	if n == 0 {
		object.Free(a, rec)
		if sh.DeleteLocked(ctx.DB, dstKey) {
			ctx.Notify(keyspace.NotifyGeneric, command.EventDel, dstKey)
		}
		return 0, nil
	}
	replaced, err := sh.ReplaceFlagsLocked(ctx.DB, dstKey, rec, ctx.WriteFlags())
	if err != nil {
		object.Free(a, rec)
		return 0, err
	}
	if !replaced {
		ctx.NotifyNew(dstKey)
	}
	ctx.Notify(keyspace.NotifySet, event, dstKey)
	return n, nil
}

// sinterCommand: SINTER key [key ...] — the intersection, a set in RESP3.
func sinterCommand(ctx *command.Ctx) { sinterGeneric(ctx, 1, ctx.Args.Len(), false, false, 0) }

// sinterstoreCommand: SINTERSTORE destination key [key ...] — the intersection's size.
func sinterstoreCommand(ctx *command.Ctx) {
	sinterGeneric(ctx, 2, ctx.Args.Len(), true, false, 0)
}

// sintercardCommand: SINTERCARD numkeys key [key ...] [LIMIT limit] — the intersection's size,
// counting stopped at limit (0: no limit).
func sintercardCommand(ctx *command.Ctx) {
	// Redis's range checks give their message for a non-integer too.
	numkeys, ok := conv.String2ll(ctx.Args.Arg(1))
	switch {
	case !ok || numkeys < 1:
		ctx.W.Error(errNumkeys.Error())
		return
	case numkeys > int64(ctx.Args.Len()-2):
		ctx.W.Error(errNumkeysArgs.Error())
		return
	}
	var limit int64
	for j := 2 + int(numkeys); j < ctx.Args.Len(); j++ {
		if !conv.EqFold(ctx.Args.Arg(j), "limit") || j == ctx.Args.Len()-1 {
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
		j++
		v, ok := conv.String2ll(ctx.Args.Arg(j))
		if !ok || v < 0 {
			ctx.W.Error(errLimitNegative.Error())
			return
		}
		limit = v
	}
	sinterGeneric(ctx, 2, 2+int(numkeys), false, true, limit)
}

// sinterGeneric is sinterGenericCommand over the keys args[from:to]: the smallest set's
// members tested against the others. A missing key makes the result empty at once. A
// destination starts as an intset when the smallest set is one, else as a listpack, and is
// stored as an intset when every member is an integer and it fits (maybeConvertToIntset).
// store: the destination is args[1].
func sinterGeneric(ctx *command.Ctx, from, to int, store, cardOnly bool, limit int64) {
	var dstKey []byte
	if store {
		dstKey = ctx.Args.Arg(1)
	}
	srcs, err := lookupSources(ctx, from, to)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if slices.ContainsFunc(srcs, func(s source) bool { return s.rec == 0 }) {
		switch {
		case store:
			sh := ctx.Shard(dstKey)
			if sh.DeleteLocked(ctx.DB, dstKey) {
				ctx.Notify(keyspace.NotifyGeneric, command.EventDel, dstKey)
			}
			ctx.W.Int(0)
		case cardOnly:
			ctx.W.Int(0)
		default:
			ctx.W.Set(0)
		}
		return
	}
	slices.SortStableFunc(srcs, func(x, y source) int { return x.size - y.size })
	first := srcs[0]
	firstEnc := setval.Encoding(first.a, first.rec)

	var dst alloc.Handle
	var dstA *alloc.Arena
	var pending resp.Deferred
	switch {
	case store:
		enc := object.EncListpack
		if firstEnc == object.EncIntset {
			enc = object.EncIntset
		}
		dstA = ctx.Shard(dstKey).Arena()
		if dst, err = setval.NewEncoded(dstA, dstKey, enc, 0); err != nil {
			ctx.W.Error(replyError(err))
			return
		}
	case !cardOnly:
		pending = ctx.W.SetDeferred()
	}

	card, onlyInts := int64(0), true
	setval.EachRaw(first.a, first.rec, func(m []byte, n int64, isInt bool) bool {
		for _, s := range srcs[1:] {
			if !s.same(first) && !s.isMember(m, n, isInt) {
				return true
			}
		}
		switch {
		case cardOnly:
			card++
			return limit == 0 || card < limit
		case !store:
			bulkRaw(ctx, m, n, isInt)
			card++
		default:
			if !isInt {
				if v, ok := conv.String2ll(m); ok && firstEnc == object.EncHashtable {
					n, isInt = v, true // an integer stored as a string: added as one
				} else {
					onlyInts = false
				}
			}
			_, err = addTo(dstA, dst, m, n, isInt)
		}
		return err == nil
	})

	switch {
	case cardOnly:
		ctx.W.Int(card)
	case !store:
		ctx.W.SetSetLen(pending, int(card))
	default:
		if err == nil && onlyInts {
			err = setval.MaybeConvertToIntset(dstA, dst)
		}
		var n int
		if err == nil {
			n, err = storeResult(ctx, dstKey, dst, "sinterstore")
		} else {
			object.Free(dstA, dst)
		}
		if err != nil {
			ctx.W.Error(replyError(err))
			return
		}
		ctx.W.Int(int64(n))
	}
}

// sunionCommand: SUNION key [key ...] — the union, a set in RESP3.
func sunionCommand(ctx *command.Ctx) { sunionDiffGeneric(ctx, 1, false, false) }

// sunionstoreCommand: SUNIONSTORE destination key [key ...] — the union's size.
func sunionstoreCommand(ctx *command.Ctx) { sunionDiffGeneric(ctx, 2, true, false) }

// sdiffCommand: SDIFF key [key ...] — the first set's members in none of the others.
func sdiffCommand(ctx *command.Ctx) { sunionDiffGeneric(ctx, 1, false, true) }

// sdiffstoreCommand: SDIFFSTORE destination key [key ...] — the difference's size.
func sdiffstoreCommand(ctx *command.Ctx) { sunionDiffGeneric(ctx, 2, true, true) }

// sunionDiffGeneric is sunionDiffGenericCommand over args[from:]. The result is built as Redis
// builds it, so that a stored result has Redis's encoding: an intset first, converted as
// members come, except that a reply's temporary set is a hash table as soon as one source is
// not an intset. SDIFF picks Redis's algorithm: the first set's members tested against the
// others (sorted biggest first), or all of them added and the others' removed, whichever
// Redis's estimate says is less work; a source that is the first set makes it empty.
// store: the destination is args[1].
func sunionDiffGeneric(ctx *command.Ctx, from int, store, diff bool) {
	dstKey := ctx.Args.Arg(from) // a reply's temporary set: made in the first key's shard
	if store {
		dstKey = ctx.Args.Arg(1)
	}
	srcs, err := lookupSources(ctx, from, ctx.Args.Len())
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	enc, sameset := object.EncIntset, false
	for j, s := range srcs {
		if s.rec == 0 {
			continue
		}
		if !store && setval.Encoding(s.a, s.rec) != object.EncIntset {
			enc = object.EncHashtable
		}
		if j > 0 && s.same(srcs[0]) {
			sameset = true
		}
	}
	algo := 1
	if diff && srcs[0].rec != 0 && !sameset {
		var one, two int
		for _, s := range srcs {
			if s.rec != 0 {
				one += srcs[0].size
				two += s.size
			}
		}
		if one/2 > two {
			algo = 2
		}
		if algo == 1 {
			slices.SortStableFunc(srcs[1:], func(x, y source) int { return y.size - x.size })
		}
	}

	dstSh := ctx.Shard(dstKey)
	dstA := dstSh.Arena()
	dst, err := setval.NewEncoded(dstA, dstKey, enc, 0)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	add := func(m []byte, n int64, isInt bool) bool {
		_, err = addTo(dstA, dst, m, n, isInt)
		return err == nil
	}
	switch {
	case !diff:
		for _, s := range srcs {
			if s.rec != 0 && err == nil {
				setval.EachRaw(s.a, s.rec, add)
			}
		}
	case sameset || srcs[0].rec == 0:
	case algo == 1:
		setval.EachRaw(srcs[0].a, srcs[0].rec, func(m []byte, n int64, isInt bool) bool {
			for _, s := range srcs[1:] {
				if s.rec != 0 && s.isMember(m, n, isInt) {
					return true
				}
			}
			return add(m, n, isInt)
		})
	default:
		setval.EachRaw(srcs[0].a, srcs[0].rec, add)
		for _, s := range srcs[1:] {
			if s.rec == 0 || err != nil || setval.Len(dstA, dst) == 0 {
				continue
			}
			setval.EachRaw(s.a, s.rec, func(m []byte, n int64, isInt bool) bool {
				if isInt {
					m = strconv.AppendInt(ctx.Scratch[:0], n, 10)
				}
				_, err = setval.Remove(dstA, dst, m)
				return err == nil
			})
		}
	}
	if err != nil {
		object.Free(dstA, dst)
		ctx.W.Error(replyError(err))
		return
	}
	if !store {
		writeMembers(ctx, dstSh, dst)
		object.Free(dstA, dst)
		return
	}
	event := "sunionstore"
	if diff {
		event = "sdiffstore"
	}
	n, err := storeResult(ctx, dstKey, dst, event)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.W.Int(int64(n))
}
