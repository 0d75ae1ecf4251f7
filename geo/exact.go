package geo

import "math"

// Redis computes distances with glibc's sin, cos and asin, which return the correctly rounded
// result (the double nearest the exact value) for all but extremely rare arguments; Go's math
// functions are within an ulp or so, and differ from glibc's for 15–35% of arguments. The
// functions here return the correctly rounded values, from double-double series (about 106
// bits), at twenty times the cost: the bounding box of a search uses them (two cosines a
// search), and a distance is computed again with them only when the fast one decides something
// within its error (NearTie, Shape.Within) or is ill-conditioned (near antipodes), so that
// replies match Redis's to the digit. glibc 2.36 is not correctly rounded for about one
// argument in a thousand (mpmath agrees with these functions there): DistanceExact matches
// Redis's geohashGetDistance bit for bit on 2,696 of the 2,700 compiled-C vectors.

// dd is an unevaluated sum hi+lo of two doubles, |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

// twoSum is a+b exactly as a rounded sum and its error.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// quickTwoSum is twoSum for |a| >= |b|.
func quickTwoSum(a, b float64) (s, e float64) {
	s = a + b
	e = b - (s - a)
	return s, e
}

// twoProd is a×b exactly as a rounded product and its error.
func twoProd(a, b float64) (p, e float64) {
	p = a * b
	return p, math.FMA(a, b, -p)
}

func ddAdd(x, y dd) dd {
	s, e := twoSum(x.hi, y.hi)
	t, f := twoSum(x.lo, y.lo)
	e += t
	s, e = quickTwoSum(s, e)
	e += f
	s, e = quickTwoSum(s, e)
	return dd{s, e}
}

func ddMul(x, y dd) dd {
	p, e := twoProd(x.hi, y.hi)
	e += x.hi*y.lo + x.lo*y.hi
	p, e = quickTwoSum(p, e)
	return dd{p, e}
}

// ddDiv divides x by a small integer-valued double d.
func ddDiv(x dd, d float64) dd {
	q1 := x.hi / d
	p, e := twoProd(q1, d)
	r := ((x.hi - p) - e) + x.lo
	q2 := r / d
	s, t := quickTwoSum(q1, q2)
	return dd{s, t}
}

// pio2 is π/2 as a double-double (the double nearest, and the rest).
var pio2 = dd{math.Pi / 2, 6.123233995736766e-17}

// series sums the Taylor series of sin (first 1) or cos (first 0) at x, in double-double:
// terms x^k/k! with alternating signs, k stepping by 2. For |x| <= π/4 it is accurate to about
// 2^-104 relative.
func series(x dd, first int) dd {
	x2 := ddMul(x, x)
	term := dd{1, 0}
	if first == 1 {
		term = x
	}
	sum := term
	for k := first + 1; k < 80; k += 2 {
		term = ddDiv(ddMul(term, x2), float64(k*(k+1)))
		term = dd{-term.hi, -term.lo}
		sum = ddAdd(sum, term)
		if term.hi == 0 || math.Abs(term.hi) < 1e-36*math.Abs(sum.hi) {
			break
		}
	}
	return sum
}

// trigCR is sin(x) (or cos(x)) correctly rounded, for |x| <= 1e4 (beyond, math's).
func trigCR(x float64, cos bool) float64 {
	if math.Abs(x) > 1e4 || math.IsNaN(x) {
		if cos {
			return math.Cos(x)
		}
		return math.Sin(x)
	}
	return trigDD(x, cos).hi
}

// trigDD is sin(x) (or cos(x)) in double-double for |x| <= 1e4: x less the nearest multiple k
// of π/2 (in double-double, exact enough for such k), then the series of sin or cos at the
// rest as k mod 4 says.
func trigDD(x float64, cos bool) dd {
	ax := math.Abs(x)
	k := math.Round(ax / (math.Pi / 2))
	r := ddAdd(dd{ax, 0}, ddMul(pio2, dd{-k, 0}))
	q := int(k) & 3
	if cos {
		q = (q + 1) & 3 // cos(a) = sin(a + π/2)
	}
	var v dd
	switch q {
	case 0:
		v = series(r, 1)
	case 1:
		v = series(r, 0)
	case 2:
		v = series(r, 1)
		v = dd{-v.hi, -v.lo}
	default:
		v = series(r, 0)
		v = dd{-v.hi, -v.lo}
	}
	if x < 0 && !cos {
		v = dd{-v.hi, -v.lo}
	}
	return v
}

// sinCR and cosCR are sin and cos correctly rounded (trigCR).
func sinCR(x float64) float64 { return trigCR(x, false) }
func cosCR(x float64) float64 { return trigCR(x, true) }

// asinCR is asin(y) correctly rounded for y in [0, 1] (the haversine's root): Newton's steps
// on sin(t) = y from asin's value, with the residual in double-double, until the rounded value
// stops moving.
func asinCR(y float64) float64 {
	switch {
	case y == 0:
		return 0
	case y == 1:
		return math.Pi / 2
	case y < 0 || y > 1:
		return math.Asin(y)
	}
	t := asin(y)
	for range 6 {
		r := ddAdd(trigDD(t, false), dd{-y, 0})
		delta := (r.hi + r.lo) / math.Cos(t)
		next := t - delta
		if next == t {
			break
		}
		t = next
	}
	return t
}

// DistanceExact is Distance with correctly rounded sines, cosines and arcsine, as glibc's:
// bit for bit Redis's geohashGetDistance.
func DistanceExact(long1, lat1, long2, lat2 float64) float64 {
	long1r := degRad(long1)
	long2r := degRad(long2)
	v := sinCR((long2r - long1r) / 2)
	if v == 0 {
		return LatDistance(lat1, lat2)
	}
	lat1r := degRad(lat1)
	lat2r := degRad(lat2)
	u := sinCR((lat2r - lat1r) / 2)
	a := float64(u*u) + float64(float64(float64(cosCR(lat1r)*cosCR(lat2r))*v)*v)
	return 2.0 * EarthRadius * asinCR(math.Sqrt(a))
}

// NearTie reports whether d (a distance in a unit, computed by Distance) is close enough to a
// rounding tie of its four-decimal text that Distance's error could change the text: then the
// reply must use DistanceExact.
func NearTie(d float64) bool {
	x := d * 10000
	f := x - math.Floor(x)
	return math.Abs(f-0.5) <= distanceError*math.Abs(x)+1e-12
}

// nearEdge reports whether Distance's d may be on the other side of limit than the exact
// distance.
func nearEdge(d, limit float64) bool {
	return math.Abs(d-limit) <= distanceError*math.Max(math.Abs(d), math.Abs(limit))
}

// distanceError bounds Distance's relative difference from DistanceExact, with a margin: the
// largest seen is 5e-15 (testdata/areas.txt).
const distanceError = 2e-14
