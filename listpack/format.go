package listpack

import (
	"encoding/binary"
	"math"
)

// Header and terminator.
const (
	HeaderSize = 6    // total bytes (4) + number of entries (2)
	EOF        = 0xFF // the last byte of every listpack
	// NumUnknown in the header's count means the count is 65535 or more: walk to count.
	NumUnknown = 65535
	// EmptySize is the size of a listpack without entries.
	EmptySize = HeaderSize + 1
)

// Encoding bytes and masks (listpack.c's LP_ENCODING_*).
const (
	enc7BitUint     = 0x00 // 0xxxxxxx
	enc7BitUintMask = 0x80
	enc6BitStr      = 0x80 // 10xxxxxx
	enc6BitStrMask  = 0xC0
	enc13BitInt     = 0xC0 // 110xxxxx
	enc13BitIntMask = 0xE0
	enc12BitStr     = 0xE0 // 1110xxxx
	enc12BitStrMask = 0xF0
	enc32BitStr     = 0xF0
	enc16BitInt     = 0xF1
	enc24BitInt     = 0xF2
	enc32BitInt     = 0xF3
	enc64BitInt     = 0xF4
)

// maxIntStrLen is the longest string that may be an integer: "-9223372036854775808" is 20
// bytes (listpack.c's LONG_STR_SIZE is 21, and a string must be shorter).
const maxIntStrLen = 20

// StringToInt64 reports whether s is the canonical decimal form of an int64, and its value:
// an optional '-', then "0" alone or a digit 1–9 followed by digits, with no sign '+', no
// spaces, no leading zeros, no "-0", and no overflow — listpack.c's lpStringToInt64. Only such
// strings are stored as integers, so every other one reads back byte for byte.
func StringToInt64(s []byte) (int64, bool) {
	n := len(s)
	if n == 0 || n > maxIntStrLen {
		return 0, false
	}
	if n == 1 && s[0] == '0' {
		return 0, true
	}
	i, neg := 0, false
	if s[0] == '-' {
		neg, i = true, 1
		if n == 1 {
			return 0, false
		}
	}
	if s[i] < '1' || s[i] > '9' {
		return 0, false
	}
	var v uint64
	for ; i < n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > math.MaxUint64/10 {
			return 0, false
		}
		v *= 10
		d := uint64(c - '0')
		if v > math.MaxUint64-d {
			return 0, false
		}
		v += d
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return int64(-v), true
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// entry is an element ready to be written: its encoding header, its data (a string's bytes,
// or nil for an integer, whose bytes are all in the header) and its back-length.
type entry struct {
	hdr     [9]byte
	hdrLen  int
	data    []byte
	back    [5]byte
	backLen int
}

// size is the entry's whole size in the listpack.
func (e *entry) size() int { return e.hdrLen + len(e.data) + e.backLen }

// put writes the entry at the start of dst.
func (e *entry) put(dst []byte) {
	n := copy(dst, e.hdr[:e.hdrLen])
	n += copy(dst[n:], e.data)
	copy(dst[n:], e.back[:e.backLen])
}

// encodeInt fills e with v in the smallest integer encoding (lpEncodeIntegerGetType).
func (e *entry) encodeInt(v int64) {
	h := e.hdr[:]
	switch {
	case v >= 0 && v <= 127:
		h[0] = byte(v)
		e.hdrLen = 1
	case v >= -4096 && v <= 4095:
		u := uint64(v)
		if v < 0 {
			u = uint64(1<<13 + v)
		}
		h[0] = byte(u>>8) | enc13BitInt
		h[1] = byte(u)
		e.hdrLen = 2
	case v >= math.MinInt16 && v <= math.MaxInt16:
		h[0] = enc16BitInt
		binary.LittleEndian.PutUint16(h[1:], uint16(v))
		e.hdrLen = 3
	case v >= -1<<23 && v < 1<<23:
		h[0] = enc24BitInt
		u := uint32(v)
		h[1], h[2], h[3] = byte(u), byte(u>>8), byte(u>>16)
		e.hdrLen = 4
	case v >= math.MinInt32 && v <= math.MaxInt32:
		h[0] = enc32BitInt
		binary.LittleEndian.PutUint32(h[1:], uint32(v))
		e.hdrLen = 5
	default:
		h[0] = enc64BitInt
		binary.LittleEndian.PutUint64(h[1:], uint64(v))
		e.hdrLen = 9
	}
	e.data = nil
	e.backLen = encodeBacklen(e.back[:], uint64(e.hdrLen))
}

// encodeString fills e with s stored as a string (lpEncodeString's length forms).
func (e *entry) encodeString(s []byte) {
	n := len(s)
	switch {
	case n < 64:
		e.hdr[0] = enc6BitStr | byte(n)
		e.hdrLen = 1
	case n < 4096:
		e.hdr[0] = enc12BitStr | byte(n>>8)
		e.hdr[1] = byte(n)
		e.hdrLen = 2
	default:
		e.hdr[0] = enc32BitStr
		binary.LittleEndian.PutUint32(e.hdr[1:], uint32(n))
		e.hdrLen = 5
	}
	e.data = s
	e.backLen = encodeBacklen(e.back[:], uint64(e.hdrLen+n))
}

// encode fills e with s as Redis stores an element: an integer when StringToInt64 accepts it,
// else a string.
func (e *entry) encode(s []byte) {
	if v, ok := StringToInt64(s); ok {
		e.encodeInt(v)
		return
	}
	e.encodeString(s)
}

// encodeBacklen writes the back-length of an entry whose encoding and data take l bytes and
// returns its size: 7 bits a byte, most significant first, every byte but the first with bit 7
// set, so it can be read from its last byte backwards. The bounds are lpEncodeBacklen's
// (16383, not 16384, starts the 3-byte form: Redis's rule, kept for identical bytes).
func encodeBacklen(buf []byte, l uint64) int {
	switch {
	case l <= 127:
		buf[0] = byte(l)
		return 1
	case l < 16383:
		buf[0] = byte(l >> 7)
		buf[1] = byte(l&127) | 128
		return 2
	case l < 2097151:
		buf[0] = byte(l >> 14)
		buf[1] = byte((l>>7)&127) | 128
		buf[2] = byte(l&127) | 128
		return 3
	case l < 268435455:
		buf[0] = byte(l >> 21)
		buf[1] = byte((l>>14)&127) | 128
		buf[2] = byte((l>>7)&127) | 128
		buf[3] = byte(l&127) | 128
		return 4
	default:
		buf[0] = byte(l >> 28)
		buf[1] = byte((l>>21)&127) | 128
		buf[2] = byte((l>>14)&127) | 128
		buf[3] = byte((l>>7)&127) | 128
		buf[4] = byte(l&127) | 128
		return 5
	}
}

// backlenSize is the size of the back-length of an l-byte encoding+data.
func backlenSize(l uint64) int {
	switch {
	case l <= 127:
		return 1
	case l < 16383:
		return 2
	case l < 2097151:
		return 3
	case l < 268435455:
		return 4
	}
	return 5
}

// decodeBacklen reads the back-length ending at lp[p] (its last byte) and returns the value and
// the number of bytes it took, or ok false when it runs past the start of lp or past 5 bytes.
func decodeBacklen(lp []byte, p int) (v uint64, n int, ok bool) {
	var shift uint
	for {
		if p < 0 || n == 5 {
			return 0, 0, false
		}
		c := lp[p]
		v |= uint64(c&127) << shift
		n++
		if c&128 == 0 {
			return v, n, true
		}
		shift += 7
		p--
	}
}

// encodingSize returns the size of the encoding header starting with byte b and of the data
// after it, given the bytes following b (for the length of 12- and 32-bit strings); ok is false
// when b is no valid encoding or the header does not fit in rest.
func encodingSize(b byte, rest []byte) (hdr, data int, ok bool) {
	switch {
	case b&enc7BitUintMask == enc7BitUint:
		return 1, 0, true
	case b&enc6BitStrMask == enc6BitStr:
		return 1, int(b &^ enc6BitStrMask), true
	case b&enc13BitIntMask == enc13BitInt:
		return 2, 0, len(rest) >= 1
	case b&enc12BitStrMask == enc12BitStr:
		if len(rest) < 1 {
			return 0, 0, false
		}
		return 2, int(b&0x0F)<<8 | int(rest[0]), true
	}
	switch b {
	case enc16BitInt:
		return 3, 0, len(rest) >= 2
	case enc24BitInt:
		return 4, 0, len(rest) >= 3
	case enc32BitInt:
		return 5, 0, len(rest) >= 4
	case enc64BitInt:
		return 9, 0, len(rest) >= 8
	case enc32BitStr:
		if len(rest) < 4 {
			return 0, 0, false
		}
		n := binary.LittleEndian.Uint32(rest)
		if uint64(n) > math.MaxInt32 {
			return 0, 0, false
		}
		return 5, int(n), true
	}
	return 0, 0, false
}

// entrySize returns the whole size (encoding, data, back-length) of the well-formed entry at p.
// Small integers and short strings — most entries of a small hash or set — are sized without
// the general decoder (their back-length is always one byte).
func entrySize(lp []byte, p int) int {
	b := lp[p]
	if b < enc6BitStr {
		return 2
	}
	if b < enc13BitInt {
		return int(b&^enc6BitStrMask) + 2
	}
	hdr, data, _ := encodingSize(b, lp[p+1:])
	l := hdr + data
	return l + backlenSize(uint64(l))
}
