package geo

import "math"

// EstimateStepsByRadius is geohashEstimateStepsByRadius: the step whose cells are about as
// wide as the radius (in metres) at latitude lat, one less towards the poles; within 1..26.
func EstimateStepsByRadius(rangeMeters, lat float64) uint8 {
	if rangeMeters == 0 {
		return 26
	}
	step := 1
	for rangeMeters < mercatorMax {
		rangeMeters *= 2
		step++
	}
	step -= 2 // make sure the range is included in most cases
	if lat > 66 || lat < -66 {
		step--
		if lat > 80 || lat < -80 {
			step--
		}
	}
	return uint8(min(max(step, 1), 26))
}

// ShapeType says whether a Shape is a circle (BYRADIUS, GEORADIUS) or a box (BYBOX).
type ShapeType uint8

// The shapes, as geohash.h's CIRCULAR_TYPE and RECTANGLE_TYPE.
const (
	Circle    ShapeType = 1
	Rectangle ShapeType = 2
)

// Shape is a search area (GeoShape): its centre, its size in the unit whose metres per unit
// are Conversion, and its bounding box once AreasByShape has computed it.
type Shape struct {
	Type       ShapeType
	Long, Lat  float64 // the centre
	Radius     float64 // Circle, in the unit
	Width      float64 // Rectangle, in the unit
	Height     float64
	Conversion float64 // metres per unit
	// Bounds is the bounding box: min longitude, min latitude, max longitude, max latitude.
	Bounds [4]float64
	// circle is what a circle search derives once from its centre and radius, set by
	// AreasByShape.
	circle circleFilter
}

// circleFilter is what a circle search derives once from its centre and radius: the centre as
// a distance's origin, and the difference in longitude beyond which a point that passed the
// latitude test is surely outside.
type circleFilter struct {
	long, lat, limit float64 // the centre and the radius in metres it was made for
	set              bool    // newCircleFilter made it (the zero filter is none)
	centre           origin
	maxDLong         float64 // degrees; +Inf when no longitude is surely outside
}

// newCircleFilter prepares a circle search of radius limit metres around (long, lat).
//
// The longitude test: the haversine's a is sin²(Δφ/2) + cos φ0·cos φ·sin²(Δλ/2), and a point
// is outside when a > sin²(d/2), d the radius in radians. For a point that passed the
// latitude test, |φ| is at most |φ0| plus the radius, so cos φ is at least the cosine there,
// cosMin, and a is at least cos φ0·cosMin·sin²(Δλ/2). So a point whose Δλ (the shorter way
// round, within 180°) gives that bound above sin²(d/2) is outside, and needs neither sine nor
// arcsine: maxDLong is where the bound crosses, with margins (1e-6 on a, 1e-9 on the angle)
// that dwarf any rounding, so that every point Redis's computed distance puts inside is still
// measured. Near a pole (the band reaches it) or for a radius of a quarter of the Earth's
// circumference or more (d/2 ≥ π/4: such a circle spans most longitudes anyway) there is no
// such longitude, and maxDLong is +Inf.
func newCircleFilter(long, lat, limit float64) circleFilter {
	f := circleFilter{long: long, lat: lat, limit: limit, set: true, centre: newOrigin(long, lat), maxDLong: math.Inf(1)}
	half := limit / EarthRadius / 2
	band := (limit*(1+1e-9)+1e-6)/EarthRadius + 1e-12 // the latitude test's limit, in radians
	poleward := math.Abs(f.centre.latR) + band
	if !(half < math.Pi/4) || !(poleward < math.Pi/2) {
		return f
	}
	sinHalf := math.Sin(half)
	x := sinHalf * sinHalf * (1 + 1e-6) / (f.centre.cosLat * math.Cos(poleward))
	if !(x < 1) {
		return f
	}
	f.maxDLong = radDeg(2*math.Asin(math.Sqrt(x))) * (1 + 1e-9)
	return f
}

// surelyOutside reports whether a point at longitude long that passed the latitude test is
// outside the circle by the longitude test alone.
func (f *circleFilter) surelyOutside(long float64) bool {
	dl := math.Abs(long - f.long)
	return min(dl, 360-dl) > f.maxDLong
}

// BoundingBox is geohashBoundingBox: the longitudes and latitudes that enclose the shape, on
// the sphere of EarthRadius (the longitude span measured at the edge nearer a pole).
func (s *Shape) BoundingBox() [4]float64 {
	var height, width float64
	if s.Type == Circle {
		height = s.Conversion * s.Radius
		width = s.Conversion * s.Radius
	} else {
		height = s.Conversion * (s.Height / 2)
		width = s.Conversion * (s.Width / 2)
	}
	latDelta := radDeg(height / EarthRadius)
	longDeltaTop := radDeg(width / EarthRadius / cosCR(degRad(s.Lat+latDelta)))
	longDeltaBottom := radDeg(width / EarthRadius / cosCR(degRad(s.Lat-latDelta)))
	var b [4]float64
	if s.Lat < 0 { // the southern hemisphere: the bottom edge is the wider one
		b[0] = s.Long - longDeltaBottom
		b[2] = s.Long + longDeltaBottom
	} else {
		b[0] = s.Long - longDeltaTop
		b[2] = s.Long + longDeltaTop
	}
	b[1] = s.Lat - latDelta
	b[3] = s.Lat + latDelta
	return b
}

// Radius is the cells a search scans (GeoHashRadius): the centre cell Hash (covering Area) and
// its Neighbors, those that cannot hold a point of the shape set to the zero cell.
type Radius struct {
	Hash      Bits
	Area      Area
	Neighbors Neighbors
}

// Cells lists the cells in the order Redis scans them (membersOfAllNeighbors): the centre,
// north, south, east, west, north-east, north-west, south-east, south-west.
func (r *Radius) Cells() [9]Bits {
	n := &r.Neighbors
	return [9]Bits{r.Hash, n.North, n.South, n.East, n.West, n.NorthEast, n.NorthWest, n.SouthEast, n.SouthWest}
}

// AreasByShape is geohashCalculateAreasByShapeWGS84: it sets s.Bounds and returns the nine
// cells to scan. The step comes from the radius (a box's: half its diagonal); it is lowered by
// one when a neighbour does not reach the bounding box, and from step 2 up the neighbours
// beyond the bounding box's side are dropped.
func AreasByShape(s *Shape) Radius {
	s.Bounds = s.BoundingBox()
	if s.Type == Circle {
		s.circle = newCircleFilter(s.Long, s.Lat, s.Radius*s.Conversion)
	}
	minLong, minLat, maxLong, maxLat := s.Bounds[0], s.Bounds[1], s.Bounds[2], s.Bounds[3]

	var radiusMeters float64
	if s.Type == Circle {
		radiusMeters = s.Radius
	} else {
		w, h := s.Width/2, s.Height/2
		radiusMeters = math.Sqrt(float64(w*w) + float64(h*h))
	}
	radiusMeters *= s.Conversion

	steps := EstimateStepsByRadius(radiusMeters, s.Lat)
	longR, latR := CoordRange()
	hash, _ := Encode(longR, latR, s.Long, s.Lat, steps)
	neighbors := GetNeighbors(hash)
	area, _ := Decode(longR, latR, hash)

	// When the centre is near its cell's edge, a neighbour may not reach the bounding box:
	// one step less makes the cells twice as wide.
	decrease := false
	north, _ := Decode(longR, latR, neighbors.North)
	south, _ := Decode(longR, latR, neighbors.South)
	east, _ := Decode(longR, latR, neighbors.East)
	west, _ := Decode(longR, latR, neighbors.West)
	if north.Latitude.Max < maxLat || south.Latitude.Min > minLat ||
		east.Longitude.Max < maxLong || west.Longitude.Min > minLong {
		decrease = true
	}
	if steps > 1 && decrease {
		steps--
		hash, _ = Encode(longR, latR, s.Long, s.Lat, steps)
		neighbors = GetNeighbors(hash)
		area, _ = Decode(longR, latR, hash)
	}

	// Drop the neighbours that lie wholly beyond a side of the bounding box.
	if steps >= 2 {
		if area.Latitude.Min < minLat {
			neighbors.South, neighbors.SouthWest, neighbors.SouthEast = Bits{}, Bits{}, Bits{}
		}
		if area.Latitude.Max > maxLat {
			neighbors.North, neighbors.NorthEast, neighbors.NorthWest = Bits{}, Bits{}, Bits{}
		}
		if area.Longitude.Min < minLong {
			neighbors.West, neighbors.SouthWest, neighbors.NorthWest = Bits{}, Bits{}, Bits{}
		}
		if area.Longitude.Max > maxLong {
			neighbors.East, neighbors.SouthEast, neighbors.NorthEast = Bits{}, Bits{}, Bits{}
		}
	}
	return Radius{Hash: hash, Area: area, Neighbors: neighbors}
}

// BoxScores is scoresOfGeoHashBox: the scores of the positions inside cell h are
// min <= score < max.
func BoxScores(h Bits) (min, max float64) {
	lo := Align52(h)
	h.Bits++
	return float64(lo), float64(Align52(h))
}

// prepared is s's circle filter when AreasByShape made it for s's centre and radius as they
// are, else nil.
func (s *Shape) prepared(limit float64) *circleFilter {
	if f := &s.circle; f.set && f.long == s.Long && f.lat == s.Lat && f.limit == limit {
		return f
	}
	return nil
}

// Within is geoWithinShape for a point already decoded: whether (long, lat) is inside the
// shape, and its distance in metres from the centre. A box compares the latitude distance,
// then the distance along the point's parallel, with the half sides before computing the
// distance (geohashGetDistanceIfInRectangle). A distance within its error of a limit is
// computed again exactly (DistanceExact), so that the decision is Redis's.
func (s *Shape) Within(long, lat float64) (dist float64, ok bool) {
	if s.Type == Circle {
		limit := s.Radius * s.Conversion
		// The great-circle distance is never less than the distance in latitude alone
		// (the haversine's a is at least sin²(Δφ/2)), so a point farther than the radius in
		// latitude is outside without the haversine: most of a search's candidates, taken
		// from boxes three radii tall. The margin (far above the few ulps either value
		// may be off by) leaves every point near the circle to the haversine, as Redis.
		if LatDistance(s.Lat, lat) > limit*(1+1e-9)+1e-6 {
			return 0, false
		}
		if f := s.prepared(limit); f != nil {
			if f.surelyOutside(long) {
				return 0, false
			}
			dist = f.centre.distanceTo(long, lat)
		} else {
			dist = Distance(s.Long, s.Lat, long, lat)
		}
		if nearEdge(dist, limit) {
			dist = DistanceExact(s.Long, s.Lat, long, lat)
		}
		return dist, dist <= limit
	}
	widthM := s.Width * s.Conversion
	heightM := s.Height * s.Conversion
	if LatDistance(lat, s.Lat) > heightM/2 {
		return 0, false
	}
	d := Distance(long, lat, s.Long, lat)
	if nearEdge(d, widthM/2) {
		d = DistanceExact(long, lat, s.Long, lat)
	}
	if d > widthM/2 {
		return 0, false
	}
	return Distance(s.Long, s.Lat, long, lat), true
}
