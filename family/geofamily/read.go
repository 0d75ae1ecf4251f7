package geofamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/geo"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/resp"
	"github.com/kvserver/kvserver/zsetval"
)

// geoposCommand: GEOPOS key [member ...] — for each member the longitude and latitude of its
// cell's centre, a null array for a missing member (every member of a missing key).
func geoposCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := ctx.LookupReadType(sh, key, object.TypeZSet)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Array(ctx.Args.Len() - 2)
	for i := 2; i < ctx.Args.Len(); i++ {
		var score float64
		ok := false
		if found {
			score, ok = zsetval.Score(sh.Arena(), rec, ctx.Args.Arg(i))
		}
		if !ok {
			ctx.W.NullArray()
			continue
		}
		long, lat := geo.DecodeScore(score)
		ctx.W.Array(2)
		writeCoord(ctx, long)
		writeCoord(ctx, lat)
	}
}

// writeCoord writes a coordinate as addReplyHumanLongDouble: a bulk string in RESP2, a double
// in RESP3, both in geo.AppendCoord's text.
func writeCoord(ctx *command.Ctx, f float64) {
	if ctx.W.Proto() == 3 {
		b := append(ctx.Scratch[:0], ',')
		b = geo.AppendCoord(b, f)
		ctx.W.Raw(append(b, '\r', '\n'))
		return
	}
	ctx.W.Bulk(geo.AppendCoord(ctx.Scratch[:0], f))
}

// writeDistance writes a distance as addReplyDoubleDistance: a bulk string of four decimals,
// in both protocols. A distance that geo.NearTie says may round otherwise in Redis is to be
// computed again with geo.DistanceExact first.
func writeDistance(w *resp.Writer, scratch []byte, d float64) {
	w.Bulk(geo.AppendDistance(scratch[:0], d))
}

// geodistCommand: GEODIST key member1 member2 [M|KM|FT|MI] — the distance between the two
// members' positions in the unit (metres by default), null when either is missing. The unit
// is checked before the key.
func geodistCommand(ctx *command.Ctx) {
	toMeter := 1.0
	switch {
	case ctx.Args.Len() == 5:
		u, ok := geo.ParseUnit(ctx.Args.Arg(4))
		if !ok {
			ctx.W.Error(errUnit.Error())
			return
		}
		toMeter = u
	case ctx.Args.Len() > 5:
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := ctx.LookupReadType(sh, key, object.TypeZSet)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if !found {
		ctx.W.Null()
		return
	}
	a := sh.Arena()
	s1, ok1 := zsetval.Score(a, rec, ctx.Args.Arg(2))
	s2, ok2 := zsetval.Score(a, rec, ctx.Args.Arg(3))
	if !ok1 || !ok2 {
		ctx.W.Null()
		return
	}
	long1, lat1 := geo.DecodeScore(s1)
	long2, lat2 := geo.DecodeScore(s2)
	d := geo.Distance(long1, lat1, long2, lat2) / toMeter
	if geo.NearTie(d) {
		d = geo.DistanceExact(long1, lat1, long2, lat2) / toMeter
	}
	writeDistance(ctx.W, ctx.Scratch[:], d)
}

// geohashCommand: GEOHASH key [member ...] — each member's 11-character geohash string, null
// for a missing member.
func geohashCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := ctx.LookupReadType(sh, key, object.TypeZSet)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Array(ctx.Args.Len() - 2)
	for i := 2; i < ctx.Args.Len(); i++ {
		var score float64
		ok := false
		if found {
			score, ok = zsetval.Score(sh.Arena(), rec, ctx.Args.Arg(i))
		}
		if !ok {
			ctx.W.Null()
			continue
		}
		ctx.W.Bulk(geo.AppendHashString(ctx.Scratch[:0], score))
	}
}
