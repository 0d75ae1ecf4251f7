package intset

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/kvserver/kvserver/alloc"
)

// HeaderSize is the size of the encoding and length fields.
const HeaderSize = 8

// The encodings: the byte width of each member (intset.c's INTSET_ENC_INT16/32/64).
const (
	Enc16 = 2
	Enc32 = 4
	Enc64 = 8
)

// ErrNoMemory is returned when the arena cannot grow; the intset is then unchanged.
var ErrNoMemory = errors.New("intset: out of memory")

// ErrCorrupt is returned by Validate for bytes that are not a well-formed intset.
var ErrCorrupt = errors.New("intset: corrupt")

// valueEncoding is the narrowest encoding that holds v.
func valueEncoding(v int64) int {
	switch {
	case v < math.MinInt32 || v > math.MaxInt32:
		return Enc64
	case v < math.MinInt16 || v > math.MaxInt16:
		return Enc32
	}
	return Enc16
}

// Encoding returns the member width of the intset is: 2, 4 or 8.
func Encoding(is []byte) int { return int(binary.LittleEndian.Uint32(is)) }

// Len returns the number of members.
func Len(is []byte) int { return int(binary.LittleEndian.Uint32(is[4:])) }

// BlobLen returns the intset's size in bytes: header and members (intsetBlobLen).
func BlobLen(is []byte) int { return HeaderSize + Len(is)*Encoding(is) }

// get reads the member at index i in encoding enc.
func get(is []byte, enc, i int) int64 {
	p := is[HeaderSize+i*enc:]
	switch enc {
	case Enc64:
		return int64(binary.LittleEndian.Uint64(p))
	case Enc32:
		return int64(int32(binary.LittleEndian.Uint32(p)))
	}
	return int64(int16(binary.LittleEndian.Uint16(p)))
}

// set writes v at index i in encoding enc.
func set(is []byte, enc, i int, v int64) {
	p := is[HeaderSize+i*enc:]
	switch enc {
	case Enc64:
		binary.LittleEndian.PutUint64(p, uint64(v))
	case Enc32:
		binary.LittleEndian.PutUint32(p, uint32(v))
	default:
		binary.LittleEndian.PutUint16(p, uint16(v))
	}
}

// Get returns the member at index i (0 ≤ i < Len).
func Get(is []byte, i int) int64 { return get(is, Encoding(is), i) }

// Min returns the smallest member of a non-empty intset.
func Min(is []byte) int64 { return Get(is, 0) }

// Max returns the largest member of a non-empty intset.
func Max(is []byte) int64 { return Get(is, Len(is)-1) }

// Search returns the index of v and true, or the index where v would be inserted and false —
// intsetSearch, ends checked first so appending in order costs no binary search.
func Search(is []byte, v int64) (int, bool) {
	n, enc := Len(is), Encoding(is)
	if n == 0 {
		return 0, false
	}
	if v > get(is, enc, n-1) {
		return n, false
	}
	if v < get(is, enc, 0) {
		return 0, false
	}
	lo, hi := 0, n-1
	for lo <= hi {
		mid := int(uint(lo+hi) >> 1)
		cur := get(is, enc, mid)
		switch {
		case v > cur:
			lo = mid + 1
		case v < cur:
			hi = mid - 1
		default:
			return mid, true
		}
	}
	return lo, false
}

// Find reports whether v is a member (intsetFind: a value wider than the encoding is not).
func Find(is []byte, v int64) bool {
	if valueEncoding(v) > Encoding(is) {
		return false
	}
	_, ok := Search(is, v)
	return ok
}

// Random returns a uniformly chosen member of a non-empty intset; rnd(n) returns an integer in
// [0, n).
func Random(is []byte, rnd func(n int) int) int64 { return Get(is, rnd(Len(is))) }

// Validate checks untrusted bytes (a RESTORE payload, an RDB file) before any other function of
// this package reads them — intsetValidateIntegrity: a known encoding, a size that is exactly
// header + length × encoding, at least one member (Redis never stores an empty intset), and with
// deep, members strictly ascending. It never panics and never reads outside is.
func Validate(is []byte, deep bool) error {
	if len(is) < HeaderSize {
		return ErrCorrupt
	}
	enc := uint64(binary.LittleEndian.Uint32(is))
	if enc != Enc16 && enc != Enc32 && enc != Enc64 {
		return ErrCorrupt
	}
	n := uint64(binary.LittleEndian.Uint32(is[4:]))
	if HeaderSize+n*enc != uint64(len(is)) || n == 0 {
		return ErrCorrupt
	}
	if !deep {
		return nil
	}
	prev := get(is, int(enc), 0)
	for i := 1; i < int(n); i++ {
		cur := get(is, int(enc), i)
		if cur <= prev {
			return ErrCorrupt
		}
		prev = cur
	}
	return nil
}

// Intset is an intset in an alloc.Arena, named by its handle. The zero Intset is none at all;
// New makes an empty one.
type Intset struct{ h alloc.Handle }

// FromHandle makes an Intset of a handle that New, FromBytes or a write returned.
func FromHandle(h alloc.Handle) Intset { return Intset{h} }

// Handle returns the allocation behind s, to be stored in a record.
func (s Intset) Handle() alloc.Handle { return s.h }

// IsNil reports whether s is the zero Intset.
func (s Intset) IsNil() bool { return s.h == 0 }

// New returns an empty intset of 16-bit encoding (intsetNew), or the zero Intset if memory is
// exhausted.
func New(a *alloc.Arena) Intset {
	h := a.Alloc(HeaderSize)
	if h == 0 {
		return Intset{}
	}
	b := a.Bytes(h, HeaderSize)
	binary.LittleEndian.PutUint32(b, Enc16)
	binary.LittleEndian.PutUint32(b[4:], 0)
	return Intset{h}
}

// FromBytes copies is (an intset that Validate accepted, deep) into a new allocation. It
// returns the zero Intset if memory is exhausted.
func FromBytes(a *alloc.Arena, is []byte) Intset {
	h := a.Alloc(len(is))
	if h == 0 {
		return Intset{}
	}
	copy(a.Bytes(h, len(is)), is)
	return Intset{h}
}

// size is the intset's byte size, which is also the size its allocation was asked for.
func (s Intset) size(a *alloc.Arena) int { return BlobLen(a.Bytes(s.h, HeaderSize)) }

// Bytes returns a view of the whole intset, for the pure functions and for DUMP.
func (s Intset) Bytes(a *alloc.Arena) []byte { return a.Bytes(s.h, s.size(a)) }

// AllocSize returns the bytes charged to the arena for s.
func (s Intset) AllocSize(a *alloc.Arena) int { return alloc.UsableSize(s.size(a)) }

// Free gives s's memory back. The zero Intset is ignored.
func (s Intset) Free(a *alloc.Arena) {
	if s.h == 0 {
		return
	}
	a.Free(s.h, s.size(a))
}

// Add inserts v and returns the intset (which may have moved) and whether v was new. A v wider
// than the encoding upgrades every member first.
func (s Intset) Add(a *alloc.Arena, v int64) (Intset, bool, error) {
	b := s.Bytes(a)
	enc, n := Encoding(b), Len(b)
	if venc := valueEncoding(v); venc > enc {
		return s.upgradeAndAdd(a, enc, venc, n, v)
	}
	pos, found := Search(b, v)
	if found {
		return s, false, nil
	}
	old := HeaderSize + n*enc
	h := a.Realloc(s.h, old, old+enc)
	if h == 0 {
		return s, false, ErrNoMemory
	}
	b = a.Bytes(h, old+enc)
	copy(b[HeaderSize+(pos+1)*enc:], b[HeaderSize+pos*enc:old])
	set(b, enc, pos, v)
	binary.LittleEndian.PutUint32(b[4:], uint32(n+1))
	return Intset{h}, true, nil
}

// upgradeAndAdd widens every member to venc and adds v, which being wider than every member
// goes first (negative) or last (positive).
func (s Intset) upgradeAndAdd(a *alloc.Arena, enc, venc, n int, v int64) (Intset, bool, error) {
	h := a.Realloc(s.h, HeaderSize+n*enc, HeaderSize+(n+1)*venc)
	if h == 0 {
		return s, false, ErrNoMemory
	}
	b := a.Bytes(h, HeaderSize+(n+1)*venc)
	prepend := 0
	if v < 0 {
		prepend = 1
	}
	// From the back, so no member is overwritten before it is read.
	for i := n - 1; i >= 0; i-- {
		set(b, venc, i+prepend, get(b, enc, i))
	}
	if prepend == 1 {
		set(b, venc, 0, v)
	} else {
		set(b, venc, n, v)
	}
	binary.LittleEndian.PutUint32(b, uint32(venc))
	binary.LittleEndian.PutUint32(b[4:], uint32(n+1))
	return Intset{h}, true, nil
}

// Remove deletes v and returns the intset (which may have moved) and whether v was a member.
// The encoding stays as it is.
func (s Intset) Remove(a *alloc.Arena, v int64) (Intset, bool, error) {
	b := s.Bytes(a)
	enc, n := Encoding(b), Len(b)
	if valueEncoding(v) > enc {
		return s, false, nil
	}
	pos, found := Search(b, v)
	if !found {
		return s, false, nil
	}
	old := HeaderSize + n*enc
	// Move the tail down first, then shrink: if the smaller allocation cannot be had, move it back.
	copy(b[HeaderSize+pos*enc:], b[HeaderSize+(pos+1)*enc:old])
	h := a.Realloc(s.h, old, old-enc)
	if h == 0 {
		copy(b[HeaderSize+(pos+1)*enc:old], b[HeaderSize+pos*enc:old-enc])
		set(b, enc, pos, v)
		return s, false, ErrNoMemory
	}
	binary.LittleEndian.PutUint32(a.Bytes(h, HeaderSize)[4:], uint32(n-1))
	return Intset{h}, true, nil
}
