package rdb

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/kvserver/kvserver/listpack"
)

// The encodings of older dumps, read only: a ziplist (hashes and lists of Redis 2.6 to 6.2, and
// the nodes of a type-14 quicklist), converted to a listpack as Redis 7's loader does, and a
// zipmap hash (Redis 2.4 and before), read as pairs. Both
// are validated entirely before use (ziplistValidateIntegrity, zipmapValidateIntegrity, deep):
// lengths inside the blob, the header's counts and offsets, the terminator, no field twice.

// Ziplist layout: zlbytes (4, LE), zltail (4, LE: offset of the last entry), zllen (2, LE:
// entries, 65535 meaning unknown), the entries, 0xFF. An entry is prevlen (1 byte below 254,
// else 254 and 4 bytes LE), an encoding and the data.
const (
	zlHeader   = 10
	zlEnd      = 0xFF
	zlBigPrev  = 254
	zlLenUnkwn = 65535
)

// ziplistEntry reads the entry at p of zl (whose last byte is the terminator): its size, and
// its value as a string (s, a view into zl) or an integer. prevWant is the size of the entry
// before (0 for the first), which the entry's prevlen must say.
func ziplistEntry(zl []byte, p, prevWant int) (size int, s []byte, v int64, isInt, ok bool) {
	end := len(zl) - 1
	q := p
	if q >= end {
		return
	}
	prev := int(zl[q])
	q++
	if prev == zlBigPrev {
		if end-q < 4 {
			return
		}
		prev = int(binary.LittleEndian.Uint32(zl[q:]))
		q += 4
	} else if prev > zlBigPrev {
		return
	}
	if prev != prevWant || q >= end {
		return
	}
	enc := zl[q]
	q++
	var n int
	switch enc >> 6 {
	case 0: // 6-bit string length
		n = int(enc & 0x3f)
	case 1: // 14-bit, big endian
		if q >= end {
			return
		}
		n = int(enc&0x3f)<<8 | int(zl[q])
		q++
	case 2: // 32-bit, big endian
		if end-q < 4 { // the low 6 bits are ignored, as ziplist.c does
			return
		}
		n = int(binary.BigEndian.Uint32(zl[q:]))
		q += 4
	default: // integers
		isInt = true
		switch {
		case enc == 0xc0:
			n = 2
		case enc == 0xd0:
			n = 4
		case enc == 0xe0:
			n = 8
		case enc == 0xf0:
			n = 3
		case enc == 0xfe:
			n = 1
		case enc >= 0xf1 && enc <= 0xfd:
			v = int64(enc&0x0f) - 1
		default:
			return
		}
	}
	if n < 0 || n > end-q {
		return
	}
	data := zl[q : q+n]
	if isInt {
		switch enc {
		case 0xc0:
			v = int64(int16(binary.LittleEndian.Uint16(data)))
		case 0xd0:
			v = int64(int32(binary.LittleEndian.Uint32(data)))
		case 0xe0:
			v = int64(binary.LittleEndian.Uint64(data))
		case 0xf0:
			v = int64(int32(uint32(data[0])<<8|uint32(data[1])<<16|uint32(data[2])<<24) >> 8)
		case 0xfe:
			v = int64(int8(data[0]))
		}
	} else {
		s = data
	}
	return q + n - p, s, v, isInt, true
}

// ziplistPairsToListpack validates zl as a ziplist of field,value pairs with no field twice
// and returns it converted to a listpack (built in dst[:0]) with the number of pairs.
func ziplistPairsToListpack(zl, dst []byte) ([]byte, int, error) {
	seen := make(map[string]struct{})
	lp, count, err := ziplistToListpack(zl, dst, "hash", func(i int, s []byte) bool {
		if i%2 == 0 {
			if _, dup := seen[string(s)]; dup {
				return false
			}
			seen[string(s)] = struct{}{}
		}
		return true
	})
	if err == nil && count%2 != 0 {
		err = fmt.Errorf("%w: hash ziplist integrity check failed", ErrCorrupt)
	}
	return lp, count / 2, err
}

// ziplistToListpack validates zl as a ziplist (deep: every entry, the header's counts and
// offsets, the terminator) and returns it converted to a listpack built in dst[:0], with its
// number of entries. check, if not nil, sees each entry (its index, its value as a string, a
// view valid during the call) and refuses it by returning false. what names the value in
// errors ("hash", "list").
func ziplistToListpack(zl, dst []byte, what string, check func(i int, s []byte) bool) ([]byte, int, error) {
	bad := fmt.Errorf("%w: %s ziplist integrity check failed", ErrCorrupt, what)
	if len(zl) < zlHeader+1 || int64(binary.LittleEndian.Uint32(zl)) != int64(len(zl)) || zl[len(zl)-1] != zlEnd {
		return nil, 0, bad
	}
	lp := dst[:0]
	if cap(lp) < listpack.EmptySize {
		lp = listpack.NewSlice(len(zl))
	} else {
		lp = lp[:listpack.EmptySize]
		binary.LittleEndian.PutUint32(lp, listpack.EmptySize)
		binary.LittleEndian.PutUint16(lp[4:], 0)
		lp[listpack.HeaderSize] = listpack.EOF
	}
	var num []byte
	count, prev, last := 0, 0, zlHeader
	p := zlHeader
	for p < len(zl)-1 {
		size, s, v, isInt, ok := ziplistEntry(zl, p, prev)
		if !ok {
			return nil, 0, bad
		}
		if isInt {
			num = strconv.AppendInt(num[:0], v, 10)
			s = num
		}
		if check != nil && !check(count, s) {
			return nil, 0, bad
		}
		var err error
		if lp, err = listpack.AppendSlice(lp, s); err != nil {
			return nil, 0, bad
		}
		last, prev = p, size
		p += size
		count++
	}
	if int(binary.LittleEndian.Uint32(zl[4:])) != last {
		return nil, 0, bad
	}
	if h := int(binary.LittleEndian.Uint16(zl[8:])); h != zlLenUnkwn && h != count {
		return nil, 0, bad
	}
	return lp, count, nil
}

// Zipmap layout: a count byte (254 or more: unknown), then pairs of length, field, length, a
// "free" byte, value and that many unused bytes, then 0xFF. A length is one byte below 254,
// else 254 and 4 bytes LE.
const (
	zmBigLen    = 254
	zmEnd       = 0xFF
	zipmapFirst = 1 // the offset of the first pair
)

// zipmapLen reads the length at p of zm: the length, the offset after it, ok.
func zipmapLen(zm []byte, p int) (int, int, bool) {
	if p >= len(zm) {
		return 0, 0, false
	}
	switch b := zm[p]; {
	case b < zmBigLen:
		return int(b), p + 1, true
	case b == zmBigLen && len(zm)-p-1 >= 4:
		n := binary.LittleEndian.Uint32(zm[p+1:])
		return int(n), p + 5, uint64(n) <= uint64(len(zm))
	}
	return 0, 0, false
}

// validateZipmap checks zm as a zipmap hash with no field twice and returns its pairs.
func validateZipmap(zm []byte) (int, error) {
	bad := fmt.Errorf("%w: zipmap integrity check failed", ErrCorrupt)
	if len(zm) < 2 || zm[len(zm)-1] != zmEnd {
		return 0, bad
	}
	seen := make(map[string]struct{})
	count, p := 0, zipmapFirst
	for zm[p] != zmEnd {
		fl, q, ok := zipmapLen(zm, p)
		if !ok || fl > len(zm)-1-q {
			return 0, bad
		}
		field := zm[q : q+fl]
		q += fl
		vl, q, ok := zipmapLen(zm, q)
		if !ok || q >= len(zm)-1 {
			return 0, bad
		}
		free := int(zm[q])
		q++
		if vl+free > len(zm)-1-q {
			return 0, bad
		}
		p = q + vl + free
		if _, dup := seen[string(field)]; dup {
			return 0, bad
		}
		seen[string(field)] = struct{}{}
		count++
	}
	if p != len(zm)-1 {
		return 0, bad
	}
	if h := int(zm[0]); h < zmBigLen && h != count {
		return 0, bad
	}
	return count, nil
}

// zipmapPair reads the pair at p of a zipmap validateZipmap accepted: the field, the value and
// the offset of the next pair.
func zipmapPair(zm []byte, p int) (field, value []byte, next int) {
	fl, q, _ := zipmapLen(zm, p)
	field = zm[q : q+fl]
	vl, q, _ := zipmapLen(zm, q+fl)
	free := int(zm[q])
	q++
	return field, zm[q : q+vl], q + vl + free
}
