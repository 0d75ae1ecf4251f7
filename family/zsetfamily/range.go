package zsetfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/resp"
	"github.com/kvserver/kvserver/zsetval"
)

// zrangeCommand: ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count]
// [WITHSCORES] — members (with scores: pairs, flat in RESP2, [member, score] arrays in RESP3).
func zrangeCommand(ctx *command.Ctx) { zrangeGeneric(ctx, 1, false, rangeAuto, dirAuto) }

// zrangestoreCommand: ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]
// — the range stored in dst (deleted when it is empty); the number stored.
func zrangestoreCommand(ctx *command.Ctx) { zrangeGeneric(ctx, 2, true, rangeAuto, dirAuto) }

// zrevrangeCommand: ZREVRANGE key start stop [WITHSCORES] — ranks from the highest score.
func zrevrangeCommand(ctx *command.Ctx) { zrangeGeneric(ctx, 1, false, rangeRank, dirReverse) }

// zrangebyscoreCommand: ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count].
func zrangebyscoreCommand(ctx *command.Ctx) {
	zrangeGeneric(ctx, 1, false, rangeScore, dirForward)
}

// zrevrangebyscoreCommand: ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count].
func zrevrangebyscoreCommand(ctx *command.Ctx) {
	zrangeGeneric(ctx, 1, false, rangeScore, dirReverse)
}

// zrangebylexCommand: ZRANGEBYLEX key min max [LIMIT offset count].
func zrangebylexCommand(ctx *command.Ctx) { zrangeGeneric(ctx, 1, false, rangeLex, dirForward) }

// zrevrangebylexCommand: ZREVRANGEBYLEX key max min [LIMIT offset count].
func zrevrangebylexCommand(ctx *command.Ctx) {
	zrangeGeneric(ctx, 1, false, rangeLex, dirReverse)
}

// zrangeGeneric is zrangeGenericCommand for the source key at keyIdx (store: the destination
// is argument 1): the options and the range, then the key — a missing one is an empty reply,
// or an empty result for a store — then the range by rank, score or lex into the reply or
// into a sorted set built in the destination's shard.
func zrangeGeneric(ctx *command.Ctx, keyIdx int, store bool, kind rangeKind, dir direction) {
	o, err := parseRangeOptions(ctx.Args, keyIdx, store, kind, dir)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	key := ctx.Args.Arg(keyIdx)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	out := rangeSink{ctx: ctx, withScores: o.withScores, resp3: ctx.W.Proto() == 3}
	if store {
		dstKey := ctx.Args.Arg(1)
		out.b = zsetval.NewBuilder(ctx.Shard(dstKey).Arena(), dstKey, 0, 0, 0)
	}
	if !found {
		if !store {
			ctx.W.Array(0)
			return
		}
		out.finishStore(ctx.Args.Arg(1))
		return
	}
	a := sh.Arena()
	n := zsetval.Len(a, rec)
	scratch := ctx.Scratch[:0]
	switch o.kind {
	case rangeRank:
		start, end, ok := normalizeRanks(o.start, o.end, n)
		if !ok {
			out.begin(0)
			break
		}
		out.begin(end - start + 1)
		zsetval.RangeByRank(a, rec, start, end, o.reverse, scratch, out.emit)
	case rangeScore:
		out.begin(-1)
		// An offset past the end, or a negative one, finds nothing (Redis walks a negative
		// offset off the end of the set).
		if o.offset >= 0 && o.offset < int64(n) {
			zsetval.RangeByScore(a, rec, o.score, o.reverse, int(o.offset), limitArg(o.limit), scratch, out.emit)
		}
	default:
		out.begin(-1)
		if o.offset >= 0 && o.offset < int64(n) {
			zsetval.RangeByLex(a, rec, o.lex, o.reverse, int(o.offset), limitArg(o.limit), scratch, out.emit)
		}
	}
	if store {
		out.finishStore(ctx.Args.Arg(1))
		return
	}
	out.finishReply()
}

// limitArg is a LIMIT count as zsetval takes it: negative for all.
func limitArg(l int64) int {
	if l < 0 || l > int64(^uint(0)>>1) {
		return -1
	}
	return int(l)
}

// rangeSink receives a range's members, in order: Redis's zrange_result_handler, writing the
// reply (b nil) or adding to the destination's builder.
type rangeSink struct {
	ctx        *command.Ctx
	withScores bool // the reply has scores
	resp3      bool // the reply is RESP3: a pair is an array of two
	b          *zsetval.Builder
	err        error // the builder's, which stopped the range
	n          int   // members received
	deferred   bool  // the reply's length is set at the end
	d          resp.Deferred
	// A store's: the limits, and whether Redis's destination would still be a listpack.
	entries, value int64
	viaListpack    bool
}

// begin starts the reply: its length when known (n ≥ 0), else a deferred one. For a store
// it notes whether Redis's destination starts as a listpack (zsetTypeCreate of n members).
func (s *rangeSink) begin(n int) {
	if s.b != nil {
		s.entries, s.value = zsetval.Limits()
		s.viaListpack = int64(max(n, 0)) <= s.entries
		return
	}
	if n < 0 {
		s.deferred, s.d = true, s.ctx.W.ArrayDeferred()
		return
	}
	if s.withScores && !s.resp3 {
		n *= 2
	}
	s.ctx.W.Array(n)
}

// emit takes one member; false stops the range (the builder failed).
func (s *rangeSink) emit(member []byte, score float64) bool {
	s.n++
	if s.b != nil {
		// Redis adds to its destination one member at a time, converting it to a skiplist when
		// the next member would not fit; a score added while it is a listpack is stored as an
		// integer when it is one (double2ll), which makes -0 a 0 that the conversion keeps.
		if s.viaListpack && (int64(s.n) > s.entries || int64(len(member)) > s.value) {
			s.viaListpack = false
		}
		if s.viaListpack && score == 0 {
			score = 0
		}
		if err := s.b.Add(member, score); err != nil {
			s.err = err
			return false
		}
		return true
	}
	w := s.ctx.W
	if s.withScores && s.resp3 {
		w.Array(2)
	}
	w.Bulk(member)
	if s.withScores {
		w.Double(score)
	}
	return true
}

// finishReply sets a deferred reply's length.
func (s *rangeSink) finishReply() {
	if !s.deferred {
		return
	}
	n := s.n
	if s.withScores && !s.resp3 {
		n *= 2
	}
	s.ctx.W.SetArrayLen(s.d, n)
}

// finishStore stores the built set under dstKey (zrangeResultFinalizeStore): `zrangestore`,
// or the destination deleted for an empty range; the reply is the number stored.
func (s *rangeSink) finishStore(dstKey []byte) {
	if s.err != nil {
		s.b.Abort()
		s.ctx.W.Error(replyError(s.err))
		return
	}
	n, err := storeResult(s.ctx, dstKey, s.b, s.n, "zrangestore")
	if err != nil {
		s.ctx.W.Error(replyError(err))
		return
	}
	s.ctx.W.Int(int64(n))
}
