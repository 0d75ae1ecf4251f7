package hashval

import (
	"encoding/binary"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// A hashtable entry is one allocation: uvarint field length, field, uvarint value length,
// value. Its size follows from its own bytes, so freeing it needs nothing but the handle, and
// the field (the table's key) is read with one uvarint.

// uvarintLen is the number of bytes binary.PutUvarint writes for x.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// entrySize is the size of the entry holding a field of fl bytes and a value of vl bytes.
func entrySize(fl, vl int) int {
	return uvarintLen(uint64(fl)) + fl + uvarintLen(uint64(vl)) + vl
}

// entryBase is the address of entry h's first byte. The entry's bytes are read through it
// one uvarint byte at a time, which never reads past the allocation (its usable size is
// unknown until both lengths are decoded).
func entryBase(a *alloc.Arena, h alloc.Handle) unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(a.Bytes(h, 1)))
}

// uvarintAt decodes the uvarint at p+off and returns its value and the offset after it.
func uvarintAt(p unsafe.Pointer, off int) (uint64, int) {
	var v uint64
	for s := uint(0); ; s += 7 {
		b := *(*byte)(unsafe.Add(p, off))
		off++
		if b < 0x80 {
			return v | uint64(b)<<s, off
		}
		v |= uint64(b&0x7f) << s
	}
}

// entryField reads the field of entry h: the tables' KeyFunc.
func entryField(a *alloc.Arena, h alloc.Handle) []byte {
	p := entryBase(a, h)
	fl, off := uvarintAt(p, 0)
	return unsafe.Slice((*byte)(unsafe.Add(p, off)), int(fl))
}

// entryView returns entry h's field, value and size.
func entryView(a *alloc.Arena, h alloc.Handle) (field, value []byte, size int) {
	p := entryBase(a, h)
	fl, off := uvarintAt(p, 0)
	field = unsafe.Slice((*byte)(unsafe.Add(p, off)), int(fl))
	vl, voff := uvarintAt(p, off+int(fl))
	value = unsafe.Slice((*byte)(unsafe.Add(p, voff)), int(vl))
	return field, value, voff + int(vl)
}

// entryValueOffset returns where entry h's value length starts, and the entry's size.
func entryValueOffset(a *alloc.Arena, h alloc.Handle) (off, size int) {
	p := entryBase(a, h)
	fl, off := uvarintAt(p, 0)
	off += int(fl)
	vl, voff := uvarintAt(p, off)
	return off, voff + int(vl)
}

// newEntry allocates the entry of field and value; 0 without memory.
func newEntry(a *alloc.Arena, field, value []byte) alloc.Handle {
	n := entrySize(len(field), len(value))
	h := a.Alloc(n)
	if h == 0 {
		return 0
	}
	b := a.Bytes(h, n)
	off := binary.PutUvarint(b, uint64(len(field)))
	off += copy(b[off:], field)
	putValue(b[off:], value)
	return h
}

// putValue writes value's length and bytes at the start of b.
func putValue(b, value []byte) {
	off := binary.PutUvarint(b, uint64(len(value)))
	copy(b[off:], value)
}

// freeEntry frees entry h.
func freeEntry(a *alloc.Arena, h alloc.Handle) {
	_, _, size := entryView(a, h)
	a.Free(h, size)
}

// entryAllocSize is what entry h is charged.
func entryAllocSize(a *alloc.Arena, h alloc.Handle) int {
	_, _, size := entryView(a, h)
	return alloc.UsableSize(size)
}

// setEntryValue makes entry h hold value and returns its handle: h itself, rewritten in place,
// when the new size has the old one's size class, else a new entry (h is then freed), 0
// without memory (h is then unchanged).
func setEntryValue(a *alloc.Arena, h alloc.Handle, value []byte) alloc.Handle {
	voff, old := entryValueOffset(a, h)
	n := voff + uvarintLen(uint64(len(value))) + len(value)
	if alloc.UsableSize(n) == alloc.UsableSize(old) {
		putValue(a.Bytes(h, n)[voff:], value)
		return h
	}
	nh := a.Alloc(n)
	if nh == 0 {
		return 0
	}
	b := a.Bytes(nh, n)
	copy(b, a.Bytes(h, voff))
	putValue(b[voff:], value)
	a.Free(h, old)
	return nh
}
