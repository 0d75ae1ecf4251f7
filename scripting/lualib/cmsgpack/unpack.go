package cmsgpack

import (
	"encoding/binary"
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/internal/clua"
)

// Decoding errors (mp_cur's err).
const (
	errNone = iota
	errEOF
	errBadFmt
)

// decoder is mp_cur plus the Lua stack lua_cmsgpack would hold.
type decoder struct {
	L    *lua.LState
	data string
	pos  int
	err  int
}

func (d *decoder) need(n int) bool {
	if len(d.data)-d.pos < n {
		d.err = errEOF
		return false
	}
	return true
}

// checkStack is luaL_checkstack: n more slots above the sp already held must fit in Lua's
// 8000.
func (d *decoder) checkStack(sp, n int, msg string) {
	if sp+n > clua.MaxCStack {
		clua.Errorf(d.L, "stack overflow (%s)", msg)
	}
}

func unpack(L *lua.LState) int {
	return unpackFull(L, 0, 0)
}

// unpackOne is mp_unpack_one(s, offset = 0).
func unpackOne(L *lua.LState) int {
	offset := clua.OptInteger(L, 2, 0)
	L.SetTop(1)
	return unpackFull(L, 1, offset)
}

// unpackLimit is mp_unpack_limit(s, limit, offset = 0).
func unpackLimit(L *lua.LState) int {
	limit := clua.CheckInteger(L, 2)
	offset := clua.OptInteger(L, 3, 0)
	L.SetTop(1)
	return unpackFull(L, limit, offset)
}

// unpackFull is mp_unpack_full: up to limit values from offset; with neither, every value
// and no offset; otherwise the next offset (-1 at the end) before the values.
func unpackFull(L *lua.LState, limit, offset int64) int {
	s := clua.CheckString(L, 1)
	if offset < 0 || limit < 0 {
		// lua_cmsgpack prints the length where it means the limit.
		clua.Errorf(L, "Invalid request to unpack with offset of %d and limit of %d.", int32(offset), int32(len(s)))
	}
	if offset > int64(len(s)) {
		clua.Errorf(L, "Start offset %d greater than input length %d.", int32(offset), int32(len(s)))
	}
	all := limit == 0 && offset == 0
	if all {
		limit = math.MaxInt32
	}
	d := decoder{L: L, data: s, pos: int(offset)}
	values := make([]lua.LValue, 0, 4)
	sp := 1 // the argument
	for cnt := int64(0); d.pos < len(d.data) && cnt < limit; cnt++ {
		v := d.decode(sp)
		switch d.err {
		case errEOF:
			clua.Errorf(L, "Missing bytes in input.")
		case errBadFmt:
			clua.Errorf(L, "Bad data format in input.")
		}
		values = append(values, v)
		sp++
	}
	if !all {
		d.checkStack(sp, 1, "in function mp_unpack_full")
		next := lua.LNumber(d.pos)
		if d.pos == len(d.data) {
			next = -1
		}
		L.Push(next)
	}
	for _, v := range values {
		L.Push(v)
	}
	if all {
		return len(values)
	}
	return len(values) + 1
}

// decode is mp_decode_to_lua_type: one value; d.err says why it failed. sp is the number of
// stack slots lua_cmsgpack holds before pushing this value.
func (d *decoder) decode(sp int) lua.LValue {
	if !d.need(1) {
		return lua.LNil
	}
	d.checkStack(sp, 1, "too many return values at once; use unpack_one or unpack_limit instead.")
	p := d.data[d.pos:]
	c := p[0]
	switch c {
	case 0xcc: // uint 8
		if !d.need(2) {
			break
		}
		d.pos += 2
		return lua.LNumber(p[1])
	case 0xd0: // int 8
		if !d.need(2) {
			break
		}
		d.pos += 2
		return lua.LNumber(int8(p[1]))
	case 0xcd: // uint 16
		if !d.need(3) {
			break
		}
		d.pos += 3
		return lua.LNumber(binary.BigEndian.Uint16([]byte(p[1:3])))
	case 0xd1: // int 16
		if !d.need(3) {
			break
		}
		d.pos += 3
		return lua.LNumber(int16(binary.BigEndian.Uint16([]byte(p[1:3]))))
	case 0xce: // uint 32
		if !d.need(5) {
			break
		}
		d.pos += 5
		return lua.LNumber(binary.BigEndian.Uint32([]byte(p[1:5])))
	case 0xd2: // int 32
		if !d.need(5) {
			break
		}
		d.pos += 5
		return lua.LNumber(int32(binary.BigEndian.Uint32([]byte(p[1:5]))))
	case 0xcf, 0xd3: // uint 64 (pushed through lua_Integer: above 2^63 it turns negative), int 64
		if !d.need(9) {
			break
		}
		d.pos += 9
		return lua.LNumber(int64(binary.BigEndian.Uint64([]byte(p[1:9]))))
	case 0xc0:
		d.pos++
		return lua.LNil
	case 0xc3:
		d.pos++
		return lua.LTrue
	case 0xc2:
		d.pos++
		return lua.LFalse
	case 0xca: // float
		if !d.need(5) {
			break
		}
		d.pos += 5
		return lua.LNumber(math.Float32frombits(binary.BigEndian.Uint32([]byte(p[1:5]))))
	case 0xcb: // double
		if !d.need(9) {
			break
		}
		d.pos += 9
		return lua.LNumber(math.Float64frombits(binary.BigEndian.Uint64([]byte(p[1:9]))))
	case 0xd9: // str 8
		if !d.need(2) {
			break
		}
		return d.str(2, int(p[1]))
	case 0xda: // str 16
		if !d.need(3) {
			break
		}
		return d.str(3, int(binary.BigEndian.Uint16([]byte(p[1:3]))))
	case 0xdb: // str 32
		if !d.need(5) {
			break
		}
		return d.str(5, int(binary.BigEndian.Uint32([]byte(p[1:5]))))
	case 0xdc: // array 16
		if !d.need(3) {
			break
		}
		d.pos += 3
		return d.array(sp, int(binary.BigEndian.Uint16([]byte(p[1:3]))))
	case 0xdd: // array 32
		if !d.need(5) {
			break
		}
		d.pos += 5
		return d.array(sp, int(binary.BigEndian.Uint32([]byte(p[1:5]))))
	case 0xde: // map 16
		if !d.need(3) {
			break
		}
		d.pos += 3
		return d.hash(sp, int(binary.BigEndian.Uint16([]byte(p[1:3]))))
	case 0xdf: // map 32
		if !d.need(5) {
			break
		}
		d.pos += 5
		return d.hash(sp, int(binary.BigEndian.Uint32([]byte(p[1:5]))))
	default:
		switch {
		case c&0x80 == 0: // positive fixint
			d.pos++
			return lua.LNumber(c)
		case c&0xe0 == 0xe0: // negative fixint
			d.pos++
			return lua.LNumber(int8(c))
		case c&0xe0 == 0xa0: // fixstr
			return d.str(1, int(c&0x1f))
		case c&0xf0 == 0x90: // fixarray
			d.pos++
			return d.array(sp, int(c&0xf))
		case c&0xf0 == 0x80: // fixmap
			d.pos++
			return d.hash(sp, int(c&0xf))
		}
		d.err = errBadFmt // nil, bin, ext and the unused 0xc1
	}
	return lua.LNil
}

// str reads a string of n bytes after a header of hdr bytes.
func (d *decoder) str(hdr, n int) lua.LValue {
	if !d.need(hdr + n) {
		return lua.LNil
	}
	s := d.data[d.pos+hdr : d.pos+hdr+n]
	d.pos += hdr + n
	return lua.LString(s)
}

// array is mp_decode_to_lua_array: n elements (stopping at the first error; nothing is
// allocated for elements that are not there). Nil elements leave holes.
func (d *decoder) array(sp, n int) lua.LValue {
	t := d.L.CreateTable(0, 0) // NewTable would preallocate both parts
	d.checkStack(sp+1, 1, "in function mp_decode_to_lua_array")
	for i := 1; i <= n; i++ {
		v := d.decode(sp + 2) // the table and the index
		if d.err != errNone {
			return t
		}
		if v != lua.LNil {
			t.RawSetInt(i, v)
		}
	}
	return t
}

// hash is mp_decode_to_lua_hash: n key/value pairs; a nil or NaN key is Lua's error.
func (d *decoder) hash(sp, n int) lua.LValue {
	t := d.L.CreateTable(0, 0) // NewTable would preallocate both parts
	for ; n > 0; n-- {
		k := d.decode(sp + 1) // the table
		if d.err != errNone {
			return t
		}
		v := d.decode(sp + 2) // the table and the key
		if d.err != errNone {
			return t
		}
		switch k := k.(type) {
		case *lua.LNilType:
			d.L.Error(lua.LString("table index is nil"), 0)
		case lua.LNumber:
			if k != k {
				d.L.Error(lua.LString("table index is NaN"), 0)
			}
		}
		t.RawSet(k, v)
	}
	return t
}
