package geofamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/geo"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/zsetval"
)

// geoaddCommand: GEOADD key [NX|XX] [CH] longitude latitude member [...] — how many members
// are new (with CH: new or moved). As Redis, it is ZADD of the positions' cells: the options
// first (NX, XX, CH, in any order and repeated; both NX and XX, or a count of the rest not a
// multiple of 3, is a syntax error), then each position in order (a number that does not parse,
// then a pair outside the limits, is the error), then the key (WRONGTYPE); XX on a missing key
// creates nothing. A new set is encoded for all the members given, an existing one converted
// first when they pass the listpack's limits (zsetTypeCreate, zsetTypeMaybeConvert). The event
// is ZADD's `zadd`.
func geoaddCommand(ctx *command.Ctx) {
	args := ctx.Args
	var flags zsetval.AddFlags
	ch := false
	first := 2
	for ; first < args.Len(); first++ {
		opt := args.Arg(first)
		switch {
		case conv.EqFold(opt, "nx"):
			flags |= zsetval.AddNX
		case conv.EqFold(opt, "xx"):
			flags |= zsetval.AddXX
		case conv.EqFold(opt, "ch"):
			ch = true
		default:
			goto positions
		}
	}
positions:
	if (args.Len()-first)%3 != 0 || flags&(zsetval.AddNX|zsetval.AddXX) == zsetval.AddNX|zsetval.AddXX {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	n := (args.Len() - first) / 3
	// The scores wait in a small Go slice for the one command (like Redis's rewritten argv).
	var buf [16]float64
	scores := buf[:0]
	maxLen := 0
	for i := range n {
		at := first + i*3
		long, lat, err := extractLongLat(args.Arg(at), args.Arg(at+1))
		if err != "" {
			ctx.W.Error(err)
			return
		}
		score, _ := geo.Score(long, lat)
		scores = append(scores, score)
		maxLen = max(maxLen, len(args.Arg(at+2)))
	}

	key := args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := ctx.LookupWriteType(sh, key, object.TypeZSet)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if !found && flags&zsetval.AddXX != 0 {
		ctx.W.Int(0)
		return
	}
	a := sh.Arena()
	if !found {
		if rec, err = zsetval.New(a, key, n, maxLen, 0); err != nil {
			ctx.W.Error(replyError(err))
			return
		}
	} else if err = zsetval.MaybeConvert(a, rec, n, maxLen); err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	added, updated := 0, 0
	for i, score := range scores {
		var res zsetval.AddResult
		if _, res, err = zsetval.Add(a, rec, args.Arg(first+i*3+2), score, flags); err != nil {
			break
		}
		switch {
		case res&zsetval.AddAdded != 0:
			added++
		case res&zsetval.AddUpdated != 0:
			updated++
		}
	}
	switch {
	case !found && added == 0:
		object.Free(a, rec)
	case !found:
		if ierr := sh.InsertLocked(ctx.DB, key, rec); ierr != nil {
			object.Free(a, rec)
			ctx.W.Error(replyError(ierr))
			return
		}
		ctx.NotifyNew(key)
	case added+updated > 0:
		sh.UpdateLocked(ctx.DB, key, rec, rec)
	}
	if added+updated > 0 {
		ctx.Notify(keyspace.NotifyZset, "zadd", key)
	}
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	if ch {
		added += updated
	}
	ctx.W.Int(int64(added))
}

// extractLongLat is extractLongLatOrReply: two numbers (getDoubleFromObject's rules) inside
// the limits, or the error to reply.
func extractLongLat(longArg, latArg []byte) (long, lat float64, err string) {
	long, ok := zsetval.ParseScore(longArg)
	if !ok {
		return 0, 0, replyerr.NotFloat.Error()
	}
	if lat, ok = zsetval.ParseScore(latArg); !ok {
		return 0, 0, replyerr.NotFloat.Error()
	}
	if long < geo.LongMin || long > geo.LongMax || lat < geo.LatMin || lat > geo.LatMax {
		return 0, 0, errLonLat(long, lat)
	}
	return long, lat, ""
}
