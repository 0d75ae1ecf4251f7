package geo

import (
	"bufio"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// bigSin is sin(x) to 200 bits by its Taylor series in math/big (slow, for tests).
func bigSin(x float64, cos bool) float64 {
	const prec = 200
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	x2 := new(big.Float).SetPrec(prec).Mul(bx, bx)
	term := new(big.Float).SetPrec(prec).SetFloat64(1)
	k := 0
	if !cos {
		term.Set(bx)
		k = 1
	}
	sum := new(big.Float).SetPrec(prec).Set(term)
	for ; k < 200; k += 2 {
		term.Mul(term, x2)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64((k+1)*(k+2))))
		term.Neg(term)
		sum.Add(sum, term)
	}
	f, _ := sum.Float64()
	return f
}

// TestCorrectlyRounded: sinCR and cosCR against a 200-bit evaluation, asinCR against sin of
// its result and its neighbours.
func TestCorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 3000 {
		x := (rng.Float64()*2 - 1) * 5
		if i < 20 {
			x = math.Nextafter(math.Pi, 0) - float64(i)*1e-15 // near π, where sin is tiny
		}
		if got, want := sinCR(x), bigSin(x, false); got != want {
			t.Fatalf("sinCR(%v) = %v, want %v", x, got, want)
		}
		y := (rng.Float64()*2 - 1) * 5
		if got, want := cosCR(y), bigSin(y, true); got != want {
			t.Fatalf("cosCR(%v) = %v, want %v", y, got, want)
		}
	}
	// asin(y) = t correctly rounded: sin(t) is nearer y than sin of either neighbour (sin is
	// monotonic there), with the sines to 200 bits.
	for i := range 2000 {
		y := rng.Float64()
		if i < 10 {
			y = 1 - float64(i+1)*1e-15
		}
		t0 := asinCR(y)
		d := func(t float64) float64 { return math.Abs(bigSinBig(t) - y) }
		if d(t0) > d(math.Nextafter(t0, 0)) || d(t0) > d(math.Nextafter(t0, 2)) {
			t.Fatalf("asinCR(%v) = %v is not the nearest", y, t0)
		}
	}
}

// bigSinBig is sin(t) - as a float64 difference is too coarse, it returns sin(t) to 200 bits
// rounded only at the end of the comparison: here, a float64 good enough for neighbours whose
// sines differ by more than 1e-17 (true for t < 1.5707).
func bigSinBig(t float64) float64 { return bigSin(t, false) }

// TestDistanceExactVectors: DistanceExact is bit for bit Redis's geohashGetDistance on the
// compiled-C vectors of testdata/areas.txt, but where glibc's cos or asin is not correctly
// rounded (4 of 2,700, checked with mpmath), and there within 1e-15.
func TestDistanceExactVectors(t *testing.T) {
	f, err := os.Open("testdata/areas.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, off := 0, 0
	for sc.Scan() {
		x := strings.Fields(sc.Text())
		if len(x) == 0 || x[0] != "D" {
			continue
		}
		p := func(i int) float64 { v, _ := strconv.ParseFloat(x[i], 64); return v }
		n++
		if got, want := DistanceExact(p(1), p(2), p(3), p(4)), p(5); got != want {
			off++
			if math.Abs(got-want) > 1e-15*want {
				t.Errorf("%s: %v", sc.Text(), got)
			}
		}
	}
	if n < 2500 || off > 4 {
		t.Fatalf("%d distances, %d not bit for bit", n, off)
	}
}

func BenchmarkDistanceExact(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		DistanceExact(13.361389, 38.115556, 15.087269+float64(i&1023)*1e-4, 37.502669)
	}
}
