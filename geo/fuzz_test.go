package geo

import (
	"math"
	"testing"
)

// FuzzEncodeDecode: a position inside the limits encodes to a 52-bit score whose decoded
// centre lies in the same cell (encoding it again gives the same score) and within a cell of
// the position (two on the top edges, where a score beyond 2^53 loses its lowest bit, as Redis's); any score decodes to a position within the limits.
func FuzzEncodeDecode(f *testing.F) {
	f.Add(13.361389, 38.115556, 0.0)
	f.Add(-180.0, -85.05112878, -5.0)
	f.Add(180.0, 85.05112878, 4503599627370496.0)
	f.Add(0.0, 0.0, math.Inf(1))
	f.Fuzz(func(t *testing.T, long, lat, anyScore float64) {
		x, y := DecodeScore(anyScore)
		if !(x >= LongMin && x <= LongMax && y >= LatMin && y <= LatMax) {
			t.Fatalf("DecodeScore(%v) = %v, %v", anyScore, x, y)
		}
		score, ok := Score(long, lat)
		if !ok {
			if long >= LongMin && long <= LongMax && lat >= LatMin && lat <= LatMax {
				t.Fatalf("Score(%v, %v) refused", long, lat)
			}
			return
		}
		if score < 0 || score >= 1<<54 || score != math.Trunc(score) { // the top edge sets bits 52 and 53
			t.Fatalf("Score(%v, %v) = %v", long, lat, score)
		}
		dlong, dlat := DecodeScore(score)
		if again, _ := Score(dlong, dlat); again != score && long != LongMax && lat != LatMax {
			t.Fatalf("Score(%v, %v) = %v, its centre %v, %v encodes to %v", long, lat, score, dlong, dlat, again)
		}
		cellLong := (LongMax - LongMin) / (1 << StepMax)
		cellLat := (LatMax - LatMin) / (1 << StepMax)
		if score >= 1<<53 { // the top edge: a float64 score has lost the lowest bit
			cellLong, cellLat = 2*cellLong, 2*cellLat
		}
		if math.Abs(dlong-long) > cellLong || math.Abs(dlat-lat) > cellLat {
			t.Fatalf("(%v, %v) decodes to (%v, %v)", long, lat, dlong, dlat)
		}
		if got := AppendHashString(nil, score); len(got) != 11 {
			t.Fatalf("hash string %q", got)
		}
	})
}

// FuzzDistance: the fast Distance stays within distanceError of DistanceExact (the bound
// NearTie and Shape.Within rely on), for any two positions inside the limits.
func FuzzDistance(f *testing.F) {
	f.Add(13.361389, 38.115556, 15.087269, 37.502669)
	f.Add(-180.0, -85.05112878, 180.0, 85.05112878)
	f.Add(0.0, 0.0, 179.9999, 0.0001)
	f.Fuzz(func(t *testing.T, long1, lat1, long2, lat2 float64) {
		for _, v := range []float64{long1, long2} {
			if !(v >= LongMin && v <= LongMax) {
				return
			}
		}
		for _, v := range []float64{lat1, lat2} {
			if !(v >= LatMin && v <= LatMax) {
				return
			}
		}
		fast, exact := Distance(long1, lat1, long2, lat2), DistanceExact(long1, lat1, long2, lat2)
		if math.Abs(fast-exact) > distanceError*exact {
			t.Fatalf("Distance %v, DistanceExact %v (relative %v)", fast, exact, (fast-exact)/exact)
		}
	})
}

// FuzzWithinPrepared: a circle search's prepared path (the centre computed once and the
// longitude test) decides every point as Within on the same circle unprepared, at the same
// distance bit for bit.
func FuzzWithinPrepared(f *testing.F) {
	f.Add(15.0, 40.0, 5.0, 15.05, 40.01)
	f.Add(179.9, 84.9, 300.0, -179.9, 85.0)
	f.Add(-10.0, -60.0, 0.0, -10.0, -60.0)
	f.Add(0.0, 0.0, 9000.0, 80.0, 1.0)
	f.Fuzz(func(t *testing.T, long, lat, radiusKm, plong, plat float64) {
		if !(long >= LongMin && long <= LongMax && lat >= LatMin && lat <= LatMax) ||
			!(plong >= LongMin && plong <= LongMax && plat >= LatMin && plat <= LatMax) ||
			!(radiusKm >= 0 && radiusKm <= 40000) {
			return // GEOSEARCH refuses these before any search
		}
		s := Shape{Type: Circle, Long: long, Lat: lat, Radius: radiusKm, Conversion: Kilometers}
		plain := s
		AreasByShape(&s)
		d, in := s.Within(plong, plat)
		wd, win := plain.Within(plong, plat)
		if in != win || (in && math.Float64bits(d) != math.Float64bits(wd)) {
			t.Fatalf("prepared %v %v, unprepared %v %v", d, in, wd, win)
		}
	})
}
