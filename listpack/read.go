package listpack

import (
	"bytes"
	"encoding/binary"
	"strconv"
)

// TotalBytes returns the size the header of lp records.
func TotalBytes(lp []byte) int { return int(binary.LittleEndian.Uint32(lp)) }

// headerCount returns the header's element count (NumUnknown when unknown).
func headerCount(lp []byte) int { return int(binary.LittleEndian.Uint16(lp[4:])) }

// Len returns the number of entries of lp: the header's count, or a walk when the header says
// NumUnknown.
func Len(lp []byte) int {
	if n := headerCount(lp); n != NumUnknown {
		return n
	}
	n := 0
	for p := First(lp); p >= 0; p = Next(lp, p) {
		n++
	}
	return n
}

// First returns the offset of lp's first entry, or -1 if it has none.
func First(lp []byte) int {
	if lp[HeaderSize] == EOF {
		return -1
	}
	return HeaderSize
}

// Last returns the offset of lp's last entry, or -1 if it has none.
func Last(lp []byte) int {
	return Prev(lp, TotalBytes(lp)-1)
}

// Next returns the offset of the entry after the one at p, or -1 at the end.
func Next(lp []byte, p int) int {
	p += entrySize(lp, p)
	if lp[p] == EOF {
		return -1
	}
	return p
}

// Prev returns the offset of the entry before p (p may be the offset of the EOF byte), or -1
// at the start.
func Prev(lp []byte, p int) int {
	if p <= HeaderSize {
		return -1
	}
	l, n, _ := decodeBacklen(lp, p-1)
	return p - n - int(l)
}

// Seek returns the offset of the entry at index i, counting from the end when i is negative
// (-1 is the last), or -1 when there is no such entry. It walks from whichever end is nearer
// when the count is known.
func Seek(lp []byte, i int) int {
	n := headerCount(lp)
	if n != NumUnknown {
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return -1
		}
		if i > n/2 {
			i -= n // nearer to the end: walk backwards
		}
	}
	if i >= 0 {
		p := First(lp)
		for ; p >= 0 && i > 0; i-- {
			p = Next(lp, p)
		}
		return p
	}
	p := Last(lp)
	for ; p >= 0 && i < -1; i++ {
		p = Prev(lp, p)
	}
	return p
}

// Get returns the entry at p: its string bytes (a view into lp) with isInt false, or its
// integer value with isInt true.
func Get(lp []byte, p int) (s []byte, v int64, isInt bool) {
	b := lp[p]
	switch {
	case b&enc7BitUintMask == enc7BitUint:
		return nil, int64(b), true
	case b&enc6BitStrMask == enc6BitStr:
		n := int(b &^ enc6BitStrMask)
		return lp[p+1 : p+1+n], 0, false
	case b&enc13BitIntMask == enc13BitInt:
		u := uint64(b&0x1F)<<8 | uint64(lp[p+1])
		if u >= 1<<12 {
			return nil, int64(u) - 1<<13, true
		}
		return nil, int64(u), true
	case b&enc12BitStrMask == enc12BitStr:
		n := int(b&0x0F)<<8 | int(lp[p+1])
		return lp[p+2 : p+2+n], 0, false
	}
	switch b {
	case enc16BitInt:
		return nil, int64(int16(binary.LittleEndian.Uint16(lp[p+1:]))), true
	case enc24BitInt:
		u := uint32(lp[p+1]) | uint32(lp[p+2])<<8 | uint32(lp[p+3])<<16
		return nil, int64(int32(u<<8) >> 8), true
	case enc32BitInt:
		return nil, int64(int32(binary.LittleEndian.Uint32(lp[p+1:]))), true
	case enc64BitInt:
		return nil, int64(binary.LittleEndian.Uint64(lp[p+1:])), true
	case enc32BitStr:
		n := int(binary.LittleEndian.Uint32(lp[p+1:]))
		return lp[p+5 : p+5+n], 0, false
	}
	panic("listpack: bad encoding")
}

// AppendValue appends the entry at p as a string (an integer in decimal) to dst.
func AppendValue(dst, lp []byte, p int) []byte {
	s, v, isInt := Get(lp, p)
	if isInt {
		return strconv.AppendInt(dst, v, 10)
	}
	return append(dst, s...)
}

// Equal reports whether the entry at p holds the element s (as a string: an integer entry
// equals only its canonical decimal form).
func Equal(lp []byte, p int, s []byte) bool {
	es, v, isInt := Get(lp, p)
	if !isInt {
		return bytes.Equal(es, s)
	}
	sv, ok := StringToInt64(s)
	return ok && sv == v
}

// Find returns the offset of the first entry at or after p equal to s, comparing one entry and
// then skipping skip entries (skip 1 looks at a hash's fields only, from a field's offset), or -1
// — lpFind. s is converted to an integer at most once. Short strings are compared in place,
// length first, as they are most entries of a small hash or set.
func Find(lp []byte, p int, s []byte, skip int) int {
	var (
		sv        int64
		converted bool
		sIsInt    bool
	)
	for p >= 0 {
		b := lp[p]
		var size int
		if b&enc6BitStrMask == enc6BitStr {
			n := int(b &^ enc6BitStrMask)
			if n == len(s) && string(lp[p+1:p+1+n]) == string(s) {
				return p
			}
			size = n + 2
		} else {
			es, v, isInt := Get(lp, p)
			if isInt {
				if !converted {
					sv, sIsInt = StringToInt64(s)
					converted = true
				}
				if sIsInt && v == sv {
					return p
				}
			} else if string(es) == string(s) {
				return p
			}
			size = entrySize(lp, p)
		}
		p += size
		for i := 0; i < skip && lp[p] != EOF; i++ {
			p += entrySize(lp, p)
		}
		if lp[p] == EOF {
			return -1
		}
	}
	return -1
}
