package geo

import (
	"math"

	"github.com/kvserver/kvserver/conv"
)

// EarthRadius is the radius Redis's distances use, in metres (EARTH_RADIUS_IN_METERS).
const EarthRadius = 6372797.560856

// mercatorMax is half the Web Mercator world's width in metres (MERCATOR_MAX).
const mercatorMax = 20037726.37

// pi and dR are variables so that dR is C's D_R, M_PI / 180.0 rounded as a double division
// (a Go constant expression would be exact, then rounded once).
var (
	pi = math.Pi
	dR = pi / 180.0
)

// degRad and radDeg are deg_rad and rad_deg.
func degRad(ang float64) float64 { return ang * dR }
func radDeg(ang float64) float64 { return ang / dR }

// LatDistance is geohashGetLatDistance: the distance along a meridian between two latitudes.
func LatDistance(lat1, lat2 float64) float64 {
	return EarthRadius * math.Abs(degRad(lat2)-degRad(lat1))
}

// Distance is geohashGetDistance as Redis 7.2 computes it: the haversine great-circle distance
// in metres, and the distance along the meridian when the longitudes are the same (their
// half-difference's sine is 0).
//
// Go's math.Sin, Cos and Asin are not correctly rounded, and differ from glibc's in the last
// bit for 15–35% of arguments, so this fast form is within about 5e-15 of Redis's value
// (relative), not bit for bit. Callers that decide on it compute again with DistanceExact when
// it is that close to a limit (Shape.Within) or to a rounding tie of the reply (NearTie). Near
// antipodal points (haversine a > 0.9998, less than ~180 km from the antipode) the formula
// magnifies last-bit differences up to centimetres, so there it is DistanceExact.
func Distance(long1, lat1, long2, lat2 float64) float64 {
	o := newOrigin(long1, lat1)
	return o.distanceTo(long2, lat2)
}

// origin is a distance's first point, with what Distance derives from it alone: a search
// measures every candidate from the same centre, and computes these once (circleFilter).
type origin struct {
	long, lat   float64 // degrees
	longR, latR float64 // radians
	cosLat      float64 // cos(latR)
}

func newOrigin(long, lat float64) origin {
	latR := degRad(lat)
	return origin{long: long, lat: lat, longR: degRad(long), latR: latR, cosLat: math.Cos(latR)}
}

// distanceTo is Distance from o to (long2, lat2), with the same operations in the same order.
func (o *origin) distanceTo(long2, lat2 float64) float64 {
	long2r := degRad(long2)
	v := math.Sin((long2r - o.longR) / 2)
	if v == 0 {
		return LatDistance(o.lat, lat2)
	}
	lat2r := degRad(lat2)
	u := math.Sin((lat2r - o.latR) / 2)
	// The conversions round each product as C does, where Go could fuse a multiply-add.
	a := float64(u*u) + float64(float64(float64(o.cosLat*math.Cos(lat2r))*v)*v)
	if a > antipodalA {
		return DistanceExact(o.long, o.lat, long2, lat2)
	}
	return 2.0 * EarthRadius * asin(math.Sqrt(a))
}

// antipodalA is the haversine a beyond which Distance's error passes 1e-14 relative: the
// error of a (a few ulp) divided by sqrt(1-a).
const antipodalA = 0.9998

// asin is math.Asin made accurate near 1 (nearly antipodal points): Go's computes sqrt(1-x²),
// which loses the low bits of x there (an error of 1e-16/sqrt(1-x) radians, 0.1 mm at 1-x =
// 1e-10); above 1/2 asin(x) = π/2 - 2·asin(sqrt((1-x)/2)) keeps them ((1-x)/2 is exact).
func asin(x float64) float64 {
	if x <= 0.5 {
		return math.Asin(x)
	}
	return math.Pi/2 - 2*math.Asin(math.Sqrt((1-x)/2))
}

// Unit conversions: metres per unit (extractUnitOrReply). A distance in metres divided by one
// is in that unit.
const (
	Meters     = 1
	Kilometers = 1000
	Feet       = 0.3048
	Miles      = 1609.34
)

// ParseUnit is extractUnitOrReply: the metres per unit of "m", "km", "ft" or "mi", in any
// case; false for anything else (ERR unsupported unit provided. please use M, KM, FT, MI).
func ParseUnit(u []byte) (float64, bool) {
	switch {
	case conv.EqFold(u, "m"):
		return Meters, true
	case conv.EqFold(u, "km"):
		return Kilometers, true
	case conv.EqFold(u, "ft"):
		return Feet, true
	case conv.EqFold(u, "mi"):
		return Miles, true
	}
	return 0, false
}
