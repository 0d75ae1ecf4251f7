package geo

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// redisVectors reads testdata/redis.txt: replies recorded from redis-server (the generator's
// commands are in its header).
func redisVectors(t *testing.T) [][]string {
	t.Helper()
	lines, err := readLines("testdata/redis.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range lines {
		rows = append(rows, strings.Fields(line))
	}
	return rows
}

// readLines returns a testdata file's lines, less the empty ones and # comments.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && line[0] != '#' {
			lines = append(lines, line)
		}
	}
	return lines, sc.Err()
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRedisPositions: GEOADD's score, GEOPOS's texts and GEOHASH's string of each position,
// as redis-server replied.
func TestRedisPositions(t *testing.T) {
	n := 0
	for _, r := range redisVectors(t) {
		if r[0] != "P" {
			continue
		}
		n++
		long, lat := num(t, r[1]), num(t, r[2])
		score, ok := Score(long, lat)
		if !ok {
			t.Fatalf("Score(%v, %v) refused", long, lat)
		}
		if got := strconv.FormatFloat(score, 'f', -1, 64); got != r[3] {
			t.Errorf("Score(%v, %v) = %s, redis %s", long, lat, got, r[3])
		}
		checkDecoded(t, score, r[4], r[5], r[6])
	}
	if n < 100 {
		t.Fatalf("only %d positions", n)
	}
}

// TestRedisScores: GEOPOS and GEOHASH of scores ZADD wrote (negative, beyond 2^52, beyond
// 2^64), decoded as Redis's cast does.
func TestRedisScores(t *testing.T) {
	n := 0
	for _, r := range redisVectors(t) {
		if r[0] == "S" {
			n++
			checkDecoded(t, num(t, r[1]), r[2], r[3], r[4])
		}
	}
	if n == 0 {
		t.Fatal("no scores")
	}
}

func checkDecoded(t *testing.T, score float64, wantLong, wantLat, wantHash string) {
	t.Helper()
	long, lat := DecodeScore(score)
	if got := string(AppendCoord(nil, long)); got != wantLong {
		t.Errorf("score %v: longitude %s, redis %s", score, got, wantLong)
	}
	if got := string(AppendCoord(nil, lat)); got != wantLat {
		t.Errorf("score %v: latitude %s, redis %s", score, got, wantLat)
	}
	if got := string(AppendHashString(nil, score)); got != wantHash {
		t.Errorf("score %v: geohash %s, redis %s", score, got, wantHash)
	}
}

// TestRedisDistances: GEODIST in each unit between stored positions (their decoded centres),
// as redis-server replied.
func TestRedisDistances(t *testing.T) {
	units := []float64{Meters, Kilometers, Feet, Miles}
	n := 0
	for _, r := range redisVectors(t) {
		if r[0] != "D" {
			continue
		}
		n++
		s1, _ := Score(num(t, r[1]), num(t, r[2]))
		s2, _ := Score(num(t, r[3]), num(t, r[4]))
		long1, lat1 := DecodeScore(s1)
		long2, lat2 := DecodeScore(s2)
		d := Distance(long1, lat1, long2, lat2)
		for i, u := range units {
			if got := string(AppendDistance(nil, d/u)); got != r[5+i] {
				t.Errorf("GEODIST %v,%v %v,%v unit %v: %s, redis %s", r[1], r[2], r[3], r[4], u, got, r[5+i])
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d distances", n)
	}
}

func TestEncodeLimits(t *testing.T) {
	for _, p := range [][2]float64{{180.0000001, 0}, {-180.0000001, 0}, {0, 85.06}, {0, -85.06}, {math.NaN(), 0}} {
		if _, ok := Score(p[0], p[1]); ok && !math.IsNaN(p[0]) {
			t.Errorf("Score(%v, %v) accepted", p[0], p[1])
		}
	}
	if _, ok := EncodeWGS84(0, 0, 0); ok {
		t.Error("step 0 accepted")
	}
	if _, ok := EncodeWGS84(0, 0, 33); ok {
		t.Error("step 33 accepted")
	}
}

// TestAppendDistance: values checked with C's llrint(d*10000.0) (0.00015×10^4 is 1.4999…).
func TestAppendDistance(t *testing.T) {
	for _, c := range []struct {
		d    float64
		want string
	}{
		{0, "0.0000"}, {1, "1.0000"}, {0.00004, "0.0000"}, {0.00005, "0.0000"}, {0.00015, "0.0001"},
		{0.7750, "0.7750"}, {12.34565, "12.3456"}, {166274.15156960033, "166274.1516"},
		{-2.5, "-2.5000"}, {123456789.98765, "123456789.9876"},
	} {
		if got := string(AppendDistance(nil, c.d)); got != c.want {
			t.Errorf("AppendDistance(%v) = %s, want %s", c.d, got, c.want)
		}
	}
}

func TestAppendCoord(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {180, "180"}, {-1.5, "-1.5"}, {0.1, "0.10000000000000001"},
		{-1e-18, "0"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
	} {
		if got := string(AppendCoord(nil, c.f)); got != c.want {
			t.Errorf("AppendCoord(%v) = %s, want %s", c.f, got, c.want)
		}
	}
}

func TestParseUnit(t *testing.T) {
	for s, want := range map[string]float64{"m": 1, "M": 1, "km": 1000, "KM": 1000, "Km": 1000, "ft": 0.3048, "FT": 0.3048, "mi": 1609.34, "mI": 1609.34} {
		if got, ok := ParseUnit([]byte(s)); !ok || got != want {
			t.Errorf("ParseUnit(%q) = %v, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "meters", "kms", "k", "mm", "yd"} {
		if _, ok := ParseUnit([]byte(s)); ok {
			t.Errorf("ParseUnit(%q) accepted", s)
		}
	}
}

// TestEstimateStepsByRadius: values checked against geohash_helper.c's function compiled.
func TestEstimateStepsByRadius(t *testing.T) {
	for _, c := range []struct {
		r, lat float64
		want   uint8
	}{
		{0, 0, 26}, {1, 0, 24}, {100, 0, 17}, {1000, 0, 14}, {5000000, 0, 2}, {1e9, 0, 1},
		{1000, 70, 13}, {1000, -70, 13}, {1000, 85, 12}, {1000, -81, 12}, {1e-9, 0, 26},
	} {
		if got := EstimateStepsByRadius(c.r, c.lat); got != c.want {
			t.Errorf("EstimateStepsByRadius(%v, %v) = %d, want %d", c.r, c.lat, got, c.want)
		}
	}
}

// TestNeighbors: a neighbour decodes to the adjacent area, and moves wrap around the world.
func TestNeighbors(t *testing.T) {
	h, _ := EncodeWGS84(13.361389, 38.115556, 10)
	a, _ := DecodeWGS84(h)
	n := GetNeighbors(h)
	east, _ := DecodeWGS84(n.East)
	north, _ := DecodeWGS84(n.North)
	sw, _ := DecodeWGS84(n.SouthWest)
	if east.Longitude.Min != a.Longitude.Max || east.Latitude != a.Latitude {
		t.Errorf("east %+v of %+v", east, a)
	}
	if north.Latitude.Min != a.Latitude.Max || north.Longitude != a.Longitude {
		t.Errorf("north %+v of %+v", north, a)
	}
	if sw.Latitude.Max != a.Latitude.Min || sw.Longitude.Max != a.Longitude.Min {
		t.Errorf("south-west %+v of %+v", sw, a)
	}
	// The westernmost cell's west neighbour is the easternmost one.
	w, _ := EncodeWGS84(-180, 0, 5)
	ww, _ := DecodeWGS84(GetNeighbors(w).West)
	if ww.Longitude.Max != 180 {
		t.Errorf("west of the first column: %+v", ww)
	}
}

// TestAreasByShape: the nine cells of a search in Sicily, and the scores of each cell
// contain the positions inside it.
func TestAreasByShape(t *testing.T) {
	s := Shape{Type: Circle, Long: 15, Lat: 37, Radius: 200, Conversion: Kilometers}
	r := AreasByShape(&s)
	if r.Hash.Step != 6 {
		t.Errorf("step %d, want 6", r.Hash.Step)
	}
	cells := r.Cells()
	if cells[0] != r.Hash {
		t.Fatal("first cell is not the centre")
	}
	lo, hi := BoxScores(r.Hash)
	p, _ := Score(15, 37)
	if p < lo || p >= hi {
		t.Errorf("centre score %v outside [%v, %v)", p, lo, hi)
	}
	for _, c := range []struct {
		long, lat float64
		in        bool
	}{{13.361389, 38.115556, true}, {15.087269, 37.502669, true}, {12.758489, 38.788135, false}} {
		plong, plat := DecodeScore(mustScore(t, c.long, c.lat))
		d, in := s.Within(plong, plat)
		if in != c.in {
			t.Errorf("Within(%v, %v) = %v (%v m)", c.long, c.lat, in, d)
		}
	}
	// The box of 400 × 400 km holds Palermo (190 km west) only with its corners.
	b := Shape{Type: Rectangle, Long: 15, Lat: 37, Width: 400, Height: 400, Conversion: Kilometers}
	AreasByShape(&b)
	if _, in := b.Within(DecodeScore(mustScore(t, 13.361389, 38.115556))); !in {
		t.Error("Palermo not in the box")
	}
	if b.Bounds[0] >= 15 || b.Bounds[2] <= 15 || b.Bounds[1] >= 37 || b.Bounds[3] <= 37 {
		t.Errorf("bounds %v", b.Bounds)
	}
}

func mustScore(t *testing.T, long, lat float64) float64 {
	t.Helper()
	s, ok := Score(long, lat)
	if !ok {
		t.Fatalf("Score(%v, %v)", long, lat)
	}
	return s
}

// TestDecodeScoreMatchesGeneral checks the written-out DecodeScore against the general decode
// (DecodeToLongLat at StepMax) bit for bit: stored positions' scores, every edge of the 52-bit
// range, and scores no GEOADD wrote (negative, fractional, beyond 2^52 and 2^63, NaN, ±Inf),
// whose bits C's cast gives and whose cells may fill all 32 bits of a coordinate.
func TestDecodeScoreMatchesGeneral(t *testing.T) {
	general := func(score float64) (float64, float64) {
		long, lat, _ := DecodeToLongLat(Bits{Bits: ScoreBits(score), Step: StepMax})
		return long, lat
	}
	check := func(score float64) {
		t.Helper()
		gl, ga := general(score)
		l, a := DecodeScore(score)
		if math.Float64bits(l) != math.Float64bits(gl) || math.Float64bits(a) != math.Float64bits(ga) {
			t.Fatalf("DecodeScore(%v) = %v, %v; the general decode gives %v, %v", score, l, a, gl, ga)
		}
	}
	for _, s := range []float64{0, 1, 2, 3, 1 << 52, 1<<52 - 1, 1 << 53, 1 << 63, 1 << 64, -1, -0.5, 0.5,
		math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 3471579339700058} {
		check(s)
	}
	r := rand.New(rand.NewPCG(5, 5))
	for range 2_000_000 {
		check(float64(r.Uint64() >> 12))        // a 52-bit cell, as GEOADD stores
		check(math.Float64frombits(r.Uint64())) // any double at all
	}
}

// TestWithinPreparedMatchesUnprepared checks a circle search's prepared path (the centre's
// part of the distance computed once, and the longitude test) against Within on the same
// shape unprepared: the same points inside, at the same distances bit for bit. The shapes
// range from a metre to 15,000 km, near the poles and across the antimeridian; the points are
// drawn around each circle's edge, where a test too eager would drop one.
func TestWithinPreparedMatchesUnprepared(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	inside, rejected := 0, 0
	for range 20_000 {
		radiusKm := math.Pow(10, r.Float64()*7.2-3) // 1 m to 15,850 km
		s := Shape{Type: Circle, Long: r.Float64()*360 - 180, Lat: r.Float64()*170.1 - 85.05, Radius: radiusKm, Conversion: Kilometers}
		if r.IntN(8) == 0 {
			s.Lat = math.Copysign(80+r.Float64()*5.05, s.Lat)
		}
		plain := s
		AreasByShape(&s)
		if s.prepared(s.Radius*s.Conversion) == nil {
			t.Fatal("AreasByShape did not prepare the circle")
		}
		// The radius in degrees of latitude, and the circle's widest span in longitude.
		dLat := radDeg(radiusKm * 1000 / EarthRadius)
		dLong := math.Min(180, dLat/math.Max(math.Cos(degRad(math.Min(89.9, math.Abs(s.Lat)+dLat))), 1e-9))
		for i := range 40 {
			long := s.Long + (r.Float64()*2.4-1.2)*dLong
			lat := min(max(s.Lat+(r.Float64()*2.4-1.2)*dLat, LatMin), LatMax)
			if i%4 == 0 { // on the edge, within 1e-5, 1e-8 or 1e-11 of the radius either way
				eps := []float64{1e-5, 1e-8, 1e-11}[i%3]
				long, lat = destination(s.Long, s.Lat, r.Float64()*2*math.Pi, radiusKm*1000*(1+(r.Float64()*2-1)*eps))
				lat = min(max(lat, LatMin), LatMax)
			}
			long = math.Mod(long+540, 360) - 180
			d, in := s.Within(long, lat)
			wd, win := plain.Within(long, lat)
			if in != win || (in && math.Float64bits(d) != math.Float64bits(wd)) {
				t.Fatalf("circle (%v, %v) r=%v km, point (%v, %v): prepared %v %v, unprepared %v %v",
					s.Long, s.Lat, radiusKm, long, lat, d, in, wd, win)
			}
			if in {
				inside++
			} else if s.circle.surelyOutside(long) && LatDistance(s.Lat, lat) <= s.Radius*s.Conversion {
				rejected++
			}
		}
	}
	// The test must have seen both kinds, or it checked nothing.
	if inside < 10_000 || rejected < 10_000 {
		t.Fatalf("%d points inside, %d rejected by longitude alone: the draw misses the edge", inside, rejected)
	}
	s := Shape{Type: Circle, Long: 10, Lat: 40, Radius: 1000, Conversion: Kilometers}
	AreasByShape(&s)
	s.Long, s.Lat = 20, 45
	if d, _ := s.Within(20, 45); d != 0 {
		t.Fatalf("after moving the centre, the centre is %v m from itself", d)
	}
}

// destination is the point dist metres from (long, lat) along the initial bearing (radians
// from north), on the sphere of EarthRadius.
func destination(long, lat, bearing, dist float64) (float64, float64) {
	d := dist / EarthRadius
	p1, l1 := degRad(lat), degRad(long)
	p2 := math.Asin(math.Sin(p1)*math.Cos(d) + math.Cos(p1)*math.Sin(d)*math.Cos(bearing))
	l2 := l1 + math.Atan2(math.Sin(bearing)*math.Sin(d)*math.Cos(p1), math.Cos(d)-math.Sin(p1)*math.Sin(p2))
	return radDeg(l2), radDeg(p2)
}
