package cmsgpack

import (
	"encoding/binary"
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/internal/clua"
)

// maxNesting is LUACMSGPACK_MAX_NESTING: tables deeper than this encode as nil (which also
// ends cycles).
const maxNesting = 16

// pack is mp_pack: every argument encoded, concatenated.
func pack(L *lua.LState) int {
	n := L.GetTop()
	if n == 0 {
		clua.ArgError(L, 0, "MessagePack pack needs input.")
	}
	if 2*n > clua.MaxCStack { // lua_checkstack(L, nargs) with nargs slots already held
		clua.ArgError(L, 0, "Too many arguments for MessagePack pack.")
	}
	var buf []byte
	for i := 1; i <= n; i++ {
		buf = encode(buf, L.Get(i), 0)
	}
	L.Push(lua.LString(buf))
	return 1
}

// encode is mp_encode_lua_type.
func encode(b []byte, v lua.LValue, level int) []byte {
	switch v := v.(type) {
	case lua.LString:
		return encodeBytes(b, string(v))
	case lua.LBool:
		if v {
			return append(b, 0xc3)
		}
		return append(b, 0xc2)
	case lua.LNumber:
		return encodeNumber(b, float64(v))
	case *lua.LTable:
		if level == maxNesting {
			return append(b, 0xc0)
		}
		if n, ok := arrayLen(v); ok {
			b = encodeHeader(b, 0x90, 0xdc, n)
			for i := 1; i <= n; i++ {
				b = encode(b, v.RawGetInt(i), level+1)
			}
			return b
		}
		n := 0
		for k, _ := v.Next(lua.LNil); k != lua.LNil; k, _ = v.Next(k) {
			n++
		}
		b = encodeHeader(b, 0x80, 0xde, n)
		for k, x := v.Next(lua.LNil); k != lua.LNil; k, x = v.Next(k) {
			b = encode(b, k, level+1)
			b = encode(b, x, level+1)
		}
		return b
	}
	return append(b, 0xc0)
}

// arrayLen is table_is_an_array: the keys are numbers that are positive C ints, and the
// highest is their count (so they are 1..n).
func arrayLen(t *lua.LTable) (int, bool) {
	count, max := 0, 0
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		n, ok := k.(lua.LNumber)
		f := float64(n)
		if !ok || f <= 0 || float64(clua.DoubleToInt32(f)) != f {
			return 0, false
		}
		if int(f) > max {
			max = int(f)
		}
		count++
	}
	return count, max == count
}

// encodeBytes is mp_encode_bytes: fixstr, str8, str16 or str32.
func encodeBytes(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= 0xff:
		b = append(b, 0xd9, byte(n))
	case n <= 0xffff:
		b = append(b, 0xda, byte(n>>8), byte(n))
	default:
		b = append(b, 0xdb)
		b = binary.BigEndian.AppendUint32(b, uint32(n))
	}
	return append(b, s...)
}

// encodeHeader writes an array's or a map's length: fix (up to 15), 16-bit or 32-bit form.
func encodeHeader(b []byte, fix, code16 byte, n int) []byte {
	switch {
	case n <= 15:
		return append(b, fix|byte(n))
	case n <= 0xffff:
		return append(b, code16, byte(n>>8), byte(n))
	}
	b = append(b, code16+1)
	return binary.BigEndian.AppendUint32(b, uint32(n))
}

// encodeNumber is mp_encode_lua_number: an integer when the number converts to int64 and
// back unchanged, else a float when float32 holds it exactly, else a double.
func encodeNumber(b []byte, f float64) []byte {
	if !math.IsInf(f, 0) && float64(clua.DoubleToInt64(f)) == f {
		return encodeInt(b, clua.DoubleToInt64(f))
	}
	if f32 := float32(f); float64(f32) == f {
		b = append(b, 0xca)
		return binary.BigEndian.AppendUint32(b, math.Float32bits(f32))
	}
	b = append(b, 0xcb)
	return binary.BigEndian.AppendUint64(b, math.Float64bits(f))
}

// encodeInt is mp_encode_int: the smallest form (non-negative numbers as unsigned).
func encodeInt(b []byte, n int64) []byte {
	if n >= 0 {
		switch {
		case n <= 127:
			return append(b, byte(n))
		case n <= 0xff:
			return append(b, 0xcc, byte(n))
		case n <= 0xffff:
			return append(b, 0xcd, byte(n>>8), byte(n))
		case n <= 0xffffffff:
			return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(n))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcf), uint64(n))
	}
	switch {
	case n >= -32:
		return append(b, byte(n))
	case n >= -128:
		return append(b, 0xd0, byte(n))
	case n >= -32768:
		return append(b, 0xd1, byte(n>>8), byte(n))
	case n >= -2147483648:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
}
