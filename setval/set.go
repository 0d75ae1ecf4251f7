package setval

import (
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/intset"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// The record-level functions: each takes a set record (a record of object.TypeSet) of arena a,
// loads its encoding and root, and stores them back in place when a change moved them.

// load returns record rec's value.
func load(a *alloc.Arena, rec alloc.Handle) value {
	enc, root := object.Root(a, rec)
	return value{enc, root}
}

// store writes v to record rec when it differs from old (what load returned).
func store(a *alloc.Arena, rec alloc.Handle, old, v value) {
	if v != old {
		object.SetRoot(a, rec, v.enc, v.root)
	}
}

// New makes the record of key holding an empty set, in the encoding Redis's setTypeCreate
// picks for a first member first and sizeHint members to come (SADD's count): intset, listpack
// or hash table. The caller adds the members and inserts the record into the keyspace.
// expireMs is a unix time in ms, 0 for none.
func New(a *alloc.Arena, key, first []byte, sizeHint int, expireMs int64) (alloc.Handle, error) {
	return NewEncoded(a, key, createEncoding(first, sizeHint), expireMs)
}

// NewEncoded makes the record of key holding an empty set of encoding enc (the destinations
// of SINTERSTORE, SUNIONSTORE and SDIFFSTORE start as Redis starts them).
func NewEncoded(a *alloc.Arena, key []byte, enc object.Encoding, expireMs int64) (alloc.Handle, error) {
	v, err := newEmpty(a, enc)
	if err != nil {
		return 0, err
	}
	h, err := object.NewCollection(a, key, object.TypeSet, v.enc, v.root, expireMs)
	if err != nil {
		v.free(a)
		return 0, ErrOOM
	}
	return h, nil
}

// Add adds member to set record rec and reports whether it was new, converting the set as
// Redis 7.2 does (intset → listpack → hash table).
func Add(a *alloc.Arena, rec alloc.Handle, member []byte) (added bool, err error) {
	old := load(a, rec)
	v := old
	added, err = v.add(a, member)
	store(a, rec, old, v)
	return added, err
}

// AddInt is Add of an integer member, without formatting it for an intset.
func AddInt(a *alloc.Arena, rec alloc.Handle, member int64) (added bool, err error) {
	old := load(a, rec)
	v := old
	added, err = v.addInt(a, member)
	store(a, rec, old, v)
	return added, err
}

// MaybeConvert is setTypeMaybeConvert: before adding sizeHint members to an existing set, a
// listpack or an intset that this many members would take past its entries limit becomes a
// hash table at once (even if the members turn out to be there already).
func MaybeConvert(a *alloc.Arena, rec alloc.Handle, sizeHint int) error {
	old := load(a, rec)
	v := old
	var err error
	switch {
	case v.enc == object.EncListpack && int64(sizeHint) > maxListpackEntries.Load(),
		v.enc == object.EncIntset && int64(sizeHint) > maxIntsetEntries.Load():
		err = v.convert(a, object.EncHashtable)
	}
	store(a, rec, old, v)
	return err
}

// MaybeConvertToIntset is maybeConvertToIntset, for SINTERSTORE's result when every member is
// an integer: a listpack or a hash table within the intset limit becomes an intset.
// Every member must be an integer.
func MaybeConvertToIntset(a *alloc.Arena, rec alloc.Handle) error {
	old := load(a, rec)
	v := old
	if v.enc == object.EncIntset || int64(v.length(a)) > maxIntsetEntries.Load() {
		return nil
	}
	err := v.convert(a, object.EncIntset)
	store(a, rec, old, v)
	return err
}

// Remove removes member from set record rec and reports whether it was a member. The
// encoding stays; the caller deletes a key whose set is now empty.
func Remove(a *alloc.Arena, rec alloc.Handle, member []byte) (removed bool, err error) {
	old := load(a, rec)
	v := old
	removed, err = v.remove(a, member)
	store(a, rec, old, v)
	return removed, err
}

// Len is the number of members of set record rec.
func Len(a *alloc.Arena, rec alloc.Handle) int { return load(a, rec).length(a) }

// Encoding is set record rec's encoding.
func Encoding(a *alloc.Arena, rec alloc.Handle) object.Encoding {
	enc, _ := object.Root(a, rec)
	return enc
}

// IsMember reports whether member is in set record rec.
func IsMember(a *alloc.Arena, rec alloc.Handle, member []byte) bool {
	return load(a, rec).isMember(a, member)
}

// IsMemberInt is IsMember of an integer member, without formatting it for an intset.
func IsMemberInt(a *alloc.Arena, rec alloc.Handle, member int64) bool {
	return load(a, rec).isMemberInt(a, member)
}

// Each calls fn for every member of set record rec until fn returns false, an intset's
// integers formatted in decimal into scratch (nil is fine: 20 bytes are needed), in the
// encoding's order. The view is valid during the call only; fn must not change the set.
func Each(a *alloc.Arena, rec alloc.Handle, scratch []byte, fn func(member []byte) bool) {
	load(a, rec).each(a, func(s []byte, n int64, isInt bool) bool {
		if isInt {
			scratch = strconv.AppendInt(scratch[:0], n, 10)
			s = scratch
		}
		return fn(s)
	})
}

// EachRaw is Each without formatting: an integer member (of an intset, or an integer entry of a
// listpack) comes as n with isInt true, others as the view s. SINTER and SDIFF use it to test
// integers against intsets without going through text.
func EachRaw(a *alloc.Arena, rec alloc.Handle, fn func(s []byte, n int64, isInt bool) bool) {
	load(a, rec).each(a, fn)
}

// Blob returns the intset's or the listpack's bytes of set record rec (DUMP, RDB), nil for a
// hash table. The view is valid until the set changes.
func Blob(a *alloc.Arena, rec alloc.Handle) []byte {
	v := load(a, rec)
	switch v.enc {
	case object.EncIntset:
		return v.intsetBytes(a)
	case object.EncListpack:
		return v.lpBytes(a)
	}
	return nil
}

// NewFromBlob makes the record of key holding a copy of blob, an intset (enc EncIntset) or a
// listpack of members (EncListpack) the caller validated, not empty, converted to a hash table
// as Redis's RDB load does: an intset of more than set-max-intset-entries members, a listpack
// of more than set-max-listpack-entries.
func NewFromBlob(a *alloc.Arena, key []byte, enc object.Encoding, blob []byte, expireMs int64) (alloc.Handle, error) {
	var v value
	over := false
	switch enc {
	case object.EncIntset:
		s := intset.FromBytes(a, blob)
		if s.IsNil() {
			return 0, ErrOOM
		}
		v = value{enc, s.Handle()}
		over = int64(intset.Len(blob)) > maxIntsetEntries.Load()
	case object.EncListpack:
		l := listpack.FromBytes(a, blob)
		if l.IsNil() {
			return 0, ErrOOM
		}
		v = value{enc, l.Handle()}
		over = int64(listpack.Len(blob)) > maxListpackEntries.Load()
	default:
		panic("setval: NewFromBlob of encoding " + enc.Name())
	}
	if over {
		if err := v.convert(a, object.EncHashtable); err != nil {
			v.free(a)
			return 0, err
		}
	}
	h, err := object.NewCollection(a, key, object.TypeSet, v.enc, v.root, expireMs)
	if err != nil {
		v.free(a)
		return 0, ErrOOM
	}
	return h, nil
}
