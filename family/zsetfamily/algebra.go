package zsetfamily

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/setval"
	"github.com/kvserver/kvserver/zsetval"
)

// The sorted-set algebra: zunionInterDiffGenericCommand of t_zset.c. Inputs are sorted sets
// or sets (any encoding; a set's members score 1), each read in its own shard's arena. The
// result is computed on the Go heap for the one command (a map and a slice), sorted as a
// skiplist orders it (score, then member bytes), then written as the reply or built as a
// sorted set in the destination's shard (its arena), whose encoding Builder.Finish picks as
// zsetConvertToListpackIfNeeded does.

// zsource is one input: its shard's arena and record (rec 0: a missing key), its type, size
// and weight.
type zsource struct {
	a      *alloc.Arena
	rec    alloc.Handle
	isSet  bool
	size   int
	weight float64
}

// same reports whether s and o are the same key's value (Redis compares the objects).
func (s *zsource) same(o *zsource) bool { return s.rec != 0 && s.a == o.a && s.rec == o.rec }

// each calls fn for every member and its score (1 for a set); scratch formats integers.
func (s *zsource) each(scratch []byte, fn func(member []byte, score float64) bool) {
	if s.rec == 0 {
		return
	}
	if s.isSet {
		setval.Each(s.a, s.rec, scratch, func(m []byte) bool { return fn(m, 1) })
		return
	}
	zsetval.Each(s.a, s.rec, scratch, fn)
}

// find is zuiFind: member's score in s (1 in a set), ok false when it is not there.
func (s *zsource) find(member []byte) (float64, bool) {
	switch {
	case s.rec == 0:
		return 0, false
	case s.isSet:
		return 1, setval.IsMember(s.a, s.rec, member)
	}
	return zsetval.Score(s.a, s.rec, member)
}

// scored is one member of a result, on the Go heap.
type scored struct {
	member string
	score  float64
}

// aggregateInto is zunionInterAggregate: SUM (whose inf + -inf NaN is 0, as Redis), MIN or
// MAX of target and val (a NaN val leaves target as it is).
func aggregateInto(target *float64, val float64, agg aggregate) {
	switch agg {
	case aggSum:
		*target += val
		if math.IsNaN(*target) {
			*target = 0
		}
	case aggMin:
		if val < *target {
			*target = val
		}
	case aggMax:
		if val > *target {
			*target = val
		}
	}
}

// weighted is weight × score, a NaN (0 × inf) made 0 as Redis does for a member's first
// score.
func weighted(weight, score float64) float64 {
	v := weight * score
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// zunionstoreCommand: ZUNIONSTORE destination numkeys key [key ...] [WEIGHTS weight ...]
// [AGGREGATE SUM|MIN|MAX] — the union's size, stored in destination.
func zunionstoreCommand(ctx *command.Ctx) { zsetOpGeneric(ctx, true, 2, opUnion, false) }

// zinterstoreCommand: ZINTERSTORE destination numkeys key [key ...] [WEIGHTS …] [AGGREGATE …].
func zinterstoreCommand(ctx *command.Ctx) { zsetOpGeneric(ctx, true, 2, opInter, false) }

// zdiffstoreCommand: ZDIFFSTORE destination numkeys key [key ...].
func zdiffstoreCommand(ctx *command.Ctx) { zsetOpGeneric(ctx, true, 2, opDiff, false) }

// zunionCommand: ZUNION numkeys key [key ...] [WEIGHTS …] [AGGREGATE …] [WITHSCORES].
func zunionCommand(ctx *command.Ctx) { zsetOpGeneric(ctx, false, 1, opUnion, false) }

// zinterCommand: ZINTER numkeys key [key ...] [WEIGHTS …] [AGGREGATE …] [WITHSCORES].
func zinterCommand(ctx *command.Ctx) { zsetOpGeneric(ctx, false, 1, opInter, false) }

// zintercardCommand: ZINTERCARD numkeys key [key ...] [LIMIT limit] — the intersection's
// size, counting stopped at limit (0: no limit).
func zintercardCommand(ctx *command.Ctx) { zsetOpGeneric(ctx, false, 1, opInter, true) }

// zdiffCommand: ZDIFF numkeys key [key ...] [WITHSCORES].
func zdiffCommand(ctx *command.Ctx) { zsetOpGeneric(ctx, false, 1, opDiff, false) }

// zsetOpGeneric is zunionInterDiffGenericCommand: numkeys, then every input looked up (a key
// neither a sorted set nor a set answers WRONGTYPE before any option is read), then the
// options, then the operation. Union and intersection take the inputs smallest first;
// a difference keeps the first key first.
func zsetOpGeneric(ctx *command.Ctx, store bool, numkeysIdx int, op setOp, cardOnly bool) {
	numkeys, err := parseNumkeys(ctx.Args, numkeysIdx, ctx.Cmd.FullName)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	srcs := make([]zsource, numkeys)
	for i := range srcs {
		key := ctx.Args.Arg(numkeysIdx + 1 + i)
		sh := ctx.Shard(key)
		s := &srcs[i]
		s.a = sh.Arena()
		if rec, found := ctx.LookupRead(sh, key); found {
			switch object.TypeOf(s.a, rec) {
			case object.TypeZSet:
				s.rec, s.size = rec, zsetval.Len(s.a, rec)
			case object.TypeSet:
				s.rec, s.isSet, s.size = rec, true, setval.Len(s.a, rec)
			default:
				ctx.W.Error(replyerr.WrongType.Error())
				return
			}
		}
	}
	o, err := parseSetOpOptions(ctx.Args, numkeysIdx+1+numkeys, numkeys, op, store, cardOnly, nil)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	for i := range srcs {
		srcs[i].weight = o.weights[i]
	}
	if op != opDiff {
		slices.SortStableFunc(srcs, func(x, y zsource) int { return x.size - y.size })
	}
	var scratch [32]byte
	var res []scored
	switch op {
	case opInter:
		var card int64
		res, card = zinter(srcs, o, cardOnly, scratch[:0])
		if cardOnly {
			ctx.W.Int(card)
			return
		}
	case opUnion:
		res = zunion(srcs, o.agg, scratch[:0])
	default:
		res = zdiff(srcs, scratch[:0])
	}
	slices.SortFunc(res, func(x, y scored) int {
		if c := cmp.Compare(x.score, y.score); c != 0 {
			return c
		}
		return strings.Compare(x.member, y.member)
	})
	if store {
		storeScored(ctx, res, op)
		return
	}
	resp3 := ctx.W.Proto() == 3
	w := ctx.W
	if o.withScores && !resp3 {
		w.Array(2 * len(res))
	} else {
		w.Array(len(res))
	}
	for _, e := range res {
		if o.withScores && resp3 {
			w.Array(2)
		}
		w.BulkString(e.member)
		if o.withScores {
			w.Double(e.score)
		}
	}
}

// zinter is the intersection: the smallest input's members found in every other input, their
// weighted scores aggregated; with cardOnly only counted (up to o.limit when set).
func zinter(srcs []zsource, o setOpOptions, cardOnly bool, scratch []byte) ([]scored, int64) {
	first := &srcs[0]
	if first.size == 0 {
		return nil, 0
	}
	var res []scored
	if !cardOnly {
		res = make([]scored, 0, first.size)
	}
	var card int64
	first.each(scratch, func(m []byte, s float64) bool {
		score := weighted(first.weight, s)
		for j := 1; j < len(srcs); j++ {
			src := &srcs[j]
			var v float64
			if src.same(first) {
				v = s * src.weight
			} else if found, ok := src.find(m); ok {
				v = found * src.weight
			} else {
				return true
			}
			aggregateInto(&score, v, o.agg)
		}
		if cardOnly {
			card++
			return o.limit == 0 || card < o.limit
		}
		res = append(res, scored{string(m), score})
		return true
	})
	return res, card
}

// zunion is the union: every member of every input, its weighted scores aggregated in the
// inputs' order.
func zunion(srcs []zsource, agg aggregate, scratch []byte) []scored {
	largest := srcs[len(srcs)-1].size // the inputs are sorted by size
	res := make([]scored, 0, largest)
	idx := make(map[string]int, largest)
	for i := range srcs {
		src := &srcs[i]
		src.each(scratch, func(m []byte, s float64) bool {
			score := weighted(src.weight, s)
			if k, ok := idx[string(m)]; ok {
				aggregateInto(&res[k].score, score, agg)
				return true
			}
			member := string(m) // one copy, the map's key and the result's
			idx[member] = len(res)
			res = append(res, scored{member, score})
			return true
		})
	}
	return res
}

// zdiff is the difference: the first input's members in none of the others, with their
// scores; nothing when another input is the first key's own value.
func zdiff(srcs []zsource, scratch []byte) []scored {
	first := &srcs[0]
	if first.size == 0 {
		return nil
	}
	for j := 1; j < len(srcs); j++ {
		if srcs[j].same(first) {
			return nil
		}
	}
	res := make([]scored, 0, first.size)
	first.each(scratch, func(m []byte, s float64) bool {
		for j := 1; j < len(srcs); j++ {
			if _, ok := srcs[j].find(m); ok {
				return true
			}
		}
		res = append(res, scored{string(m), s})
		return true
	})
	return res
}

// storeScored stores a set operation's result under argument 1 (its shard's arena), with
// the operation's event, and answers its size.
func storeScored(ctx *command.Ctx, res []scored, op setOp) {
	dstKey := ctx.Args.Arg(1)
	maxLen := 0
	for _, e := range res {
		maxLen = max(maxLen, len(e.member))
	}
	b := zsetval.NewBuilder(ctx.Shard(dstKey).Arena(), dstKey, len(res), maxLen, 0)
	for _, e := range res {
		if err := b.Add([]byte(e.member), e.score); err != nil {
			b.Abort()
			ctx.W.Error(replyError(err))
			return
		}
	}
	event := [...]string{opUnion: "zunionstore", opInter: "zinterstore", opDiff: "zdiffstore"}[op]
	n, err := storeResult(ctx, dstKey, b, len(res), event)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.W.Int(int64(n))
}
