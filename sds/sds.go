package sds

import (
	"encoding/binary"

	"github.com/kvserver/kvserver/alloc"
)

// Header sizes and the limit of the short header.
const (
	shortHeader = 8
	longHeader  = 16
	shortMax    = 1<<31 - 1 // longest length and capacity a short header holds
)

// Growth thresholds. Below exactGrowthMax a string grows to exactly what is asked (rounded to its
// class): the allocator's classes step by at most 25%, which already amortises; query buffers
// below it must not hold more than needed (DESIGN §5). Greedy growth doubles below
// greedyDoubleMax, then grows by half: doubling a huge string would double its memory.
const (
	exactGrowthMax  = 16 << 10
	greedyDoubleMax = 1 << 20
)

// String is a dynamic string in an alloc.Arena, named by its handle. The zero String is no
// string at all: Len and Cap are 0 and MakeRoomFor or Append allocates it.
type String struct{ h alloc.Handle }

// FromHandle makes a String of a handle that New or a growth call returned.
func FromHandle(h alloc.Handle) String { return String{h} }

// Handle returns the allocation behind s, to be stored in a record.
func (s String) Handle() alloc.Handle { return s.h }

// IsNil reports whether s is the zero String.
func (s String) IsNil() bool { return s.h == 0 }

// header reads s's length, capacity and header size.
func (s String) header(a *alloc.Arena) (length, capacity, hdr int) {
	w := binary.LittleEndian.Uint64(a.Bytes(s.h, shortHeader))
	if w&1 == 0 {
		return int(uint32(w) >> 1), int(w >> 32), shortHeader
	}
	l := binary.LittleEndian.Uint64(a.Bytes(s.h, longHeader)[8:])
	return int(l), int(w >> 1), longHeader
}

// headerFor is the header size of a string of capacity c.
func headerFor(c int) int {
	if c <= shortMax {
		return shortHeader
	}
	return longHeader
}

// writeHeader stores length and capacity in the header form that hdr says.
func (s String) writeHeader(a *alloc.Arena, length, capacity, hdr int) {
	if hdr == shortHeader {
		binary.LittleEndian.PutUint64(a.Bytes(s.h, shortHeader), uint64(length)<<1|uint64(capacity)<<32)
		return
	}
	b := a.Bytes(s.h, longHeader)
	binary.LittleEndian.PutUint64(b, uint64(capacity)<<1|1)
	binary.LittleEndian.PutUint64(b[8:], uint64(length))
}

// allocSizeFor is what to ask the allocator for a string of capacity at least c, and the
// capacity the answer really gives (header taken off the usable size).
func allocSizeFor(c, hdr int) (request, capacity int) {
	request = hdr + c
	return request, alloc.UsableSize(request) - hdr
}

// New returns a new string holding a copy of p, with the capacity of its allocation's class.
func New(a *alloc.Arena, p []byte) String {
	s := WithCapacity(a, len(p))
	if s.IsNil() {
		return s
	}
	copy(s.Spare(a), p)
	s.SetLen(a, len(p))
	return s
}

// WithCapacity returns a new empty string with room for at least n bytes, exactly as the
// allocator rounds it. It returns the zero String if memory is exhausted.
func WithCapacity(a *alloc.Arena, n int) String {
	hdr := headerFor(n)
	request, capacity := allocSizeFor(n, hdr)
	h := a.Alloc(request)
	if h == 0 {
		return String{}
	}
	s := String{h}
	s.writeHeader(a, 0, capacity, hdr)
	return s
}

// Len returns the length of s.
func (s String) Len(a *alloc.Arena) int {
	if s.h == 0 {
		return 0
	}
	l, _, _ := s.header(a)
	return l
}

// Cap returns the bytes s can hold without growing.
func (s String) Cap(a *alloc.Arena) int {
	if s.h == 0 {
		return 0
	}
	_, c, _ := s.header(a)
	return c
}

// Avail returns Cap − Len.
func (s String) Avail(a *alloc.Arena) int {
	if s.h == 0 {
		return 0
	}
	l, c, _ := s.header(a)
	return c - l
}

// AllocSize returns the bytes charged to the arena for s (header, data and free space).
func (s String) AllocSize(a *alloc.Arena) int {
	if s.h == 0 {
		return 0
	}
	_, c, hdr := s.header(a)
	return hdr + c
}

// Bytes returns a view of s's contents (see the package doc for how long it is valid).
func (s String) Bytes(a *alloc.Arena) []byte {
	if s.h == 0 {
		return nil
	}
	l, _, hdr := s.header(a)
	return a.Bytes(s.h, hdr+l)[hdr:]
}

// Spare returns a view of s's free space, Avail bytes after the contents: read or copy into it,
// then SetLen.
func (s String) Spare(a *alloc.Arena) []byte {
	if s.h == 0 {
		return nil
	}
	l, c, hdr := s.header(a)
	return a.Bytes(s.h, hdr+c)[hdr+l:]
}

// SetLen sets the length of s to n (0 ≤ n ≤ Cap): after writing into Spare, or to truncate.
func (s String) SetLen(a *alloc.Arena, n int) {
	_, c, hdr := s.header(a)
	if n < 0 || n > c {
		panic("sds: SetLen beyond capacity")
	}
	s.writeHeader(a, n, c, hdr)
}

// Free gives s's memory back. The zero String is ignored.
func (s String) Free(a *alloc.Arena) {
	if s.h == 0 {
		return
	}
	a.Free(s.h, s.AllocSize(a))
}

// MakeRoomFor makes sure s has room for addlen more bytes and returns the string, which may
// have moved. With greedy false the new capacity is exactly what is needed (rounded by the
// allocator): for a known final size. With greedy true the string grows exactly below 16 KiB and
// geometrically above. It returns the zero String if memory is exhausted (s is then unchanged).
func (s String) MakeRoomFor(a *alloc.Arena, addlen int, greedy bool) String {
	if s.h == 0 {
		return WithCapacity(a, addlen)
	}
	l, c, hdr := s.header(a)
	need := l + addlen
	if need <= c {
		return s
	}
	target := need
	if greedy && hdr+need >= exactGrowthMax {
		if need < greedyDoubleMax {
			target = need * 2
		} else {
			target = need + need/2
		}
	}
	return s.realloc(a, l, c, hdr, target, false)
}

// realloc moves s to an allocation for capacity target (≥ its length), keeping the long header
// if keepLong and s has one.
func (s String) realloc(a *alloc.Arena, l, c, hdr, target int, keepLong bool) String {
	newHdr := headerFor(target)
	if keepLong && hdr == longHeader {
		newHdr = longHeader
	}
	request, capacity := allocSizeFor(target, newHdr)
	if newHdr == hdr {
		h := a.Realloc(s.h, hdr+c, request)
		if h == 0 {
			return String{}
		}
		ns := String{h}
		ns.writeHeader(a, l, capacity, newHdr)
		return ns
	}
	// The header changes size: the contents move by the difference, so copy through a fresh
	// allocation (only at the 2 GiB boundary).
	h := a.Alloc(request)
	if h == 0 {
		return String{}
	}
	ns := String{h}
	copy(a.Bytes(h, newHdr+l)[newHdr:], s.Bytes(a))
	ns.writeHeader(a, l, capacity, newHdr)
	s.Free(a)
	return ns
}

// Append appends p to s, growing greedily, and returns the string, which may have moved.
func (s String) Append(a *alloc.Arena, p []byte) String {
	ns := s.MakeRoomFor(a, len(p), true)
	if ns.h == 0 {
		return ns
	}
	n := copy(ns.Spare(a), p)
	ns.SetLen(a, ns.Len(a)+n)
	return ns
}

// Resize gives s a capacity of size bytes (as rounded by the allocator), truncating the
// contents if size is below the length. It is the one trimming path: when the new allocation
// would have the usable size of the current one it neither allocates nor copies. wouldRegrow
// says the caller expects s to grow again (a query buffer): a long header is then kept.
func (s String) Resize(a *alloc.Arena, size int, wouldRegrow bool) String {
	if s.h == 0 {
		return WithCapacity(a, size)
	}
	l, c, hdr := s.header(a)
	if size < l {
		l = size
	}
	newHdr := headerFor(size)
	if wouldRegrow && hdr == longHeader {
		newHdr = longHeader
	}
	if newHdr == hdr && alloc.UsableSize(hdr+size) == hdr+c {
		if l != s.Len(a) {
			s.writeHeader(a, l, c, hdr)
		}
		return s
	}
	s.writeHeader(a, l, c, hdr)
	return s.realloc(a, l, c, hdr, size, wouldRegrow)
}

// RemoveFreeSpace trims s to its length: Resize(Len(s)).
func (s String) RemoveFreeSpace(a *alloc.Arena, wouldRegrow bool) String {
	return s.Resize(a, s.Len(a), wouldRegrow)
}

// HeaderSize is the header a string with room for n bytes has: where its contents start in its
// allocation.
func HeaderSize(n int) int { return headerFor(n) }

// Adopt makes a string of an allocation h of allocSize bytes (the size given to Alloc) whose
// bytes after a header of hdr bytes (HeaderSize of the room it was made for) already hold
// length bytes of contents — a buffer a client read a big argument into, handed to a shard
// without copying.
func Adopt(a *alloc.Arena, h alloc.Handle, allocSize, hdr, length int) String {
	capacity := alloc.UsableSize(allocSize) - hdr
	if hdr == shortHeader {
		capacity = min(capacity, shortMax)
	}
	s := String{h}
	s.writeHeader(a, length, capacity, hdr)
	return s
}
