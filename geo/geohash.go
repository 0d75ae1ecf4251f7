package geo

// The limits of a position, geohash.h's GEO_* constants (EPSG:900913: no pole). Variables,
// not constants, so that arithmetic on them is float64 arithmetic as in C, never Go's exact
// constant arithmetic.
var (
	LongMin = -180.0
	LongMax = 180.0
	LatMin  = -85.05112878
	LatMax  = 85.05112878
)

// StepMax is the step of a stored position: 26 bits per coordinate, 52 in all.
const StepMax = 26

// Bits is a cell: Step bits of each coordinate interleaved in the low 2×Step bits
// (GeoHashBits). The zero Bits (Step 0) is "no cell", as HASHISZERO.
type Bits struct {
	Bits uint64
	Step uint8
}

// IsZero reports whether h is the zero cell (HASHISZERO: no bits and no step).
func (h Bits) IsZero() bool { return h.Bits == 0 && h.Step == 0 }

// Range is a coordinate's interval.
type Range struct{ Min, Max float64 }

// isZero is RANGEISZERO.
func (r Range) isZero() bool { return r.Max == 0 && r.Min == 0 }

// Area is a cell and the coordinates it covers (GeoHashArea).
type Area struct {
	Hash      Bits
	Longitude Range
	Latitude  Range
}

// Neighbors are the eight cells around one, at its step (GeoHashNeighbors).
type Neighbors struct {
	North, East, West, South                   Bits
	NorthEast, SouthEast, NorthWest, SouthWest Bits
}

// CoordRange is the WGS84 ranges of a stored position (geohashGetCoordRange).
func CoordRange() (long, lat Range) {
	return Range{LongMin, LongMax}, Range{LatMin, LatMax}
}

// spread moves the 32 bits of v to the even bit positions of the result.
func spread(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	x = (x | x<<8) & 0x00FF00FF00FF00FF
	x = (x | x<<4) & 0x0F0F0F0F0F0F0F0F
	x = (x | x<<2) & 0x3333333333333333
	x = (x | x<<1) & 0x5555555555555555
	return x
}

// squeeze gathers the even bits of x into 32 bits (spread's inverse).
func squeeze(x uint64) uint32 {
	x &= 0x5555555555555555
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0F0F0F0F0F0F0F0F
	x = (x | x>>4) & 0x00FF00FF00FF00FF
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	x = (x | x>>16) & 0x00000000FFFFFFFF
	return uint32(x)
}

// interleave puts lat's bits at the even positions and long's at the odd ones (interleave64).
func interleave(lat, long uint32) uint64 { return spread(lat) | spread(long)<<1 }

// Encode is geohashEncode: the cell of step bits per coordinate holding (long, lat) within
// the ranges given. false for a step outside 1..32, an empty range, or a position outside
// the WGS84 limits or the ranges.
func Encode(longR, latR Range, long, lat float64, step uint8) (Bits, bool) {
	if step > 32 || step == 0 || latR.isZero() || longR.isZero() {
		return Bits{}, false
	}
	if long > LongMax || long < LongMin || lat > LatMax || lat < LatMin {
		return Bits{}, false
	}
	if lat < latR.Min || lat > latR.Max || long < longR.Min || long > longR.Max {
		return Bits{Step: step}, false
	}
	latOffset := (lat - latR.Min) / (latR.Max - latR.Min)
	longOffset := (long - longR.Min) / (longR.Max - longR.Min)
	scale := float64(uint64(1) << step)
	latOffset *= scale
	longOffset *= scale
	// C converts the offsets to uint32_t (truncation); the top position (offset 2^step)
	// keeps its bit above the step, as Redis's.
	return Bits{Bits: interleave(uint32(latOffset), uint32(longOffset)), Step: step}, true
}

// EncodeWGS84 is Encode within CoordRange (geohashEncodeWGS84).
func EncodeWGS84(long, lat float64, step uint8) (Bits, bool) {
	lr, ar := CoordRange()
	return Encode(lr, ar, long, lat, step)
}

// Decode is geohashDecode: the area cell h covers within the ranges. false for the zero cell
// or an empty range.
func Decode(longR, latR Range, h Bits) (Area, bool) {
	if h.IsZero() || latR.isZero() || longR.isZero() {
		return Area{}, false
	}
	ilat := squeeze(h.Bits)
	ilong := squeeze(h.Bits >> 1)
	// ilat+1 and ilong+1 wrap as C's uint32_t arithmetic does.
	latScale := latR.Max - latR.Min
	longScale := longR.Max - longR.Min
	div := float64(uint64(1) << h.Step)
	return Area{
		Hash: h,
		Latitude: Range{
			Min: latR.Min + float64(float64(ilat)*1.0/div)*latScale,
			Max: latR.Min + float64(float64(ilat+1)*1.0/div)*latScale,
		},
		Longitude: Range{
			Min: longR.Min + float64(float64(ilong)*1.0/div)*longScale,
			Max: longR.Min + float64(float64(ilong+1)*1.0/div)*longScale,
		},
	}, true
}

// DecodeWGS84 is Decode within CoordRange.
func DecodeWGS84(h Bits) (Area, bool) {
	lr, ar := CoordRange()
	return Decode(lr, ar, h)
}

// Center is geohashDecodeAreaToLongLat: the middle of the area, held within the WGS84 limits.
func (a Area) Center() (long, lat float64) {
	long = (a.Longitude.Min + a.Longitude.Max) / 2
	long = min(max(long, LongMin), LongMax)
	lat = (a.Latitude.Min + a.Latitude.Max) / 2
	lat = min(max(lat, LatMin), LatMax)
	return long, lat
}

// DecodeToLongLat is geohashDecodeToLongLatWGS84: the centre of cell h.
func DecodeToLongLat(h Bits) (long, lat float64, ok bool) {
	a, ok := DecodeWGS84(h)
	if !ok {
		return 0, 0, false
	}
	long, lat = a.Center()
	return long, lat, true
}

// Align52 shifts h's bits to the top of 52 (geohashAlign52Bits): the lowest score of the
// positions inside cell h.
func Align52(h Bits) uint64 { return h.Bits << (52 - uint(h.Step)*2) }

// Score is the sorted-set score of a position (GEOADD): its cell at StepMax, as a float64
// (exact: below 2^52). false outside the WGS84 limits.
func Score(long, lat float64) (float64, bool) {
	h, ok := EncodeWGS84(long, lat, StepMax)
	if !ok {
		return 0, false
	}
	return float64(Align52(h)), true
}

// ScoreBits converts a score to the cell's bits as C's (uint64_t) cast does on x86-64, so a
// score that no GEOADD wrote (negative, huge, NaN, set by ZADD) decodes to what Redis
// replies: below 2^63 through a signed conversion (truncation; out of range or NaN gives
// 2^63), from 2^63 up as the unsigned conversion of the value less 2^63 with the top bit set.
func ScoreBits(score float64) uint64 {
	const two63 = 9223372036854775808.0
	if score >= two63 {
		return cvttsd2si(score-two63) ^ (1 << 63)
	}
	return cvttsd2si(score)
}

// cvttsd2si is the x86-64 instruction's truncating conversion to int64, bit for bit: values
// outside int64's range and NaN give the "integer indefinite" 2^63.
func cvttsd2si(f float64) uint64 {
	if f != f || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return 1 << 63
	}
	return uint64(int64(f))
}

// DecodeScore is geo.c's decodeGeohash: the position of a score, the centre of its StepMax
// cell. It never fails (a cell of step 26 is never the zero cell).
//
// It is DecodeToLongLat with the step and ranges fixed, written out: a search decodes every
// candidate's score, and the general path's Area values and calls cost more than its
// arithmetic (a quarter of a GEOSEARCH's CPU). Each operation is the general path's, in its
// order, so the results are the same bit for bit (TestDecodeScoreMatchesGeneral).
func DecodeScore(score float64) (long, lat float64) {
	bits := ScoreBits(score)
	ilat := squeeze(bits)
	ilong := squeeze(bits >> 1)
	// ilat+1 and ilong+1 wrap as C's uint32_t arithmetic does (a score no GEOADD wrote may
	// fill all 32 bits).
	const div = float64(uint64(1) << StepMax)
	latScale := LatMax - LatMin
	longScale := LongMax - LongMin
	latLo := LatMin + float64(float64(ilat)*1.0/div)*latScale
	latHi := LatMin + float64(float64(ilat+1)*1.0/div)*latScale
	longLo := LongMin + float64(float64(ilong)*1.0/div)*longScale
	longHi := LongMin + float64(float64(ilong+1)*1.0/div)*longScale
	long = min(max((longLo+longHi)/2, LongMin), LongMax)
	lat = min(max((latLo+latHi)/2, LatMin), LatMax)
	return long, lat
}

// moveX moves h one cell east (d > 0) or west (d < 0), wrapping around (geohash_move_x).
func moveX(h *Bits, d int) {
	if d == 0 {
		return
	}
	x := h.Bits & 0xaaaaaaaaaaaaaaaa
	y := h.Bits & 0x5555555555555555
	zz := uint64(0x5555555555555555) >> (64 - uint(h.Step)*2)
	if d > 0 {
		x += zz + 1
	} else {
		x |= zz
		x -= zz + 1
	}
	x &= 0xaaaaaaaaaaaaaaaa >> (64 - uint(h.Step)*2)
	h.Bits = x | y
}

// moveY moves h one cell north (d > 0) or south (d < 0), wrapping around (geohash_move_y).
func moveY(h *Bits, d int) {
	if d == 0 {
		return
	}
	x := h.Bits & 0xaaaaaaaaaaaaaaaa
	y := h.Bits & 0x5555555555555555
	zz := uint64(0xaaaaaaaaaaaaaaaa) >> (64 - uint(h.Step)*2)
	if d > 0 {
		y += zz + 1
	} else {
		y |= zz
		y -= zz + 1
	}
	y &= 0x5555555555555555 >> (64 - uint(h.Step)*2)
	h.Bits = x | y
}

// GetNeighbors is geohashNeighbors: the eight cells around h at its step.
func GetNeighbors(h Bits) Neighbors {
	at := func(dx, dy int) Bits {
		n := h
		moveX(&n, dx)
		moveY(&n, dy)
		return n
	}
	return Neighbors{
		East: at(1, 0), West: at(-1, 0), South: at(0, -1), North: at(0, 1),
		NorthWest: at(-1, 1), NorthEast: at(1, 1), SouthEast: at(1, -1), SouthWest: at(-1, -1),
	}
}
