package object

import (
	"encoding/binary"

	"github.com/kvserver/kvserver/alloc"
)

// Collection encodings (OBJECT ENCODING). Encoding numbers are shared by all types, so that a
// record's encoding alone says whether its value part is a root handle (IsCollection).
const (
	EncListpack  Encoding = iota + 3 // small hash, set, list, sorted set: one listpack
	EncIntset                        // small set of integers: one intset
	EncHashtable                     // big hash or set: an arena-rooted htable
	EncQuicklist                     // big list (reserved)
	EncSkiplist                      // big sorted set (reserved: its index keeps Redis's name)
)

// IsCollection reports whether records of encoding e hold a collection's root handle.
func (e Encoding) IsCollection() bool { return e >= EncListpack }

// CollectionOps is what package object needs from a collection type's package (hashval,
// setval…) to free, measure and copy a value it knows only by encoding and root handle. Each
// type package registers its own (RegisterCollection): types sit above object, which knows
// none of them (DESIGN §1's arrows point down).
type CollectionOps struct {
	// Free frees everything the value rooted at root holds.
	Free func(a *alloc.Arena, enc Encoding, root alloc.Handle)
	// AllocSize is what the value's allocations are charged (MEMORY USAGE), without the record.
	AllocSize func(a *alloc.Arena, enc Encoding, root alloc.Handle) int
	// Copy makes a deep copy of the value in dst (COPY, RENAME and MOVE across shards) and
	// returns the copy's root, with the same encoding. On error nothing is left in dst.
	Copy func(src *alloc.Arena, enc Encoding, root alloc.Handle, dst *alloc.Arena) (alloc.Handle, error)
	// FreeEffort and FreeStep, when set, let the keyspace free a big value a bounded amount at
	// a time (lazy freeing) without knowing its type: FreeEffort is Redis's
	// lazyfreeGetFreeEffort for the value, and FreeStep frees about budget of its elements and
	// reports when nothing is left (after which only FreeStep may touch the value).
	FreeEffort func(a *alloc.Arena, enc Encoding, root alloc.Handle) int64
	FreeStep   func(a *alloc.Arena, enc Encoding, root alloc.Handle, budget int) (done bool)
}

// SteppedFree returns the FreeEffort and FreeStep of type t, nil when the type frees its values
// only at once (or through the keyspace's own table walk).
func SteppedFree(t Type) (effort func(*alloc.Arena, Encoding, alloc.Handle) int64, step func(*alloc.Arena, Encoding, alloc.Handle, int) bool) {
	if int(t) >= len(collections) || collections[t] == nil {
		return nil, nil
	}
	return collections[t].FreeEffort, collections[t].FreeStep
}

// collections[t] is type t's registered operations, nil for strings and unregistered types.
var collections [TypeStream + 1]*CollectionOps

// RegisterCollection installs the operations of collection type t. A type package calls it
// from its init, before any record of the type can exist.
func RegisterCollection(t Type, ops *CollectionOps) { collections[t] = ops }

func opsOf(t Type) *CollectionOps {
	ops := collections[t]
	if ops == nil {
		panic("object: no operations registered for type " + t.Name())
	}
	return ops
}

// NewCollection makes the record of key holding a collection of type t, encoded as enc and
// rooted at root (which the record takes over; on error it still belongs to the caller).
// expireMs is a unix time in ms, 0 for none.
func NewCollection(a *alloc.Arena, key []byte, t Type, enc Encoding, root alloc.Handle, expireMs int64) (alloc.Handle, error) {
	if !enc.IsCollection() || t == TypeString {
		panic("object: NewCollection of a string encoding")
	}
	return build(a, parts{typ: t, enc: enc, key: key, raw: root, expire: expireMs, hasExp: expireMs != 0})
}

// Root returns collection record h's encoding and root handle.
func Root(a *alloc.Arena, h alloc.Handle) (Encoding, alloc.Handle) {
	r := open(a, h)
	return r.enc, r.rootHandle()
}

// SetRoot stores a changed collection's encoding and root in record h, in place: a collection's
// record never moves when its value changes, so the keyspace's table needs no update.
func SetRoot(a *alloc.Arena, h alloc.Handle, enc Encoding, root alloc.Handle) {
	r := open(a, h)
	if !enc.IsCollection() || !r.enc.IsCollection() {
		panic("object: SetRoot on a string record")
	}
	r.buf[0] = byte(r.typ) | byte(enc)<<4
	binary.LittleEndian.PutUint32(r.buf[r.valOff:], uint32(root))
}

// CopyCollection makes a new record of key in dst holding a deep copy of collection record h
// of src, with expire expireMs (0 for none).
func CopyCollection(src *alloc.Arena, h alloc.Handle, dst *alloc.Arena, key []byte, expireMs int64) (alloc.Handle, error) {
	t := TypeOf(src, h)
	enc, root := Root(src, h)
	ops := opsOf(t)
	nroot, err := ops.Copy(src, enc, root, dst)
	if err != nil {
		return 0, err
	}
	nh, err := NewCollection(dst, key, t, enc, nroot, expireMs)
	if err != nil {
		ops.Free(dst, enc, nroot)
		return 0, err
	}
	return nh, nil
}
