package cjson_test

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/scripting/lualib/cjson"
	"github.com/kvserver/kvserver/scripting/lualib/internal/libtest"
)

// randNumber is a Lua literal for a number of a random kind (Go's shortest form reads back
// exactly in both Luas).
func randNumber(r *rand.Rand) string {
	var f float64
	switch r.Intn(6) {
	case 0:
		f = math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0.5
		}
	case 1:
		f = float64(r.Int63n(1<<53)) * math.Pow(10, float64(r.Intn(40)-20))
	case 2:
		f = float64(r.Intn(2000) - 1000)
	case 3:
		f = r.NormFloat64() * math.Pow(10, float64(r.Intn(30)-15))
	case 4:
		f = float64(r.Int63()) - float64(r.Int63())
	default:
		f = math.Round(r.Float64()*1e6) / 1e3
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if f < 0 {
		s = "(" + s + ")"
	}
	return s
}

func randString(r *rand.Rand) string {
	n := r.Intn(12)
	b := make([]byte, n)
	for i := range b {
		switch r.Intn(3) {
		case 0:
			b[i] = byte(r.Intn(256))
		case 1:
			b[i] = "\"\\/\b\f\n\r\t\x00\x7f"[r.Intn(10)]
		default:
			b[i] = byte('a' + r.Intn(26))
		}
	}
	return libtest.LuaString(string(b))
}

// randValue is a Lua expression for a value whose encoding does not depend on table order:
// arrays, and objects of one key.
func randValue(r *rand.Rand, depth int) string {
	switch k := r.Intn(10); {
	case k < 3:
		return randNumber(r)
	case k < 5:
		return randString(r)
	case k == 5:
		return []string{"true", "false", "cjson.null"}[r.Intn(3)]
	case depth > 4:
		return "{}"
	case k < 8:
		n := r.Intn(6)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = randValue(r, depth+1)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case k == 8:
		return "{[" + randString(r) + "] = " + randValue(r, depth+1) + "}"
	default:
		return "{[" + randNumber(r) + "] = " + randValue(r, depth+1) + "}"
	}
}

// randJSON is JSON-like text: valid documents, mangled ones and strtod's extensions.
func randJSON(r *rand.Rand, depth int) string {
	atoms := []string{"0", "-0", "1e5", "1E-7", "-12.5e+3", "0x1F", "+3", "007", "1.", ".5", "-", "Infinity",
		"-inf", "NaN", "nan(12)", "true", "false", "null", "nul", `"a\u00e9\ud83d\ude00"`, `"\/\b\t"`,
		`"\ud800"`, `"\q"`, `"unterminated`, "1e400", "123456789012345678901234567890"}
	switch k := r.Intn(8); {
	case k < 4 || depth > 3:
		return atoms[r.Intn(len(atoms))]
	case k < 6:
		n := r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = randJSON(r, depth+1)
		}
		sep := []string{",", ", ", " ,", ",,", " "}[r.Intn(5)]
		return "[" + strings.Join(parts, sep) + []string{"]", "]", "]", "", ",]"}[r.Intn(5)]
	default:
		n := r.Intn(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = `"k` + strconv.Itoa(r.Intn(3)) + `"` + []string{":", ":", " : ", ""}[r.Intn(4)] + randJSON(r, depth+1)
		}
		return "{" + strings.Join(parts, ",") + []string{"}", "}", "}", ""}[r.Intn(4)]
	}
}

// TestRefRandom compares random encodes and decodes with redis-server's.
func TestRefRandom(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	var exprs []string
	for i := 0; i < 1500; i++ {
		exprs = append(exprs, "cjson.encode("+randValue(r, 0)+")")
	}
	for i := 0; i < 1500; i++ {
		exprs = append(exprs, "cjson.decode("+libtest.LuaString(randJSON(r, 0))+")")
	}
	for i := 0; i < 300; i++ {
		p := 1 + r.Intn(14)
		exprs = append(exprs, "cjson.encode_number_precision("+strconv.Itoa(p)+"), cjson.encode("+randNumber(r)+
			"), cjson.encode_number_precision(14)")
	}
	libtest.Differential(t, exprs, cjson.Open)
}
