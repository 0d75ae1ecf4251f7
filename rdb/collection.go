package rdb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/kvserver/kvserver/intset"
	"github.com/kvserver/kvserver/listpack"
)

// Hashes, sets, lists and sorted sets: reading a value by its type (lists: list.go, sorted sets: zset.go). Blobs (listpack, intset) are read whole and
// validated — deep, as Redis's sanitize-dump-payload yes does, since a corrupt blob would
// otherwise be read out of bounds later. Values stored as elements are streamed: Next returns
// the head (Entry.Len) and NextPair or NextMember read one element at a time into reused
// buffers, so that a hash of a million fields never becomes a million Go values.

// errEmptyKey is readValue's report of an empty collection: Redis's loader skips such a key
// (its RDB_LOAD_ERR_EMPTY_KEY), RESTORE refuses it.
var errEmptyKey = errors.New("rdb: empty collection")

// elemState is the part of the last entry not read yet.
type elemState struct {
	typ  byte   // TypeHash, TypeSet, TypeList, TypeZSet2, or TypeListQuicklist2 (nodes); 0 when nothing is left
	left uint64 // pairs of a hash, members of a set or sorted set, elements or nodes of a list
	src  byte   // the type read as: a list's nodes (TypeListQuicklist2 or TypeListQuicklist), a sorted set's pairs (TypeZSet2 or TypeZSet)
	node []byte // a type-10 list's ziplist, read and converted to a listpack: its elements
	at   int    // the offset of node's next entry
	zm   []byte // a zipmap hash read from memory rather than the stream
	zmAt int    // the offset of its next pair
}

// readValue reads the value of type t after the key into ent.
func (d *Decoder) readValue(t byte, ent *Entry) error {
	ent.Type = t
	switch t {
	case TypeList, TypeListZiplist, TypeListQuicklist, TypeListQuicklist2:
		return d.readListValue(t, ent)
	case TypeZSet, TypeZSet2, TypeZSetZiplist, TypeZSetListpack:
		return d.readZSetValue(t, ent)
	case TypeString:
		v, err := d.readString(slotValue)
		ent.Value = v
		return err
	case TypeHash, TypeSet:
		n, err := d.readPlainLen()
		if err != nil {
			return err
		}
		if n == 0 {
			return errEmptyKey
		}
		ent.Len = n
		d.elems = elemState{typ: t, left: n}
		return nil
	}
	blob, err := d.readString(slotValue)
	if err != nil {
		return err
	}
	switch t {
	case TypeHashListpack, TypeSetListpack:
		if validateDups(blob, t == TypeHashListpack) != nil {
			return fmt.Errorf("%w: %s listpack integrity check failed", ErrCorrupt, typeName(t))
		}
		n := uint64(listpack.Len(blob))
		if t == TypeHashListpack {
			n /= 2
		}
		if n == 0 {
			return errEmptyKey
		}
		ent.Value, ent.Len = blob, n
	case TypeSetIntset:
		if intset.Validate(blob, true) != nil {
			return fmt.Errorf("%w: intset integrity check failed", ErrCorrupt)
		}
		ent.Value, ent.Len = blob, uint64(intset.Len(blob))
	case TypeHashZiplist:
		var dst []byte
		if d.reuse(slotConv) {
			dst = d.bufs[slotConv]
		}
		lp, n, err := ziplistPairsToListpack(blob, dst)
		if err != nil {
			return err
		}
		if d.reuse(slotConv) {
			d.bufs[slotConv] = lp
		}
		if n == 0 {
			return errEmptyKey
		}
		ent.Type, ent.Value, ent.Len = TypeHashListpack, lp, uint64(n)
	case TypeHashZipmap:
		n, err := validateZipmap(blob)
		if err != nil {
			return err
		}
		if n == 0 {
			return errEmptyKey
		}
		// The blob stays in its buffer (slotValue) until the next entry: NextPair reads it.
		ent.Type, ent.Len = TypeHash, uint64(n)
		d.elems = elemState{typ: TypeHash, left: uint64(n), zm: blob, zmAt: zipmapFirst}
	}
	return nil
}

// typeName names a value type in errors.
func typeName(t byte) string {
	switch t {
	case TypeHash, TypeHashListpack, TypeHashZiplist, TypeHashZipmap:
		return "hash"
	case TypeSet, TypeSetIntset, TypeSetListpack:
		return "set"
	case TypeList, TypeListZiplist, TypeListQuicklist, TypeListQuicklist2:
		return "list"
	case TypeZSet, TypeZSet2, TypeZSetZiplist, TypeZSetListpack:
		return "zset"
	}
	return "string"
}

// NextPair returns the next field and value of the hash Next returned last (Type TypeHash),
// or io.EOF once all Entry.Len pairs are read. With ReuseBuffers, both are valid until the
// next call; else they are new slices.
func (d *Decoder) NextPair() (field, value []byte, err error) {
	if d.err != nil {
		return nil, nil, d.err
	}
	e := &d.elems
	if e.typ != TypeHash || e.left == 0 {
		return nil, nil, io.EOF
	}
	if e.zm != nil {
		field, value, e.zmAt = zipmapPair(e.zm, e.zmAt)
	} else {
		field, err = d.readString(slotElem)
		if err == nil {
			value, err = d.readString(slotElem2)
		}
		if err != nil {
			return nil, nil, d.elemErr(err)
		}
	}
	if e.left--; e.left == 0 {
		*e = elemState{}
	}
	return field, value, nil
}

// NextMember returns the next member of the set Next returned last (Type TypeSet), or io.EOF
// once all Entry.Len members are read. With ReuseBuffers it is valid until the next call.
func (d *Decoder) NextMember() ([]byte, error) { return d.nextSingle(TypeSet) }

// nextSingle reads the next element of a value of type typ stored as single elements (a set's
// members, a type-1 list's elements).
func (d *Decoder) nextSingle(typ byte) ([]byte, error) {
	if d.err != nil {
		return nil, d.err
	}
	e := &d.elems
	if e.typ != typ || e.left == 0 {
		return nil, io.EOF
	}
	var m []byte
	if e.node != nil {
		var v int64
		var isInt bool
		m, v, isInt = listpack.Get(e.node, e.at)
		if isInt {
			m = d.keepInt(slotElem, strconv.AppendInt(d.intBuf(slotElem), v, 10))
		}
		e.at = listpack.Next(e.node, e.at)
	} else {
		var err error
		if m, err = d.readString(slotElem); err != nil {
			return nil, d.elemErr(err)
		}
	}
	if e.left--; e.left == 0 {
		*e = elemState{}
	}
	return m, nil
}

// elemErr makes an element's read error final (ErrDumpData for a DUMP payload).
func (d *Decoder) elemErr(err error) error {
	if d.dump {
		err = ErrDumpData
	}
	d.err = err
	return err
}

// drain skips the elements of the last entry that its reader left, into reused buffers.
func (d *Decoder) drain() error {
	e := &d.elems
	if e.zm != nil || e.node != nil {
		*e = elemState{}
	}
	if e.left == 0 {
		return nil
	}
	d.skipping = true
	defer func() { d.skipping = false }()
	if e.typ == TypeListQuicklist2 {
		for ; e.left > 0; e.left-- {
			if _, _, err := d.readNode(e.src); err != nil {
				return err
			}
		}
		*e = elemState{}
		return nil
	}
	if e.typ == TypeZSet2 {
		for ; e.left > 0; e.left-- {
			if _, _, err := d.readZSetPair(e.src); err != nil {
				return err
			}
		}
		*e = elemState{}
		return nil
	}
	per := 1
	if e.typ == TypeHash {
		per = 2
	}
	for ; e.left > 0; e.left-- {
		for range per {
			if _, err := d.readString(slotElem); err != nil {
				return err
			}
		}
	}
	*e = elemState{}
	return nil
}

// smallDupCheck is the most fields (or members) whose duplicates validateDups looks for by
// comparing each with those before it: up to there that is cheaper than ValidateDups's Go map
// (a map and a string per element, for every small hash of a file).
const smallDupCheck = 32

// validateDups is listpack.ValidateDups (deep validation, an even count for pairs, no field or
// member twice), without a map for a small listpack.
func validateDups(lp []byte, pairs bool) error {
	if err := listpack.Validate(lp, true, nil); err != nil {
		return err
	}
	n := listpack.Len(lp)
	if pairs {
		if n%2 != 0 {
			return listpack.ErrCorrupt
		}
		n /= 2
	}
	if n > smallDupCheck {
		return listpack.ValidateDups(lp, pairs)
	}
	// Each field against those before it, as views and integers on the stack: equal when
	// both are integers of one value or strings of the same bytes, or (only in a listpack
	// not written by Redis) a string that is an integer's canonical decimal form.
	type elem struct {
		s     []byte
		v     int64
		isInt bool
	}
	var elems [smallDupCheck]elem
	k := 0
	for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
		e := &elems[k]
		e.s, e.v, e.isInt = listpack.Get(lp, p)
		for j := range k {
			o := &elems[j]
			switch {
			case e.isInt && o.isInt:
				if e.v == o.v {
					return listpack.ErrCorrupt
				}
			case !e.isInt && !o.isInt:
				if bytes.Equal(e.s, o.s) {
					return listpack.ErrCorrupt
				}
			default:
				str, n := e.s, o.v
				if e.isInt {
					str, n = o.s, e.v
				}
				if v, ok := listpack.StringToInt64(str); ok && v == n {
					return listpack.ErrCorrupt
				}
			}
		}
		k++
		if pairs {
			p = listpack.Next(lp, p)
		}
	}
	return nil
}
