package cmsgpack_test

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/scripting/lualib/cmsgpack"
	"github.com/kvserver/kvserver/scripting/lualib/internal/libtest"
)

func randNumber(r *rand.Rand) string {
	var f float64
	switch r.Intn(5) {
	case 0:
		f = math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0.25
		}
	case 1: // around the integer forms' bounds
		b := []float64{0, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, 1 << 53, 1 << 63, 1 << 64}[r.Intn(12)]
		f = b + float64(r.Intn(3)-1)
		if r.Intn(2) == 0 {
			f = -f
		}
	case 2:
		f = float64(float32(r.NormFloat64() * 1000))
	case 3:
		f = r.NormFloat64() * math.Pow(10, float64(r.Intn(80)-40))
	default:
		f = float64(r.Int63n(1<<40) - 1<<39)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if f < 0 || s[0] == '-' {
		s = "(" + s + ")"
	}
	return s
}

func randString(r *rand.Rand) string {
	n := []int{0, 1, 31, 32, 255, 256, r.Intn(40)}[r.Intn(7)] // 64 KiB forms: testdata/cases.txt
	if n > 40 {
		return "string.rep('x', " + strconv.Itoa(n) + ")"
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Intn(256))
	}
	return libtest.LuaString(string(b))
}

// randValue is a Lua expression whose packing does not depend on table order.
func randValue(r *rand.Rand, depth int) string {
	switch k := r.Intn(10); {
	case k < 3:
		return randNumber(r)
	case k < 5:
		return randString(r)
	case k == 5:
		return []string{"true", "false", "nil"}[r.Intn(3)]
	case depth > 18:
		return "{}"
	case k < 8:
		n := []int{0, 1, 3, 15, 16, 17}[r.Intn(6)]
		if depth > 1 {
			n = r.Intn(2) // deep chains, not wide trees
		}
		parts := make([]string, n)
		for i := range parts {
			parts[i] = randValue(r, depth+1)
			if parts[i] == "nil" {
				parts[i] = "0"
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	default:
		key := randNumber(r)
		if r.Intn(2) == 0 {
			key = randString(r)
		}
		v := randValue(r, depth+1)
		return "{[" + key + "] = " + v + "}"
	}
}

// randBytes is msgpack-like input: random bytes biased to valid headers.
func randBytes(r *rand.Rand) string {
	n := r.Intn(24)
	b := make([]byte, n)
	for i := range b {
		if r.Intn(3) == 0 {
			b[i] = []byte{0x81, 0x92, 0xa1, 0xc0, 0xca, 0xcb, 0xcc, 0xcf, 0xd3, 0xd9, 0xdc, 0xde, 0xdf, 0xff, 0x7f}[r.Intn(15)]
		} else {
			b[i] = byte(r.Intn(256))
		}
	}
	return libtest.LuaString(string(b))
}

// TestRefRandom compares random packs and unpacks with redis-server's.
func TestRefRandom(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	var exprs []string
	for i := 0; i < 1000; i++ {
		exprs = append(exprs, "cmsgpack.pack("+randValue(r, 0)+", "+randValue(r, 0)+")")
	}
	for i := 0; i < 1500; i++ {
		exprs = append(exprs, "cmsgpack.unpack("+randBytes(r)+")")
	}
	for i := 0; i < 500; i++ {
		exprs = append(exprs, "cmsgpack.unpack_limit("+randBytes(r)+", "+strconv.Itoa(r.Intn(4))+", "+strconv.Itoa(r.Intn(6))+")")
		exprs = append(exprs, "cmsgpack.unpack_one("+randBytes(r)+", "+strconv.Itoa(r.Intn(6)-1)+")")
	}
	libtest.Differential(t, exprs, cmsgpack.Open)
}
