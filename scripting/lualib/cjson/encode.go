package cjson

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/internal/clua"
)

// escapes is lua_cjson's char2escape: the JSON text of each byte that is not written as is.
var escapes = func() (e [256]string) {
	const hex = "0123456789abcdef"
	for c := 0; c < 0x20; c++ {
		e[c] = `\u00` + string(hex[c>>4]) + string(hex[c&15])
	}
	e['\b'], e['\t'], e['\n'], e['\f'], e['\r'] = `\b`, `\t`, `\n`, `\f`, `\r`
	e['"'], e['\\'], e['/'] = `\"`, `\\`, `\/`
	e[0x7f] = `\u007f`
	return e
}()

// encoder is one cjson.encode call.
type encoder struct {
	L   *lua.LState
	cfg *config
	buf []byte
}

// encode is json_encode.
func encode(L *lua.LState, cfg *config) int {
	if L.GetTop() != 1 {
		clua.ArgError(L, 1, "expected 1 argument")
	}
	e := encoder{L: L, cfg: cfg}
	if cfg.keepBuffer {
		e.buf = cfg.buf[:0]
	}
	e.appendData(L.Get(1), 0, 1)
	L.Push(lua.LString(e.buf))
	if cfg.keepBuffer {
		cfg.buf = e.buf
	}
	return 1
}

// fail is json_encode_exception: "Cannot serialise <type of v>: reason".
func (e *encoder) fail(v lua.LValue, reason string) {
	clua.Errorf(e.L, "Cannot serialise %s: %s", typeName(v), reason)
}

func typeName(v lua.LValue) string {
	return v.Type().String()
}

// appendData is json_append_data. depth counts the tables around v; stack is how many Lua
// stack slots lua_cjson would hold at this point (the argument, then 1 per enclosing array
// and 2 per enclosing object), which lua_checkstack bounds at clua.MaxCStack.
func (e *encoder) appendData(v lua.LValue, depth, stack int) {
	switch v := v.(type) {
	case lua.LString:
		e.appendString(string(v))
	case lua.LNumber:
		e.appendNumber(v)
	case lua.LBool:
		if v {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
	case *lua.LTable:
		depth++
		if depth > e.cfg.encodeMaxDepth || stack+3 > clua.MaxCStack {
			clua.Errorf(e.L, "Cannot serialise, excessive nesting (%d)", depth)
		}
		if n := e.arrayLength(v); n > 0 {
			e.appendArray(v, n, depth, stack)
		} else {
			e.appendObject(v, depth, stack)
		}
	case *lua.LNilType:
		e.buf = append(e.buf, "null"...)
	default:
		if v == Null {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.fail(v, "type not supported")
	}
}

// appendString is json_append_string.
func (e *encoder) appendString(s string) {
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		if esc := escapes[s[i]]; esc != "" {
			e.buf = append(e.buf, s[start:i]...)
			e.buf = append(e.buf, esc...)
			start = i + 1
		}
	}
	e.buf = append(e.buf, s[start:]...)
	e.buf = append(e.buf, '"')
}

// appendNumber is json_append_number: "%.<precision>g", with NaN and ±Inf refused, written
// ("nan", "inf", "-inf") or written as null as encode_invalid_numbers says.
func (e *encoder) appendNumber(v lua.LNumber) {
	f := float64(v)
	switch e.cfg.encodeInvalid {
	case invalidOff:
		if math.IsInf(f, 0) || math.IsNaN(f) {
			e.fail(v, "must not be NaN or Inf")
		}
	case invalidOn:
		if math.IsNaN(f) {
			e.buf = append(e.buf, "nan"...)
			return
		}
	default:
		if math.IsInf(f, 0) || math.IsNaN(f) {
			e.buf = append(e.buf, "null"...)
			return
		}
	}
	e.buf = clua.AppendG(e.buf, f, e.cfg.numberPrecision)
}

// arrayLength is lua_array_length: the table's highest index when every key is an integer
// >= 1 (C's int, as x86 converts), -1 when it must be an object, and the sparse array rule:
// an array whose highest index exceeds both ratio times its number of items and the safe
// size is an error, or an object when encode_sparse_array converts.
func (e *encoder) arrayLength(t *lua.LTable) int {
	var max, items int32
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		n, ok := k.(lua.LNumber)
		f := float64(n)
		if !ok || f == 0 || math.Floor(f) != f || f < 1 {
			return -1
		}
		if f > float64(max) {
			max = clua.DoubleToInt32(f)
		}
		items++
	}
	ratio := int32(e.cfg.sparseRatio)
	if ratio > 0 && max > items*ratio && max > int32(e.cfg.sparseSafe) {
		if !e.cfg.sparseConvert {
			e.fail(t, "excessively sparse array")
		}
		return -1
	}
	return int(max)
}

// appendArray is json_append_array: t[1..n], holes as null.
func (e *encoder) appendArray(t *lua.LTable, n, depth, stack int) {
	e.buf = append(e.buf, '[')
	for i := 1; i <= n; i++ {
		if i > 1 {
			e.buf = append(e.buf, ',')
		}
		e.appendData(t.RawGetInt(i), depth, stack+1)
	}
	e.buf = append(e.buf, ']')
}

// appendObject is json_append_object: numeric keys are written as quoted numbers, string
// keys as strings, other keys are an error.
func (e *encoder) appendObject(t *lua.LTable, depth, stack int) {
	e.buf = append(e.buf, '{')
	first := true
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if !first {
			e.buf = append(e.buf, ',')
		}
		first = false
		switch k := k.(type) {
		case lua.LNumber:
			e.buf = append(e.buf, '"')
			e.appendNumber(k)
			e.buf = append(e.buf, '"', ':')
		case lua.LString:
			e.appendString(string(k))
			e.buf = append(e.buf, ':')
		default:
			e.fail(k, "table key must be a number or string")
		}
		e.appendData(v, depth, stack+2)
	}
	e.buf = append(e.buf, '}')
}
