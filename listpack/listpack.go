package listpack

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/kvserver/kvserver/alloc"
)

// ErrTooBig is returned by a write that would make the listpack larger than its 32-bit total
// can say; ErrNoMemory when the arena cannot grow. The listpack is unchanged after either.
var (
	ErrTooBig   = errors.New("listpack: too big")
	ErrNoMemory = errors.New("listpack: out of memory")
)

// maxBytes is the largest listpack the header's uint32 total can describe.
const maxBytes = math.MaxUint32

// Listpack is a listpack in an alloc.Arena, named by its handle. The zero Listpack is none at
// all; New makes an empty one.
type Listpack struct{ h alloc.Handle }

// FromHandle makes a Listpack of a handle that New, FromBytes or a write returned.
func FromHandle(h alloc.Handle) Listpack { return Listpack{h} }

// Handle returns the allocation behind l, to be stored in a record.
func (l Listpack) Handle() alloc.Handle { return l.h }

// IsNil reports whether l is the zero Listpack.
func (l Listpack) IsNil() bool { return l.h == 0 }

// New returns an empty listpack, or the zero Listpack if memory is exhausted.
func New(a *alloc.Arena) Listpack {
	h := a.Alloc(EmptySize)
	if h == 0 {
		return Listpack{}
	}
	b := a.Bytes(h, EmptySize)
	binary.LittleEndian.PutUint32(b, EmptySize)
	binary.LittleEndian.PutUint16(b[4:], 0)
	b[HeaderSize] = EOF
	return Listpack{h}
}

// FromBytes copies lp (a listpack that Validate accepted, deep) into a new allocation: what
// RESTORE and RDB loading do with a blob. It returns the zero Listpack if memory is exhausted.
func FromBytes(a *alloc.Arena, lp []byte) Listpack {
	h := a.Alloc(len(lp))
	if h == 0 {
		return Listpack{}
	}
	copy(a.Bytes(h, len(lp)), lp)
	return Listpack{h}
}

// size is l's total bytes, which is also the size its allocation was asked for.
func (l Listpack) size(a *alloc.Arena) int {
	return int(binary.LittleEndian.Uint32(a.Bytes(l.h, 4)))
}

// Bytes returns a view of the whole listpack, for the pure functions of this package and for
// DUMP (see the package doc for how long it is valid).
func (l Listpack) Bytes(a *alloc.Arena) []byte { return a.Bytes(l.h, l.size(a)) }

// AllocSize returns the bytes charged to the arena for l.
func (l Listpack) AllocSize(a *alloc.Arena) int { return alloc.UsableSize(l.size(a)) }

// Free gives l's memory back. The zero Listpack is ignored.
func (l Listpack) Free(a *alloc.Arena) {
	if l.h == 0 {
		return
	}
	a.Free(l.h, l.size(a))
}

// Len returns the number of entries. When the header says NumUnknown it walks, and stores the
// count back if it has fallen below 65535 (as lpLength does).
func (l Listpack) Len(a *alloc.Arena) int {
	b := l.Bytes(a)
	n := Len(b)
	if headerCount(b) == NumUnknown && n < NumUnknown {
		binary.LittleEndian.PutUint16(b[4:], uint16(n))
	}
	return n
}

// splice replaces the del bytes at offset off with ins bytes (left for the caller to fill, at
// the returned view's off), moving the tail, reallocating to the exact new size and adjusting
// the header's total and count by dcount. It returns the listpack and a view of it.
func (l Listpack) splice(a *alloc.Arena, off, del, ins, dcount int) (Listpack, []byte, error) {
	old := l.size(a)
	n := old - del + ins
	if n > maxBytes {
		return l, nil, ErrTooBig
	}
	h := l.h
	if n > old {
		h = a.Realloc(h, old, n)
		if h == 0 {
			return l, nil, ErrNoMemory
		}
		b := a.Bytes(h, n)
		copy(b[off+ins:], b[off+del:old])
		return Listpack{h}.finish(b, n, dcount)
	}
	b := a.Bytes(h, old)
	if n < old && alloc.UsableSize(n) != alloc.UsableSize(old) && !(h.IsLarge() && n > alloc.MaxSlabSize) {
		// The allocation must stay of the class of the total: a shrink to another class takes
		// the smaller slot first, so that without memory nothing has moved (moving the tail
		// first would overwrite the deleted bytes, which no undo could bring back).
		nh := a.Alloc(n)
		if nh == 0 {
			return l, nil, ErrNoMemory
		}
		nb := a.Bytes(nh, n)
		copy(nb[:off], b[:off])
		copy(nb[off+ins:], b[off+del:old])
		a.Free(h, old)
		return Listpack{nh}.finish(nb, n, dcount)
	}
	copy(b[off+ins:], b[off+del:old])
	if n < old {
		// Same class, or a large run shrinking in place: Realloc cannot fail.
		h = a.Realloc(h, old, n)
	}
	return Listpack{h}.finish(a.Bytes(h, n), n, dcount)
}

// finish writes the new total and count into the header of b.
func (l Listpack) finish(b []byte, n, dcount int) (Listpack, []byte, error) {
	binary.LittleEndian.PutUint32(b, uint32(n))
	if c := headerCount(b); c != NumUnknown && dcount != 0 {
		c += dcount
		if c >= NumUnknown {
			c = NumUnknown
		}
		binary.LittleEndian.PutUint16(b[4:], uint16(c))
	}
	return l, b, nil
}

// insertEntry writes e at offset p (an entry's offset or the EOF's) and returns the listpack
// and the offset of the new entry.
func (l Listpack) insertEntry(a *alloc.Arena, p int, e *entry) (Listpack, int, error) {
	nl, b, err := l.splice(a, p, 0, e.size(), 1)
	if err != nil {
		return l, -1, err
	}
	e.put(b[p:])
	return nl, p, nil
}

// Append adds s at the end (as an integer when StringToInt64 accepts it) and returns the
// listpack, which may have moved.
func (l Listpack) Append(a *alloc.Arena, s []byte) (Listpack, error) {
	var e entry
	e.encode(s)
	nl, _, err := l.insertEntry(a, l.size(a)-1, &e)
	return nl, err
}

// AppendInt adds the integer v at the end.
func (l Listpack) AppendInt(a *alloc.Arena, v int64) (Listpack, error) {
	var e entry
	e.encodeInt(v)
	nl, _, err := l.insertEntry(a, l.size(a)-1, &e)
	return nl, err
}

// Prepend adds s at the start.
func (l Listpack) Prepend(a *alloc.Arena, s []byte) (Listpack, error) {
	var e entry
	e.encode(s)
	nl, _, err := l.insertEntry(a, HeaderSize, &e)
	return nl, err
}

// Where says on which side of an entry Insert puts the new one.
type Where int

// Before and After are the sides of Insert (listpack.c's LP_BEFORE, LP_AFTER).
const (
	Before Where = iota
	After
)

// Insert adds s before or after the entry at p and returns the listpack and the new entry's
// offset.
func (l Listpack) Insert(a *alloc.Arena, p int, where Where, s []byte) (Listpack, int, error) {
	var e entry
	e.encode(s)
	if where == After {
		p += entrySize(l.Bytes(a), p)
	}
	return l.insertEntry(a, p, &e)
}

// Replace puts s in place of the entry at p and returns the listpack and the entry's offset
// (unchanged: entries before it do not move).
func (l Listpack) Replace(a *alloc.Arena, p int, s []byte) (Listpack, int, error) {
	var e entry
	e.encode(s)
	return l.replaceEntry(a, p, &e)
}

// ReplaceInt puts the integer v in place of the entry at p.
func (l Listpack) ReplaceInt(a *alloc.Arena, p int, v int64) (Listpack, int, error) {
	var e entry
	e.encodeInt(v)
	return l.replaceEntry(a, p, &e)
}

func (l Listpack) replaceEntry(a *alloc.Arena, p int, e *entry) (Listpack, int, error) {
	old := entrySize(l.Bytes(a), p)
	nl, b, err := l.splice(a, p, old, e.size(), 0)
	if err != nil {
		return l, -1, err
	}
	e.put(b[p:])
	return nl, p, nil
}

// Delete removes the entry at p and returns the listpack and the offset of the entry that
// followed it, or -1 if it was the last: deleting while iterating (lpDeleteRangeWithEntry of
// one, lpDelete's "next" result).
func (l Listpack) Delete(a *alloc.Arena, p int) (Listpack, int, error) {
	return l.DeleteEntries(a, p, 1)
}

// DeleteEntries removes up to n entries starting with the one at p and returns the listpack and
// the offset of the entry after them, or -1 at the end.
func (l Listpack) DeleteEntries(a *alloc.Arena, p, n int) (Listpack, int, error) {
	b := l.Bytes(a)
	end, count := p, 0
	for ; count < n && b[end] != EOF; count++ {
		end += entrySize(b, end)
	}
	if count == 0 {
		return l, -1, nil
	}
	nl, nb, err := l.splice(a, p, end-p, 0, -count)
	if err != nil {
		return l, -1, err
	}
	if nb[p] == EOF {
		return nl, -1, nil
	}
	return nl, p, nil
}

// DeleteRange removes n entries from index i (negative counts from the end) — lpDeleteRange.
func (l Listpack) DeleteRange(a *alloc.Arena, i, n int) (Listpack, error) {
	if n <= 0 {
		return l, nil
	}
	p := Seek(l.Bytes(a), i)
	if p < 0 {
		return l, nil
	}
	nl, _, err := l.DeleteEntries(a, p, n)
	return nl, err
}

// MaxSafetySize is the size past which callers convert a listpack to a bigger encoding rather
// than grow it (listpack.c's LISTPACK_MAX_SAFETY_SIZE, 1 GiB): far below the 4 GiB the header
// can say, so no single value can push a listpack past it.
const MaxSafetySize = 1 << 30

// SafeToAdd reports whether lp (nil for none yet) can grow by add bytes and stay within
// MaxSafetySize — lpSafeToAdd.
func SafeToAdd(lp []byte, add int) bool {
	n := 0
	if lp != nil {
		n = TotalBytes(lp)
	}
	return n+add <= MaxSafetySize
}
