package bit_test

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/scripting/lualib/bit"
	"github.com/kvserver/kvserver/scripting/lualib/internal/libtest"
)

func randNumber(r *rand.Rand) string {
	var f float64
	switch r.Intn(4) {
	case 0:
		f = math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 1.5
		}
	case 1:
		f = float64(r.Int63()) * math.Pow(2, float64(r.Intn(40)-20))
	case 2:
		f = float64(r.Intn(80)-40) + []float64{0, 0.5, 0.25, 0.75}[r.Intn(4)]
	default:
		return strconv.Quote(strconv.FormatInt(r.Int63n(1<<33)-1<<32, []int{10, 16}[r.Intn(2)]))
	}
	return "(" + strconv.FormatFloat(f, 'g', -1, 64) + ")"
}

// TestRefRandom compares every function on random numbers with redis-server's.
func TestRefRandom(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	var exprs []string
	for i := 0; i < 300; i++ {
		a, b, c := randNumber(r), randNumber(r), randNumber(r)
		exprs = append(exprs,
			"bit.tobit("+a+"), bit.bnot("+a+"), bit.bswap("+a+"), bit.tohex("+a+"), bit.tohex("+a+", "+b+")",
			"bit.band("+a+", "+b+", "+c+"), bit.bor("+a+", "+b+"), bit.bxor("+a+", "+b+", "+c+")",
			"bit.lshift("+a+", "+b+"), bit.rshift("+a+", "+b+"), bit.arshift("+a+", "+b+"), bit.rol("+a+", "+b+"), bit.ror("+a+", "+b+")")
	}
	libtest.Differential(t, exprs, bit.Open)
}
