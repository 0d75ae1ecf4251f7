package luastruct_test

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/scripting/lualib/internal/libtest"
	"github.com/kvserver/kvserver/scripting/lualib/luastruct"
)

func randFormat(r *rand.Rand) string {
	const letters = "bBhHlLTiIfdxcs<>! 0123456789"
	var b strings.Builder
	for n := 1 + r.Intn(8); n > 0; n-- {
		c := letters[r.Intn(len(letters))]
		b.WriteByte(c)
		if (c == 'i' || c == 'I' || c == 'c' || c == '!') && r.Intn(2) == 0 {
			b.WriteString(strconv.Itoa([]int{0, 1, 2, 3, 4, 8, 9, 16, 33}[r.Intn(9)]))
		}
	}
	return b.String()
}

func randArg(r *rand.Rand) string {
	switch r.Intn(5) {
	case 0:
		return libtest.LuaString([]string{"", "a", "abc", "hello world", "x\x00y"}[r.Intn(5)])
	case 1:
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = -3
		}
		return "(" + strconv.FormatFloat(f, 'g', -1, 64) + ")"
	default:
		return "(" + strconv.FormatInt(r.Int63n(1<<40)-1<<39, 10) + ")"
	}
}

// TestRefRandom compares random packs, unpacks and sizes with redis-server's.
func TestRefRandom(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	var exprs []string
	for i := 0; i < 800; i++ {
		f := libtest.LuaString(randFormat(r))
		args := make([]string, r.Intn(6))
		for k := range args {
			args[k] = randArg(r)
		}
		exprs = append(exprs, "struct.size("+f+")")
		exprs = append(exprs, "struct.pack("+strings.Join(append([]string{f}, args...), ", ")+")")
		data := make([]byte, r.Intn(40))
		for k := range data {
			data[k] = byte(r.Intn(256))
			if r.Intn(4) == 0 {
				data[k] = 0
			}
		}
		exprs = append(exprs, "struct.unpack("+f+", "+libtest.LuaString(string(data))+", "+strconv.Itoa(1+r.Intn(5))+")")
	}
	libtest.Differential(t, exprs, luastruct.Open)
}
