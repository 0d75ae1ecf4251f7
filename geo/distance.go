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
// half-difference's sine is 0). Go's math.Sin, Cos and Asin are not correctly rounded, and
// differ from glibc's in the last bit for 15–35% of arguments: over 300,000 random pairs of
// positions 43% of the distances differ from Redis's in their last bits, 5 of the replies in
// metres in their fourth decimal, none in kilometres (a difference shows only when the distance
// falls within an ulp or two of a rounding tie; for searches of a few km, practically never).
func Distance(long1, lat1, long2, lat2 float64) float64 {
	long1r := degRad(long1)
	long2r := degRad(long2)
	v := math.Sin((long2r - long1r) / 2)
	if v == 0 {
		return LatDistance(lat1, lat2)
	}
	lat1r := degRad(lat1)
	lat2r := degRad(lat2)
	u := math.Sin((lat2r - lat1r) / 2)
	// The conversions round each product as C does, where Go could fuse a multiply-add.
	a := float64(u*u) + float64(float64(float64(math.Cos(lat1r)*math.Cos(lat2r))*v)*v)
	return 2.0 * EarthRadius * math.Asin(math.Sqrt(a))
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
