// Package luastruct is Roberto Ierusalimschy's struct library (struct.c 1.7) as Redis 7.2
// loads it (deps/lua/src/lua_struct.c) for gopher-lua: the global table "struct" with pack,
// unpack and size, on an x86-64 layout (little-endian by default; short 2, int 4, long and
// size_t 8, float 4, double 8 bytes; alignment up to 8).
//
// Format letters: ">" big-endian, "<" little-endian, "![n]" maximum alignment (default 8), " "
// ignored; "b"/"B" signed/unsigned char, "h"/"H" short, "l"/"L" long, "T" size_t, "i[n]"/"I[n]"
// an integer of n bytes (default 4, at most 32), "f" float, "d" double, "x" a zero byte,
// "c[n]" n characters (packing "c0" takes the whole string; unpacking it takes the previous
// number as the length), "s" a zero-terminated string. Like the C library, "=" is not a format.
package luastruct

import (
	"encoding/binary"
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/internal/clua"
)

const (
	maxIntSize = 32 // MAXINTSIZE
	maxAlign   = 8  // MAXALIGN on x86-64
)

// Open sets the global table "struct".
func Open(L *lua.LState) {
	t := L.CreateTable(0, 3)
	t.RawSetString("pack", L.NewFunction(pack))
	t.RawSetString("unpack", L.NewFunction(unpack))
	t.RawSetString("size", L.NewFunction(size))
	L.SetGlobal("struct", t)
}

// header is the state a format sets as it goes (Header).
type header struct {
	big   bool
	align int
}

// format walks a format string as C does (up to its first NUL).
type format struct {
	L   *lua.LState
	s   string
	pos int
}

func newFormat(L *lua.LState, s string) *format {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return &format{L: L, s: s}
}

func (f *format) more() bool { return f.pos < len(f.s) }

func (f *format) next() byte {
	c := f.s[f.pos]
	f.pos++
	return c
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// getnum is getnum: the digits at the cursor as an int, or def when there are none.
func (f *format) getnum(def int) int {
	if !f.more() || !isDigit(f.s[f.pos]) {
		return def
	}
	a := 0
	for f.more() && isDigit(f.s[f.pos]) {
		d := int(f.s[f.pos] - '0')
		if a > math.MaxInt32/10 || a*10 > math.MaxInt32-d {
			clua.Errorf(f.L, "integral size overflow")
		}
		a = a*10 + d
		f.pos++
	}
	return a
}

// optsize is optsize: the size of option opt (reading its count), 0 for the others.
func (f *format) optsize(opt byte) int {
	switch opt {
	case 'B', 'b', 'x':
		return 1
	case 'H', 'h':
		return 2
	case 'L', 'l', 'T', 'd':
		return 8
	case 'f':
		return 4
	case 'c':
		return f.getnum(1)
	case 'i', 'I':
		sz := f.getnum(4)
		if sz > maxIntSize {
			clua.Errorf(f.L, "integral size %d is larger than limit of %d", sz, maxIntSize)
		}
		return sz
	}
	return 0
}

// toAlign is gettoalign: the padding before an item of this size at offset n (sizes are not
// always powers of 2: the C arithmetic is kept as is).
func toAlign(n uint64, h *header, opt byte, size int) uint64 {
	if size == 0 || opt == 'c' {
		return 0
	}
	s := uint64(size)
	if s > uint64(h.align) {
		s = uint64(h.align)
	}
	return (s - (n & (s - 1))) & (s - 1)
}

// control is controloptions: endianness, alignment, spaces; anything else is an error.
func (f *format) control(opt byte, h *header) {
	switch opt {
	case ' ':
	case '>':
		h.big = true
	case '<':
		h.big = false
	case '!':
		a := f.getnum(maxAlign)
		if a <= 0 || a&(a-1) != 0 {
			clua.Errorf(f.L, "alignment %d is not a power of 2", a)
		}
		h.align = a
	default:
		clua.ArgError(f.L, 1, "invalid format option '"+string(opt)+"'")
	}
}

// pack is b_pack.
func pack(L *lua.LState) int {
	f := newFormat(L, clua.CheckString(L, 1))
	L.Push(lua.LNil) // C's mark between the arguments and its buffer: a missing argument is a nil
	h := header{align: 1}
	arg := 2
	var b []byte
	total := uint64(0)
	for f.more() {
		opt := f.next()
		size := f.optsize(opt)
		pad := toAlign(total, &h, opt, size)
		total += pad
		for ; pad > 0; pad-- {
			b = append(b, 0)
		}
		switch opt {
		case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I':
			b = putInteger(b, clua.CheckNumber(L, arg), h.big, size)
			arg++
		case 'x':
			b = append(b, 0)
		case 'f':
			bits := math.Float32bits(float32(clua.CheckNumber(L, arg)))
			arg++
			if h.big {
				b = binary.BigEndian.AppendUint32(b, bits)
			} else {
				b = binary.LittleEndian.AppendUint32(b, bits)
			}
		case 'd':
			bits := math.Float64bits(clua.CheckNumber(L, arg))
			arg++
			if h.big {
				b = binary.BigEndian.AppendUint64(b, bits)
			} else {
				b = binary.LittleEndian.AppendUint64(b, bits)
			}
		case 'c', 's':
			s := clua.CheckString(L, arg)
			arg++
			if size == 0 {
				size = len(s)
			}
			if len(s) < size {
				clua.ArgError(L, arg, "string too short") // arg has moved on, as in C
			}
			b = append(b, s[:size]...)
			if opt == 's' {
				b = append(b, 0)
				size++
			}
		default:
			f.control(opt, &h)
		}
		total += uint64(size)
	}
	L.Push(lua.LString(b))
	return 1
}

// putInteger is putinteger: the number as C's unsigned long (negative numbers through long),
// written in size bytes; bytes past the eighth are zero.
func putInteger(b []byte, n float64, big bool, size int) []byte {
	var v uint64
	if n < 0 {
		v = uint64(clua.DoubleToInt64(n))
	} else {
		v = clua.DoubleToUint64(n)
	}
	var buf [maxIntSize]byte
	for i := 0; i < size; i++ {
		k := i
		if big {
			k = size - 1 - i
		}
		buf[k] = byte(v)
		v >>= 8
	}
	return append(b, buf[:size]...)
}

// getInteger is getinteger: size bytes as C's unsigned long (bytes past the eighth shift out),
// sign-extended for signed formats (x86 takes the shift count modulo 64).
func getInteger(data string, big, signed bool, size int) float64 {
	var l uint64
	for i := 0; i < size; i++ {
		k := size - 1 - i
		if big {
			k = i
		}
		l = l<<8 | uint64(data[k])
	}
	if !signed {
		return float64(l)
	}
	mask := ^uint64(0) << (uint(size*8-1) & 63)
	if l&mask != 0 {
		l |= mask
	}
	return float64(int64(l))
}

// unpack is b_unpack(fmt, data, pos = 1): the values, then the position after them.
func unpack(L *lua.LState) int {
	f := newFormat(L, clua.CheckString(L, 1))
	data := clua.CheckString(L, 2)
	pos := uint64(clua.OptInteger(L, 3, 1)) // size_t: negative positions wrap
	if pos == 0 {
		clua.ArgError(L, 3, "offset must be 1 or greater")
	}
	pos--
	ld := uint64(len(data))
	h := header{align: 1}
	base := L.GetTop()
	var out []lua.LValue
	for f.more() {
		opt := f.next()
		size := f.optsize(opt)
		pos += toAlign(pos, &h, opt, size)
		sz := uint64(size)
		if !(sz <= ld && pos <= ld-sz) {
			clua.ArgError(L, 2, "data string too short")
		}
		if base+len(out)+2 > clua.MaxCStack {
			clua.Errorf(L, "stack overflow (too many results)")
		}
		switch opt {
		case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I':
			signed := 'a' <= opt && opt <= 'z'
			out = append(out, lua.LNumber(getInteger(data[pos:pos+sz], h.big, signed, size)))
		case 'x':
		case 'f':
			p := []byte(data[pos : pos+4])
			bits := binary.LittleEndian.Uint32(p)
			if h.big {
				bits = binary.BigEndian.Uint32(p)
			}
			out = append(out, lua.LNumber(math.Float32frombits(bits)))
		case 'd':
			p := []byte(data[pos : pos+8])
			bits := binary.LittleEndian.Uint64(p)
			if h.big {
				bits = binary.BigEndian.Uint64(p)
			}
			out = append(out, lua.LNumber(math.Float64frombits(bits)))
		case 'c':
			if size == 0 {
				var n float64
				ok := false
				if len(out) > 0 {
					n, ok = clua.ToNumber(out[len(out)-1])
				}
				if !ok {
					clua.Errorf(L, "format 'c0' needs a previous size")
				}
				sz = clua.DoubleToUint64(n)
				out = out[:len(out)-1]
				if !(sz <= ld && pos <= ld-sz) {
					clua.ArgError(L, 2, "data string too short")
				}
			}
			out = append(out, lua.LString(data[pos:pos+sz]))
		case 's':
			e := strings.IndexByte(data[pos:], 0)
			if e < 0 {
				clua.Errorf(L, "unfinished string in data")
			}
			out = append(out, lua.LString(data[pos:pos+uint64(e)]))
			sz = uint64(e) + 1
		default:
			f.control(opt, &h)
		}
		pos += sz
	}
	for _, v := range out {
		L.Push(v)
	}
	L.Push(lua.LNumber(int64(pos + 1)))
	return len(out) + 1
}

// size is b_size: the bytes a format packs to; letters it does not know count for nothing.
func size(L *lua.LState) int {
	f := newFormat(L, clua.CheckString(L, 1))
	h := header{align: 1}
	pos := uint64(0)
	for f.more() {
		opt := f.next()
		size := f.optsize(opt)
		pos += toAlign(pos, &h, opt, size)
		if opt == 's' {
			clua.ArgError(L, 1, "option 's' has no fixed size")
		} else if opt == 'c' && size == 0 {
			clua.ArgError(L, 1, "option 'c0' has no fixed size")
		}
		if !isAlnum(opt) {
			f.control(opt, &h)
		}
		pos += uint64(size)
	}
	L.Push(lua.LNumber(int64(pos)))
	return 1
}

func isAlnum(c byte) bool {
	return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z'
}
