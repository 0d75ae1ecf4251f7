// Package clua reproduces the few behaviours of Lua 5.1's C API that Redis's Lua libraries
// (lua_cjson.c, lua_cmsgpack.c, lua_bit.c, lua_struct.c) rely on, for their gopher-lua
// versions: luaL_error's position prefix, luaL_argerror's and luaL_typerror's words,
// lua_tonumber's conversion of strings (strtod), lua_tolstring's "%.14g", luaL_checkstack's
// 8000-slot limit and x86-64's conversions of doubles to integers.
package clua

import (
	"fmt"
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// MaxCStack is Lua 5.1's LUAI_MAXCSTACK: lua_checkstack fails when a C function would hold
// more than this many stack slots. The libraries use it to bound their recursion.
const MaxCStack = 8000

// Where is luaL_where(L, 1): "source:line: " of the Lua function that called the running Go
// function, or "" when the caller is not a Lua function (pcall(f, ...), a Go caller).
func Where(L *lua.LState) string {
	dbg, ok := L.GetStack(1)
	if !ok {
		return ""
	}
	if _, err := L.GetInfo("Sl", dbg, nil); err != nil || dbg.What == "G" || dbg.CurrentLine <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", dbg.Source, dbg.CurrentLine)
}

// Errorf raises luaL_error's error: the message prefixed by Where. It does not return.
func Errorf(L *lua.LState, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	L.Error(lua.LString(Where(L)+msg), 0)
}

// funcName is the name luaL_argerror reports for the running Go function: the name the
// calling Lua code used ("tobit" for bit.tobit(x), "f" for a local f), or "?" when it is not
// known (called from pcall or from Go).
func funcName(L *lua.LState) string {
	caller, ok := L.GetStack(1)
	if !ok {
		return "?"
	}
	if _, err := L.GetInfo("S", caller, nil); err != nil || caller.What == "G" {
		return "?"
	}
	dbg, ok := L.GetStack(0)
	if !ok {
		return "?"
	}
	if _, err := L.GetInfo("n", dbg, nil); err != nil {
		return "?"
	}
	name := dbg.Name
	if name == "" || name == "?" || name == "(anonymous)" || strings.HasPrefix(name, "<") {
		return "?"
	}
	return name
}

// ArgError raises luaL_argerror's error: "bad argument #n to 'name' (msg)".
func ArgError(L *lua.LState, n int, msg string) {
	Errorf(L, "bad argument #%d to '%s' (%s)", n, funcName(L), msg)
}

// TypeName is luaL_typename: Lua 5.1's name of argument n's type, "no value" past the top.
func TypeName(L *lua.LState, n int) string {
	if n > L.GetTop() {
		return "no value"
	}
	v := L.Get(n)
	if v.Type() == lua.LTUserData {
		return "userdata"
	}
	return v.Type().String()
}

// TypeError raises luaL_typerror's error: "bad argument #n to 'name' (number expected, got
// string)".
func TypeError(L *lua.LState, n int, expected string) {
	ArgError(L, n, expected+" expected, got "+TypeName(L, n))
}

// ToNumber is lua_tonumber: a number, or a string that converts as a whole (strtod, then
// trailing spaces); ok is false for anything else (the value is then 0).
func ToNumber(v lua.LValue) (f float64, ok bool) {
	switch v := v.(type) {
	case lua.LNumber:
		return float64(v), true
	case lua.LString:
		return StringToNumber(string(v))
	}
	return 0, false
}

// StringToNumber is Lua 5.1's luaO_str2d: strtod over the whole string, spaces allowed around
// it.
func StringToNumber(s string) (float64, bool) {
	f, n := Strtod(s)
	if n == 0 {
		return 0, false
	}
	for _, c := range []byte(s[n:]) {
		if !isSpace(c) {
			return 0, false
		}
	}
	return f, true
}

// CheckNumber is luaL_checknumber (Lua 5.1: a non-number argument that converts to 0 is
// still refused).
func CheckNumber(L *lua.LState, n int) float64 {
	f, ok := ToNumber(L.Get(n))
	if !ok {
		TypeError(L, n, "number")
	}
	return f
}

// OptNumber is luaL_optnumber.
func OptNumber(L *lua.LState, n int, def float64) float64 {
	if L.Get(n) == lua.LNil {
		return def
	}
	return CheckNumber(L, n)
}

// CheckInteger is luaL_checkinteger: the number truncated to a 64-bit integer as x86-64's
// cvttsd2si does.
func CheckInteger(L *lua.LState, n int) int64 {
	return DoubleToInt64(CheckNumber(L, n))
}

// OptInteger is luaL_optinteger: def when argument n is nil or absent.
func OptInteger(L *lua.LState, n int, def int64) int64 {
	if L.Get(n) == lua.LNil {
		return def
	}
	return CheckInteger(L, n)
}

// CheckString is luaL_checklstring: a string, or a number converted with "%.14g".
func CheckString(L *lua.LState, n int) string {
	switch v := L.Get(n).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return FormatG(float64(v), 14)
	}
	TypeError(L, n, "string")
	return ""
}

// DoubleToInt64 converts as x86-64's cvttsd2si: truncation toward zero, and the "integer
// indefinite" 0x8000000000000000 for NaN and values out of range.
func DoubleToInt64(f float64) int64 {
	if f != f || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(f)
}

// DoubleToInt32 converts as cvttsd2si with a 32-bit destination (C's (int)d).
func DoubleToInt32(f float64) int32 {
	if f != f || f >= 2147483648.0 || f < -2147483648.0 {
		return math.MinInt32
	}
	return int32(f)
}

// DoubleToUint64 converts as gcc's x86-64 code for (unsigned long)d: below 2^63 (and NaN)
// through cvttsd2si, above by subtracting 2^63 first and setting the top bit back.
func DoubleToUint64(f float64) uint64 {
	const two63 = 9223372036854775808.0
	if !(f >= two63) {
		return uint64(DoubleToInt64(f))
	}
	return uint64(DoubleToInt64(f-two63)) ^ (1 << 63)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
