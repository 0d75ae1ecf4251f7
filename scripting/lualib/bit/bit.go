// Package bit is LuaBitOp 1.0.2 (Redis's lua_bit.c) for gopher-lua: the global table "bit"
// with tobit, tohex, bnot, band, bor, bxor, lshift, rshift, arshift, rol, ror and bswap, all on
// 32-bit integers returned as signed Lua numbers.
package bit

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/internal/clua"
)

// Open sets the global table "bit".
func Open(L *lua.LState) {
	t := L.NewTable()
	for _, f := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{"tobit", tobit}, {"bnot", bnot}, {"band", band}, {"bor", bor}, {"bxor", bxor},
		{"lshift", lshift}, {"rshift", rshift}, {"arshift", arshift}, {"rol", rol}, {"ror", ror},
		{"bswap", bswap}, {"tohex", tohex},
	} {
		t.RawSetString(f.name, L.NewFunction(f.fn))
	}
	L.SetGlobal("bit", t)
}

// Normalize is LuaBitOp's conversion of a number to 32 bits: the low word of n + 2^52 + 2^51,
// that is n rounded to the nearest integer (ties to even) modulo 2^32. NaN and ±Inf give 0.
func Normalize(n float64) uint32 {
	if math.IsNaN(n) {
		return 0 // glibc's and x86's NaNs have an empty low word
	}
	return uint32(math.Float64bits(n + 6755399441055744.0))
}

// arg is barg: argument i as 32 bits; Lua 5.1's lua_tonumber accepts numeric strings and
// refuses other values only when they give 0.
func arg(L *lua.LState, i int) uint32 {
	n, ok := clua.ToNumber(L.Get(i))
	b := Normalize(n)
	if b == 0 && !ok {
		clua.TypeError(L, i, "number")
	}
	return b
}

func ret(L *lua.LState, b uint32) int {
	L.Push(lua.LNumber(int32(b)))
	return 1
}

func tobit(L *lua.LState) int { return ret(L, arg(L, 1)) }
func bnot(L *lua.LState) int  { return ret(L, ^arg(L, 1)) }

// fold applies op over every argument, from the last to the second, as BIT_OP does (the order
// in which arguments are checked shows in which bad argument is reported).
func fold(L *lua.LState, op func(a, b uint32) uint32) int {
	b := arg(L, 1)
	for i := L.GetTop(); i > 1; i-- {
		b = op(b, arg(L, i))
	}
	return ret(L, b)
}

func band(L *lua.LState) int { return fold(L, func(a, b uint32) uint32 { return a & b }) }
func bor(L *lua.LState) int  { return fold(L, func(a, b uint32) uint32 { return a | b }) }
func bxor(L *lua.LState) int { return fold(L, func(a, b uint32) uint32 { return a ^ b }) }

// shift reads the value, then the count (masked to 5 bits), as BIT_SH does.
func shift(L *lua.LState, op func(b, n uint32) uint32) int {
	b := arg(L, 1)
	n := arg(L, 2) & 31
	return ret(L, op(b, n))
}

func lshift(L *lua.LState) int {
	return shift(L, func(b, n uint32) uint32 { return b << n })
}
func rshift(L *lua.LState) int {
	return shift(L, func(b, n uint32) uint32 { return b >> n })
}
func arshift(L *lua.LState) int {
	return shift(L, func(b, n uint32) uint32 { return uint32(int32(b) >> n) })
}

// rol and ror: C's (b << n) | (b >> (32-n)) with n = 0 shifts by 32, which x86 takes modulo 32:
// the value comes back unchanged either way.
func rol(L *lua.LState) int {
	return shift(L, func(b, n uint32) uint32 { return b<<n | b>>((32-n)&31) })
}
func ror(L *lua.LState) int {
	return shift(L, func(b, n uint32) uint32 { return b<<((32-n)&31) | b>>n })
}

func bswap(L *lua.LState) int {
	b := arg(L, 1)
	return ret(L, b>>24|(b>>8)&0xff00|(b&0xff00)<<8|b<<24)
}

// tohex writes the low n digits (default 8, at most 8) of the value; a negative n gives
// upper-case digits.
func tohex(L *lua.LState) int {
	b := arg(L, 1)
	n := int32(8)
	if L.GetTop() >= 2 {
		n = int32(arg(L, 2))
	}
	digits := "0123456789abcdef"
	if n == math.MinInt32 {
		n = math.MinInt32 + 1
	}
	if n < 0 {
		n = -n
		digits = "0123456789ABCDEF"
	}
	if n > 8 {
		n = 8
	}
	var buf [8]byte
	for i := n - 1; i >= 0; i-- {
		buf[i] = digits[b&15]
		b >>= 4
	}
	L.Push(lua.LString(buf[:n]))
	return 1
}
