package geofamily

import (
	"slices"
	"sync"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/geo"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/zsetval"
)

// The variants of georadiusGeneric, as geo.c's flags.
const (
	radiusCoords   = 1 << iota // GEORADIUS: around a position given
	radiusMember               // GEORADIUSBYMEMBER: around a member's position
	radiusNoStore              // the _RO forms: no STORE or STOREDIST
	geoSearch                  // GEOSEARCH's arguments (FROM…, BY…)
	geoSearchStore             // GEOSEARCHSTORE: a destination first, STOREDIST without a key
)

// The sort orders of a search.
const (
	sortNone = iota
	sortAsc
	sortDesc
)

func georadiusCommand(ctx *command.Ctx) { georadiusGeneric(ctx, 1, radiusCoords) }

func georadiusbymemberCommand(ctx *command.Ctx) { georadiusGeneric(ctx, 1, radiusMember) }

func georadiusroCommand(ctx *command.Ctx) { georadiusGeneric(ctx, 1, radiusCoords|radiusNoStore) }

func georadiusbymemberroCommand(ctx *command.Ctx) {
	georadiusGeneric(ctx, 1, radiusMember|radiusNoStore)
}

func geosearchCommand(ctx *command.Ctx) { georadiusGeneric(ctx, 1, geoSearch) }

func geosearchstoreCommand(ctx *command.Ctx) {
	georadiusGeneric(ctx, 2, geoSearch|geoSearchStore)
}

// point is one point found (geoPoint): its position, distance from the centre in metres, its
// score, and its member at mem[off:off+n] of the search.
type point struct {
	long, lat, dist, score float64
	off, n                 int
}

// search is one command's search: the shape and the points found, members copied into mem.
// Go memory for the one command (Redis's geoArray), reused by later searches (searches).
type search struct {
	shape  geo.Shape
	points []point
	mem    []byte
}

// searches keeps searches' buffers between commands: grown afresh for each command they were
// a twentieth of a GEOSEARCH's CPU, with the garbage collection they caused. A search that
// found more than keepPoints points, or keepMem bytes of members, is not kept, so that one
// huge search does not pin its memory.
var searches = sync.Pool{New: func() any { return new(search) }}

const (
	keepPoints = 4096
	keepMem    = 256 << 10
)

// newSearch is an empty search, with a pooled one's buffers.
func newSearch() *search {
	s := searches.Get().(*search)
	*s = search{points: s.points[:0], mem: s.mem[:0]}
	return s
}

// release returns s to the pool; s must not be used after.
func (s *search) release() {
	if cap(s.points) <= keepPoints && cap(s.mem) <= keepMem {
		searches.Put(s)
	}
}

// georadiusGeneric is geo.c's georadiusGeneric for every search command: GEORADIUS key
// longitude latitude radius unit [options], GEORADIUSBYMEMBER key member radius unit
// [options], GEOSEARCH key FROM… BY… [options], GEOSEARCHSTORE destination source FROM… BY…
// [options]. The source is looked up first (WRONGTYPE before anything else), then the
// arguments in Redis's order; a missing source still has its options checked, and then answers
// an empty array, or 0 with the destination deleted.
func georadiusGeneric(ctx *command.Ctx, srcIndex, flags int) {
	args := ctx.Args
	src := args.Arg(srcIndex)
	sh := ctx.Shard(src)
	rec, found, err := ctx.LookupReadType(sh, src, object.TypeZSet)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	a := sh.Arena()

	s := newSearch()
	defer s.release()
	var storeKey []byte
	storeDist := false
	baseArgs := 0
	switch {
	case flags&radiusCoords != 0:
		baseArgs = 6
		s.shape.Type = geo.Circle
		long, lat, e := extractLongLat(args.Arg(2), args.Arg(3))
		if e != "" {
			ctx.W.Error(e)
			return
		}
		s.shape.Long, s.shape.Lat = long, lat
		if e := extractDistance(args.Arg(4), args.Arg(5), &s.shape); e != "" {
			ctx.W.Error(e)
			return
		}
	case flags&radiusMember != 0 && !found:
		// No source: the options are still parsed, for the reply's form (STORE or not).
		baseArgs = 5
	case flags&radiusMember != 0:
		baseArgs = 5
		s.shape.Type = geo.Circle
		if !memberPosition(a, rec, args.Arg(2), &s.shape) {
			ctx.W.Error(errMember.Error())
			return
		}
		if e := extractDistance(args.Arg(3), args.Arg(4), &s.shape); e != "" {
			ctx.W.Error(e)
			return
		}
	default: // GEOSEARCH, GEOSEARCHSTORE
		baseArgs = 2
		if flags&geoSearchStore != 0 {
			baseArgs = 3
			storeKey = args.Arg(1)
		}
	}

	withDist, withHash, withCoord := false, false, false
	fromMember, fromLoc, byRadius, byBox := false, false, false, false
	sort, anyOpt := sortNone, false
	var count int64
	remaining := args.Len() - baseArgs
	for i := 0; i < remaining; i++ {
		at := baseArgs + i
		arg := args.Arg(at)
		switch {
		case conv.EqFold(arg, "withdist"):
			withDist = true
		case conv.EqFold(arg, "withhash"):
			withHash = true
		case conv.EqFold(arg, "withcoord"):
			withCoord = true
		case conv.EqFold(arg, "any"):
			anyOpt = true
		case conv.EqFold(arg, "asc"):
			sort = sortAsc
		case conv.EqFold(arg, "desc"):
			sort = sortDesc
		case conv.EqFold(arg, "count") && i+1 < remaining:
			n, ok := conv.String2ll(args.Arg(at + 1))
			if !ok {
				ctx.W.Error(replyerr.NotInteger.Error())
				return
			}
			if n <= 0 {
				ctx.W.Error(errCountPositive.Error())
				return
			}
			count = n
			i++
		case conv.EqFold(arg, "store") && i+1 < remaining && flags&(radiusNoStore|geoSearch) == 0:
			storeKey, storeDist = args.Arg(at+1), false
			i++
		case conv.EqFold(arg, "storedist") && i+1 < remaining && flags&(radiusNoStore|geoSearch) == 0:
			storeKey, storeDist = args.Arg(at+1), true
			i++
		case conv.EqFold(arg, "storedist") && flags&geoSearch != 0 && flags&geoSearchStore != 0:
			storeDist = true
		case conv.EqFold(arg, "frommember") && i+1 < remaining && flags&geoSearch != 0 && !fromLoc:
			if found && !memberPosition(a, rec, args.Arg(at+1), &s.shape) {
				ctx.W.Error(errMember.Error())
				return
			}
			fromMember = true
			i++
		case conv.EqFold(arg, "fromlonlat") && i+2 < remaining && flags&geoSearch != 0 && !fromMember:
			long, lat, e := extractLongLat(args.Arg(at+1), args.Arg(at+2))
			if e != "" {
				ctx.W.Error(e)
				return
			}
			s.shape.Long, s.shape.Lat = long, lat
			fromLoc = true
			i += 2
		case conv.EqFold(arg, "byradius") && i+2 < remaining && flags&geoSearch != 0 && !byBox:
			if e := extractDistance(args.Arg(at+1), args.Arg(at+2), &s.shape); e != "" {
				ctx.W.Error(e)
				return
			}
			s.shape.Type = geo.Circle
			byRadius = true
			i += 2
		case conv.EqFold(arg, "bybox") && i+3 < remaining && flags&geoSearch != 0 && !byRadius:
			if e := extractBox(args.Arg(at+1), args.Arg(at+2), args.Arg(at+3), &s.shape); e != "" {
				ctx.W.Error(e)
				return
			}
			s.shape.Type = geo.Rectangle
			byBox = true
			i += 3
		default:
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
	}

	switch {
	case storeKey != nil && (withDist || withHash || withCoord):
		if flags&geoSearchStore != 0 {
			ctx.W.Error(errSearchStore.Error())
		} else {
			ctx.W.Error(errStoreWith.Error())
		}
		return
	case flags&geoSearch != 0 && !(fromMember || fromLoc):
		ctx.W.Error(errFrom(args.Arg(0)))
		return
	case flags&geoSearch != 0 && !(byRadius || byBox):
		ctx.W.Error(errBy(args.Arg(0)))
		return
	case anyOpt && count == 0:
		ctx.W.Error(errAnyNeedsCount.Error())
		return
	}

	if !found {
		if storeKey != nil {
			if ctx.Shard(storeKey).DeleteLocked(ctx.DB, storeKey) {
				ctx.Notify(keyspace.NotifyGeneric, command.EventDel, storeKey)
			}
			ctx.W.Int(0)
		} else {
			ctx.W.Array(0)
		}
		return
	}

	// COUNT without ANY wants the nearest: sort unless an order was asked.
	if count != 0 && sort == sortNone && !anyOpt {
		sort = sortAsc
	}
	limit := 0
	if anyOpt {
		limit = int(min(count, int64(^uint(0)>>1)))
	}
	s.membersOfAllNeighbors(a, rec, limit, ctx.Scratch[:0])

	if len(s.points) == 0 && storeKey == nil {
		ctx.W.Array(0)
		return
	}
	returned := len(s.points)
	if count != 0 && int64(returned) > count {
		returned = int(count)
	}
	if sort != sortNone {
		cmp := func(x, y *point) int { return cmpDist(x.dist, y.dist) }
		if sort == sortDesc {
			cmp = func(x, y *point) int { return -cmpDist(x.dist, y.dist) }
		}
		if returned == len(s.points) {
			slices.SortStableFunc(s.points, func(x, y point) int { return cmp(&x, &y) })
		} else {
			pqsort(s.points, cmp, 0, returned-1)
		}
	}
	points := s.points[:returned]

	if storeKey == nil {
		s.reply(ctx, points, withDist, withHash, withCoord)
		return
	}
	n, err := s.store(ctx, storeKey, points, storeDist, flags&geoSearch != 0)
	if err != nil {
		ctx.W.Error(replyError(err))
		return
	}
	ctx.W.Int(int64(n))
}

// cmpDist orders distances as geo.c's sort_gp_asc.
func cmpDist(x, y float64) int {
	switch {
	case x > y:
		return 1
	case x == y:
		return 0
	}
	return -1
}

// memberPosition is longLatFromMember: the position of member's score as the shape's centre;
// false when member is not in the set.
func memberPosition(a *alloc.Arena, rec alloc.Handle, member []byte, shape *geo.Shape) bool {
	score, ok := zsetval.Score(a, rec, member)
	if !ok {
		return false
	}
	shape.Long, shape.Lat = geo.DecodeScore(score)
	return true
}

// extractDistance is extractDistanceOrReply: a radius (not negative) and its unit into shape,
// or the error to reply.
func extractDistance(radius, unit []byte, shape *geo.Shape) string {
	r, ok := zsetval.ParseScore(radius)
	if !ok {
		return errNeedRadius.Error()
	}
	if r < 0 {
		return errRadiusNeg.Error()
	}
	shape.Radius = r
	conversion, ok := geo.ParseUnit(unit)
	if !ok {
		return errUnit.Error()
	}
	shape.Conversion = conversion
	return ""
}

// extractBox is extractBoxOrReply: a width and a height (neither negative) and their unit into
// shape, or the error to reply.
func extractBox(width, height, unit []byte, shape *geo.Shape) string {
	w, ok := zsetval.ParseScore(width)
	if !ok {
		return errNeedWidth.Error()
	}
	h, ok := zsetval.ParseScore(height)
	if !ok {
		return errNeedHeight.Error()
	}
	if h < 0 || w < 0 {
		return errBoxNeg.Error()
	}
	shape.Width, shape.Height = w, h
	conversion, ok := geo.ParseUnit(unit)
	if !ok {
		return errUnit.Error()
	}
	shape.Conversion = conversion
	return ""
}

// membersOfAllNeighbors scans the nine cells of the shape in Redis's order, skipping the zero
// cells and a cell equal to the one scanned just before (from the second one scanned on, as
// Redis's last_processed), and stops once limit points are found (limit 0: no limit).
func (s *search) membersOfAllNeighbors(a *alloc.Arena, rec alloc.Handle, limit int, scratch []byte) {
	r := geo.AreasByShape(&s.shape)
	cells := r.Cells()
	last := 0
	for i, c := range cells {
		if c.IsZero() {
			continue
		}
		if last != 0 && c == cells[last] {
			continue
		}
		if len(s.points) > 0 && limit > 0 && len(s.points) >= limit {
			break
		}
		s.membersOfGeoHashBox(a, rec, c, limit, scratch)
		last = i
	}
}

// membersOfGeoHashBox appends the points of cell h that lie in the shape, in score order
// (geoGetPointsInRange over min <= score < max), stopping once limit points are found.
func (s *search) membersOfGeoHashBox(a *alloc.Arena, rec alloc.Handle, h geo.Bits, limit int, scratch []byte) {
	lo, hi := geo.BoxScores(h)
	r := zsetval.ScoreRange{Min: lo, Max: hi, MaxEx: true}
	zsetval.RangeByScore(a, rec, r, false, 0, -1, scratch, func(member []byte, score float64) bool {
		long, lat := geo.DecodeScore(score)
		if dist, ok := s.shape.Within(long, lat); ok {
			s.points = append(s.points, point{long: long, lat: lat, dist: dist, score: score, off: len(s.mem), n: len(member)})
			s.mem = append(s.mem, member...)
		}
		return !(len(s.points) > 0 && limit > 0 && len(s.points) >= limit)
	})
}

// member is point p's member.
func (s *search) member(p *point) []byte { return s.mem[p.off : p.off+p.n] }

// reply writes the points: each a member, or with options an array of the member, its
// distance in the unit (four decimals; computed again exactly near a rounding tie), its score
// as an integer, its position — in that order.
func (s *search) reply(ctx *command.Ctx, points []point, withDist, withHash, withCoord bool) {
	options := 0
	for _, on := range []bool{withDist, withHash, withCoord} {
		if on {
			options++
		}
	}
	ctx.W.Array(len(points))
	for i := range points {
		p := &points[i]
		if options > 0 {
			ctx.W.Array(options + 1)
		}
		ctx.W.Bulk(s.member(p))
		if withDist {
			d := p.dist / s.shape.Conversion
			if geo.NearTie(d) {
				d = geo.DistanceExact(s.shape.Long, s.shape.Lat, p.long, p.lat) / s.shape.Conversion
			}
			writeDistance(ctx.W, ctx.Scratch[:], d)
		}
		if withHash {
			ctx.W.Int(int64(p.score))
		}
		if withCoord {
			ctx.W.Array(2)
			writeCoord(ctx, p.long)
			writeCoord(ctx, p.lat)
		}
	}
}

// store makes the points the sorted set of dstKey, built in its shard, scored by their cell or
// (storeDist) by their distance in the unit (geo.DistanceExact: a score shows every bit),
// replacing any value (setKey) with the event
// geosearchstore or georadiusstore; no points delete dstKey (with `del`). It returns how many
// points were stored.
func (s *search) store(ctx *command.Ctx, dstKey []byte, points []point, storeDist, search bool) (int, error) {
	dsh := ctx.Shard(dstKey)
	if len(points) == 0 {
		if dsh.DeleteLocked(ctx.DB, dstKey) {
			ctx.Notify(keyspace.NotifyGeneric, command.EventDel, dstKey)
		}
		return 0, nil
	}
	maxLen := 0
	for i := range points {
		maxLen = max(maxLen, points[i].n)
	}
	a := dsh.Arena()
	b := zsetval.NewBuilder(a, dstKey, len(points), maxLen, 0)
	for i := range points {
		p := &points[i]
		score := p.score
		if storeDist { // the score shows every bit (ZSCORE): Redis's exactly
			score = geo.DistanceExact(s.shape.Long, s.shape.Lat, p.long, p.lat) / s.shape.Conversion
		}
		if err := b.Add(s.member(p), score); err != nil {
			b.Abort()
			return 0, err
		}
	}
	rec, err := b.Finish()
	if err != nil {
		return 0, err
	}
	replaced, err := dsh.ReplaceFlagsLocked(ctx.DB, dstKey, rec, ctx.WriteFlags())
	if err != nil {
		object.Free(a, rec)
		return 0, err
	}
	if !replaced {
		ctx.NotifyNew(dstKey)
	}
	event := "georadiusstore"
	if search {
		event = "geosearchstore"
	}
	ctx.Notify(keyspace.NotifyZset, event, dstKey)
	return len(points), nil
}
