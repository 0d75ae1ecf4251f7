package object

import (
	"encoding/binary"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/sds"
)

// maxIntChars is the longest canonical int64: "-9223372036854775808" (Redis checks ≤ 20 too).
const maxIntChars = 20

// CanonicalInt reports whether s is an int64 written the one way Redis writes it — no sign but
// '-', no leading zeros, no spaces — so that storing it as an int prints back the same bytes:
// Redis's string2ll (conv.String2ll), which allocates nothing, even for a value that is not a
// number (every SET of a text asks).
func CanonicalInt(s []byte) (int64, bool) { return conv.String2ll(s) }

// NewString makes a string record of key and val with the encoding Redis would pick for this
// kind of write: int when canonical, embstr when the record fits (Embeds), raw otherwise.
// expireMs is a unix time in ms, 0 for none.
func NewString(a *alloc.Arena, key, val []byte, expireMs int64, kind WriteKind) (alloc.Handle, error) {
	p := parts{typ: TypeString, key: key, expire: expireMs, hasExp: expireMs != 0}
	switch v, isInt := CanonicalInt(val); {
	case kind == WriteSet && isInt:
		p.enc, p.intVal = EncInt, v
	case Embeds(len(key), len(val), p.hasExp, kind):
		p.enc, p.val = EncEmbstr, val
	default:
		// A SET knows the final size: exact. A growing write will grow again: greedy.
		s := sds.WithCapacity(a, len(val))
		if s.IsNil() {
			return 0, ErrOOM
		}
		if kind == WriteGrow {
			s = s.MakeRoomFor(a, len(val), true)
		}
		copy(s.Spare(a), val)
		s.SetLen(a, len(val))
		p.enc, p.raw = EncRaw, s.Handle()
	}
	h, err := build(a, p)
	if err != nil && p.enc == EncRaw {
		sds.FromHandle(p.raw).Free(a)
	}
	return h, err
}

// NewStringFromSds makes a raw string record of key whose value is s, which the record takes
// over (a big argument adopted without a copy). On error s still belongs to the caller.
func NewStringFromSds(a *alloc.Arena, key []byte, s sds.String, expireMs int64) (alloc.Handle, error) {
	return build(a, parts{typ: TypeString, enc: EncRaw, key: key, raw: s.Handle(), expire: expireMs, hasExp: expireMs != 0})
}

// NewZeroString makes a raw string record of key holding n zero bytes, allocated exactly
// (SETRANGE on a missing key, as Redis's sdsnewlen(NULL, n)).
func NewZeroString(a *alloc.Arena, key []byte, n int) (alloc.Handle, error) {
	s := sds.WithCapacity(a, n)
	if s.IsNil() {
		return 0, ErrOOM
	}
	clear(s.Spare(a)[:n])
	s.SetLen(a, n)
	h, err := build(a, parts{typ: TypeString, enc: EncRaw, key: key, raw: s.Handle()})
	if err != nil {
		s.Free(a)
	}
	return h, err
}

// Value returns the string value of record h: a view for embstr and raw, or the int formatted
// into scratch (whose capacity should be at least 20 to avoid allocating).
func Value(a *alloc.Arena, h alloc.Handle, scratch []byte) []byte {
	r := open(a, h)
	switch r.enc {
	case EncEmbstr:
		return r.buf[r.valOff : r.valOff+r.valLen]
	case EncRaw:
		return r.rawString().Bytes(a)
	default:
		return strconv.AppendInt(scratch[:0], r.intValue(), 10)
	}
}

func (r record) intValue() int64 { return int64(binary.LittleEndian.Uint64(r.buf[r.valOff:])) }

// ValueLen returns the length of the string value of record h (STRLEN).
func ValueLen(a *alloc.Arena, h alloc.Handle) int {
	r := open(a, h)
	switch r.enc {
	case EncEmbstr:
		return r.valLen
	case EncRaw:
		return r.rawString().Len(a)
	default:
		var buf [maxIntChars]byte
		return len(strconv.AppendInt(buf[:0], r.intValue(), 10))
	}
}

// IntValue returns the value of record h as an int64 if it is one (int encoding, or a string
// that parses as Redis's string2ll would accept: a canonical integer).
func IntValue(a *alloc.Arena, h alloc.Handle) (int64, bool) {
	r := open(a, h)
	if r.enc == EncInt {
		return r.intValue(), true
	}
	return CanonicalInt(Value(a, h, nil))
}

// SetInt stores v as the value of record h with the int encoding (INCR and friends). An int
// record is changed in place; any other is rebuilt. It returns the record's handle.
func SetInt(a *alloc.Arena, h alloc.Handle, v int64) (alloc.Handle, error) {
	r := open(a, h)
	if r.enc == EncInt {
		binary.LittleEndian.PutUint64(r.buf[r.valOff:], uint64(v))
		return h, nil
	}
	p := r.parts()
	p.enc, p.intVal, p.val = EncInt, v, nil
	return rebuild(a, h, r, p)
}

// Append appends tail to the value of record h, making it raw (greedy growth), and returns the
// record's handle and the new length.
func Append(a *alloc.Arena, h alloc.Handle, tail []byte) (alloc.Handle, int, error) {
	h, s, err := makeRaw(a, h, len(tail))
	if err != nil {
		return h, 0, err
	}
	ns := s.Append(a, tail)
	if ns.IsNil() {
		return h, 0, ErrOOM
	}
	setRaw(a, h, ns)
	return h, ns.Len(a), nil
}

// SetRange overwrites the value of record h from offset with p, zero-padding a gap, making it
// raw; it returns the record's handle and the new length.
func SetRange(a *alloc.Arena, h alloc.Handle, offset int, p []byte) (alloc.Handle, int, error) {
	cur := ValueLen(a, h)
	end := max(cur, offset+len(p))
	h, s, err := makeRaw(a, h, end-cur)
	if err != nil {
		return h, 0, err
	}
	if grow := end - cur; grow > 0 {
		ns := s.MakeRoomFor(a, grow, true)
		if ns.IsNil() {
			return h, 0, ErrOOM
		}
		s = ns
		clear(s.Spare(a)[:grow])
		s.SetLen(a, end)
		setRaw(a, h, s)
	}
	copy(s.Bytes(a)[offset:], p)
	return h, end, nil
}

// makeRaw makes sure record h holds its value in a separate sds with room for addlen more
// bytes (greedy), rebuilding the record if it was embstr or int.
func makeRaw(a *alloc.Arena, h alloc.Handle, addlen int) (alloc.Handle, sds.String, error) {
	r := open(a, h)
	if r.enc == EncRaw {
		return h, r.rawString(), nil
	}
	var scratch [maxIntChars]byte
	val := Value(a, h, scratch[:])
	s := sds.WithCapacity(a, len(val))
	if s.IsNil() {
		return h, s, ErrOOM
	}
	if ns := s.MakeRoomFor(a, len(val)+addlen, true); !ns.IsNil() {
		s = ns
	}
	copy(s.Spare(a), val)
	s.SetLen(a, len(val))
	p := r.parts()
	p.enc, p.raw, p.val = EncRaw, s.Handle(), nil
	nh, err := rebuild(a, h, r, p)
	if err != nil {
		s.Free(a)
		return h, sds.String{}, err
	}
	return nh, s, nil
}

// setRaw stores a (possibly moved) sds handle in raw record h.
func setRaw(a *alloc.Arena, h alloc.Handle, s sds.String) {
	r := open(a, h)
	binary.LittleEndian.PutUint32(r.buf[r.valOff:], uint32(s.Handle()))
}

// parts reads back what record r was made of (views into it: build copies them).
func (r record) parts() parts {
	p := parts{typ: r.typ, enc: r.enc, key: r.buf[r.keyOff : r.keyOff+r.keyLen]}
	p.lru = uint32(r.buf[2]) | uint32(r.buf[3])<<8 | uint32(r.buf[4])<<16
	if r.flags&flagExpireSlot != 0 {
		p.slotWant = true
		if r.flags&flagExpireSet != 0 {
			p.hasExp = true
			p.expire = int64(binary.LittleEndian.Uint64(r.buf[headerSize:]))
		}
	}
	switch r.enc {
	case EncEmbstr:
		p.val = r.buf[r.valOff : r.valOff+r.valLen]
	case EncRaw:
		p.raw = r.rawString().Handle()
	case EncInt:
		p.intVal = r.intValue()
	default: // a collection: the new record takes over the root
		p.raw = r.rootHandle()
	}
	return p
}

// rebuild makes a new record of p and frees old record h's own allocation (not a raw value,
// which p may have taken over or which the caller frees).
func rebuild(a *alloc.Arena, h alloc.Handle, r record, p parts) (alloc.Handle, error) {
	nh, err := build(a, p)
	if err != nil {
		return h, err
	}
	if r.enc == EncRaw && (p.enc != EncRaw || p.raw != r.rawString().Handle()) {
		r.rawString().Free(a)
	}
	a.Free(h, len(r.buf))
	return nh, nil
}
