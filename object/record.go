package object

import (
	"encoding/binary"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/sds"
)

// Type is a value's Redis type.
type Type uint8

// The Redis types. Collections register their operations (RegisterCollection).
const (
	TypeString Type = iota
	TypeList
	TypeSet
	TypeZSet
	TypeHash
	TypeStream
)

// Encoding is how a value is stored (OBJECT ENCODING).
type Encoding uint8

// String encodings.
const (
	EncEmbstr Encoding = iota // value inside the record
	EncRaw                    // value in a separate sds
	EncInt                    // canonical int64 inside the record
)

// WriteKind tells Embeds which kind of write makes a value.
type WriteKind uint8

const (
	// WriteSet is a SET-family write: embed when the record fits, int when canonical.
	WriteSet WriteKind = iota
	// WriteGrow is APPEND, SETRANGE or SETBIT: the value goes raw, with room to grow.
	WriteGrow
	// WriteText is a computed string (INCRBYFLOAT's result): embed when the record fits, but
	// never int, as Redis's createStringObject.
	WriteText
)

// ErrOOM means the arena could not provide memory. Its text is the reply a command gets,
// Redis's OOM error (replyerr.OOM): callers compare with errors.Is.
var ErrOOM error = replyerr.OOM

const (
	// MaxEmbeddedRecord is the largest record that holds its value inline: two cache lines,
	// Valkey 9.1's limit.
	MaxEmbeddedRecord = 128

	headerSize = 8
	expireSize = 8
	rawSize    = 4 // an sds handle
	intSize    = 8
	lenEscape  = 255 // a length byte with this value means "uvarint follows"

	flagExpireSlot = 1 << 0
	flagExpireSet  = 1 << 1
	// flagSnapshotMark is package keyspace's per-record snapshot mark: a record is written by
	// the running snapshot when its mark differs from its shard's (keyspace/snapshot.go).
	flagSnapshotMark = 1 << 2
)

// lenBytes is the size of a length field beyond the fixed header: 0 when the header byte holds it.
func lenBytes(n int) int {
	if n < lenEscape {
		return 0
	}
	return uvarintLen(uint64(n))
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// recordSize is the exact size of a record with the given parts.
func recordSize(keyLen int, enc Encoding, valLen int, expireSlot bool) int {
	n := headerSize + lenBytes(keyLen) + keyLen
	if expireSlot {
		n += expireSize
	}
	switch enc {
	case EncEmbstr:
		n += lenBytes(valLen) + valLen
	case EncRaw:
		n += rawSize
	case EncInt:
		n += intSize
	default: // a collection's root handle
		n += rawSize
	}
	return n
}

// withExpireSlot says whether a record of size n (without the slot) gets one: when asked for,
// or when its size class leaves room for it anyway.
func withExpireSlot(n int, want bool) bool {
	return want || alloc.UsableSize(n)-n >= expireSize
}

// Embeds is the one rule for embedding a string value in its record: only SET-family writes
// (and computed strings),
// and only when the whole record — with the expire slot if the key has an expire — fits in
// MaxEmbeddedRecord bytes. An 18-byte key with an 85-byte value embeds (111 bytes, the 112
// class) without an expire and with one (119 bytes, the 128 class).
func Embeds(keyLen, valLen int, withExpire bool, kind WriteKind) bool {
	return kind != WriteGrow && recordSize(keyLen, EncEmbstr, valLen, withExpire) <= MaxEmbeddedRecord
}

// record is a decoded view of a record's header: where its parts are.
type record struct {
	buf    []byte // the whole record
	typ    Type
	enc    Encoding
	flags  byte
	keyOff int
	keyLen int
	valOff int // start of the value part
	valLen int // embstr only
}

// open decodes the record h.
func open(a *alloc.Arena, h alloc.Handle) record {
	hdr := a.Bytes(h, headerSize)
	r := record{typ: Type(hdr[0] & 0xf), enc: Encoding(hdr[0] >> 4), flags: hdr[1]}
	off := headerSize
	if r.flags&flagExpireSlot != 0 {
		off += expireSize
	}
	if hdr[5] == lenEscape || hdr[6] == lenEscape {
		// A length of 255 or more: the record holds at least that many bytes beyond the
		// header, so reading the two uvarints cannot run past it.
		hdr = a.Bytes(h, off+2*binary.MaxVarintLen64)
	}
	r.keyLen = int(hdr[5])
	if r.keyLen == lenEscape {
		v, n := binary.Uvarint(hdr[off:])
		r.keyLen, off = int(v), off+n
	}
	if r.enc == EncEmbstr {
		r.valLen = int(hdr[6])
		if r.valLen == lenEscape {
			v, n := binary.Uvarint(hdr[off:])
			r.valLen, off = int(v), off+n
		}
	}
	r.keyOff = off
	r.valOff = off + r.keyLen
	size := r.valOff
	switch r.enc {
	case EncEmbstr:
		size += r.valLen
	case EncRaw:
		size += rawSize
	case EncInt:
		size += intSize
	default: // a collection's root handle
		size += rawSize
	}
	r.buf = a.Bytes(h, size)
	return r
}

// parts is what a new record is made of.
type parts struct {
	typ      Type
	enc      Encoding
	key      []byte
	val      []byte // embstr
	raw      alloc.Handle
	intVal   int64
	expire   int64 // with hasExpire
	hasExp   bool
	lru      uint32
	slotWant bool // reserve the expire slot even without an expire
}

// build allocates and writes a record.
func build(a *alloc.Arena, p parts) (alloc.Handle, error) {
	base := recordSize(len(p.key), p.enc, len(p.val), false)
	slot := withExpireSlot(base, p.hasExp || p.slotWant)
	size := recordSize(len(p.key), p.enc, len(p.val), slot)
	h := a.Alloc(size)
	if h == 0 {
		return 0, ErrOOM
	}
	b := a.Bytes(h, size)
	b[0] = byte(p.typ) | byte(p.enc)<<4
	b[1] = 0
	putLRU(b, p.lru)
	b[7] = 0
	off := headerSize
	if slot {
		b[1] |= flagExpireSlot
		binary.LittleEndian.PutUint64(b[off:], uint64(p.expire))
		if p.hasExp {
			b[1] |= flagExpireSet
		}
		off += expireSize
	}
	b[5] = byte(min(len(p.key), lenEscape))
	if len(p.key) >= lenEscape {
		off += binary.PutUvarint(b[off:], uint64(len(p.key)))
	}
	b[6] = 0
	if p.enc == EncEmbstr {
		b[6] = byte(min(len(p.val), lenEscape))
		if len(p.val) >= lenEscape {
			off += binary.PutUvarint(b[off:], uint64(len(p.val)))
		}
	}
	off += copy(b[off:], p.key)
	switch p.enc {
	case EncEmbstr:
		copy(b[off:], p.val)
	case EncRaw:
		binary.LittleEndian.PutUint32(b[off:], uint32(p.raw))
	case EncInt:
		binary.LittleEndian.PutUint64(b[off:], uint64(p.intVal))
	default: // a collection's root handle
		binary.LittleEndian.PutUint32(b[off:], uint32(p.raw))
	}
	return h, nil
}

func putLRU(b []byte, clock uint32) {
	b[2], b[3], b[4] = byte(clock), byte(clock>>8), byte(clock>>16)
}

// Size is the number of bytes the record itself takes in its arena (its size class), without a
// separate value.
func Size(a *alloc.Arena, h alloc.Handle) int { return alloc.UsableSize(len(open(a, h).buf)) }

// Free frees the record and its separate value, if any: a raw string's sds, or everything a
// collection holds (its type's CollectionOps.Free).
func Free(a *alloc.Arena, h alloc.Handle) {
	r := open(a, h)
	switch {
	case r.enc == EncRaw:
		r.rawString().Free(a)
	case r.enc.IsCollection():
		opsOf(r.typ).Free(a, r.enc, r.rootHandle())
	}
	a.Free(h, len(r.buf))
}

// FreeRecordOnly frees record h but not the collection it roots, which the caller has taken
// over (lazy freeing hands a big collection's root to a background step).
func FreeRecordOnly(a *alloc.Arena, h alloc.Handle) {
	r := open(a, h)
	if !r.enc.IsCollection() {
		panic("object: FreeRecordOnly of a string record")
	}
	a.Free(h, len(r.buf))
}

func (r record) rootHandle() alloc.Handle {
	return alloc.Handle(binary.LittleEndian.Uint32(r.buf[r.valOff:]))
}

func (r record) rawString() sds.String {
	return sds.FromHandle(alloc.Handle(binary.LittleEndian.Uint32(r.buf[r.valOff:])))
}

// Key returns a view of the record's key.
func Key(a *alloc.Arena, h alloc.Handle) []byte {
	r := open(a, h)
	return r.buf[r.keyOff : r.keyOff+r.keyLen]
}

// TypeOf returns the record's type.
func TypeOf(a *alloc.Arena, h alloc.Handle) Type { return Type(a.Bytes(h, 1)[0] & 0xf) }

// EncodingOf returns the record's value encoding.
func EncodingOf(a *alloc.Arena, h alloc.Handle) Encoding { return Encoding(a.Bytes(h, 1)[0] >> 4) }

// Name is the encoding's name as OBJECT ENCODING prints it.
func (e Encoding) Name() string {
	switch e {
	case EncEmbstr:
		return "embstr"
	case EncRaw:
		return "raw"
	case EncInt:
		return "int"
	case EncListpack:
		return "listpack"
	case EncIntset:
		return "intset"
	case EncHashtable:
		return "hashtable"
	case EncQuicklist:
		return "quicklist"
	case EncSkiplist:
		return "skiplist"
	}
	return "unknown"
}

// Name is the type's name as TYPE prints it.
func (t Type) Name() string {
	return [...]string{"string", "list", "set", "zset", "hash", "stream"}[t]
}

// LRU returns the record's 24-bit LRU/LFU clock.
func LRU(a *alloc.Arena, h alloc.Handle) uint32 {
	b := a.Bytes(h, headerSize)
	return uint32(b[2]) | uint32(b[3])<<8 | uint32(b[4])<<16
}

// SnapshotMark is the record's snapshot mark (package keyspace's, see keyspace/snapshot.go).
func SnapshotMark(a *alloc.Arena, h alloc.Handle) bool {
	return a.Bytes(h, 2)[1]&flagSnapshotMark != 0
}

// SetSnapshotMark sets the record's snapshot mark. A record rebuilt by a function that may move
// it starts with the mark clear: the keyspace sets it again when it stores the new handle.
func SetSnapshotMark(a *alloc.Arena, h alloc.Handle, mark bool) {
	b := a.Bytes(h, 2)
	if mark {
		b[1] |= flagSnapshotMark
	} else {
		b[1] &^= flagSnapshotMark
	}
}

// SetLRU stores the low 24 bits of clock as the record's LRU/LFU clock.
func SetLRU(a *alloc.Arena, h alloc.Handle, clock uint32) { putLRU(a.Bytes(h, headerSize), clock) }

// MemoryUsage is the real number of bytes the record and its value take (MEMORY USAGE).
func MemoryUsage(a *alloc.Arena, h alloc.Handle) int {
	r := open(a, h)
	n := alloc.UsableSize(len(r.buf))
	switch {
	case r.enc == EncRaw:
		n += r.rawString().AllocSize(a)
	case r.enc.IsCollection():
		n += opsOf(r.typ).AllocSize(a, r.enc, r.rootHandle())
	}
	return n
}
