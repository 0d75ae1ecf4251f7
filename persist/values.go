package persist

import (
	"errors"
	"fmt"
	"io"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/setval"
)

// Hash and set records from RDB values (lists: lists.go), shared by Load and RESTORE: a blob (validated by package
// rdb) copied as it is, or a value stored as elements rebuilt one element at a time, converted
// by the limits as Redis's rdbLoadObject does (a type-4 hash within the listpack limits is a
// listpack again).

// ErrDuplicateElement is a field or member found twice in one value: the data is corrupt
// (Redis: "Duplicate hash fields detected", "Duplicate set members detected").
var ErrDuplicateElement = errors.New("duplicate hash fields, set members or sorted set members detected")

// maxSizeHint bounds the element count a table is pre-sized for: the count comes from the
// input before its elements, and a corrupt one must not allocate beyond what real data brings.
const maxSizeHint = 1 << 20

// NewBlobRecord makes the record of key holding blob, a listpack or intset of type typ
// (rdb.TypeHashListpack, TypeSetListpack, TypeSetIntset or TypeZSetListpack) that package rdb
// validated, with expire expireMs (unix ms, 0 for none).
func NewBlobRecord(a *alloc.Arena, key []byte, typ byte, blob []byte, expireMs int64) (alloc.Handle, error) {
	switch typ {
	case rdb.TypeHashListpack:
		return hashval.NewFromListpack(a, key, blob, expireMs)
	case rdb.TypeSetListpack:
		return setval.NewFromBlob(a, key, object.EncListpack, blob, expireMs)
	case rdb.TypeSetIntset:
		return setval.NewFromBlob(a, key, object.EncIntset, blob, expireMs)
	case rdb.TypeZSetListpack:
		return newZSetListpackRecord(a, key, blob, expireMs)
	}
	return 0, fmt.Errorf("persist: value type %d is not a blob", typ)
}

// Builder makes a hash or set record from its elements given one at a time (rdb.TypeHash,
// rdb.TypeSet). It lives on the caller's stack: the record is in the arena from the first
// element on, and nothing else is kept per element.
type Builder struct {
	a        *alloc.Arena
	key      []byte
	typ      byte
	n        uint64 // the count announced
	hint     int    // n, bounded
	expireMs int64
	h        alloc.Handle
}

// NewBuilder starts the value of key: typ rdb.TypeHash or rdb.TypeSet, n the pairs or members
// announced (a size hint), expireMs as NewBlobRecord's. key must stay valid until the first
// element is added.
func NewBuilder(a *alloc.Arena, key []byte, typ byte, n uint64, expireMs int64) Builder {
	return Builder{a: a, key: key, typ: typ, n: n, hint: int(min(n, maxSizeHint)), expireMs: expireMs}
}

// AddPair adds a field and its value to a hash; a field seen before is ErrDuplicateElement.
func (b *Builder) AddPair(field, value []byte) error {
	if b.h == 0 {
		h, err := hashval.New(b.a, b.key, b.expireMs)
		if err != nil {
			return err
		}
		b.h = h
		// More pairs than a listpack holds: a hash table from the start, pre-sized.
		if err := hashval.TryConversion(b.a, h, b.hint, 0, 0); err != nil {
			return err
		}
	}
	added, err := hashval.Set(b.a, b.h, field, value)
	if err == nil && !added {
		err = ErrDuplicateElement
	}
	return err
}

// AddMember adds a member to a set. As rdbLoadObject, a set announcing more members than
// set-max-intset-entries is a hash table from the start; else it starts as setTypeCreate picks
// for the first member and the count (an intset, or a listpack for a string within the
// listpack limits), and converts as members come. A member seen before is ErrDuplicateElement.
func (b *Builder) AddMember(m []byte) error {
	if b.h == 0 {
		var h alloc.Handle
		var err error
		if intsetMax, _, _ := setval.Limits(); b.n > uint64(max(intsetMax, 0)) {
			h, err = setval.NewEncoded(b.a, b.key, object.EncHashtable, b.expireMs)
		} else {
			h, err = setval.New(b.a, b.key, m, b.hint, b.expireMs)
		}
		if err != nil {
			return err
		}
		b.h = h
	}
	added, err := setval.Add(b.a, b.h, m)
	if err == nil && !added {
		err = ErrDuplicateElement
	}
	return err
}

// Finish returns the record built (0 if no element was added: an empty value, which the
// caller treats as corrupt or skips).
func (b *Builder) Finish() alloc.Handle {
	h := b.h
	b.h = 0
	return h
}

// Abort frees the record built so far, after an error.
func (b *Builder) Abort() {
	if b.h != 0 {
		object.Free(b.a, b.h)
		b.h = 0
	}
}

// appendValue appends record h's value (a hash, a set, a list or a sorted set) as RDB: a
// listpack or intset blob as it is, a hash table as its elements, a list as its nodes
// (lists.go), a skiplist as its pairs (zsets.go).
func appendValue(dst []byte, a *alloc.Arena, h alloc.Handle, ent rdb.Entry, compress bool) []byte {
	var scratch [24]byte
	switch object.TypeOf(a, h) {
	case object.TypeHash:
		if blob := hashval.ListpackBlob(a, h); blob != nil {
			return rdb.AppendBlob(dst, ent, rdb.TypeHashListpack, blob, compress)
		}
		dst = rdb.AppendCollection(dst, ent, rdb.TypeHash, uint64(hashval.Len(a, h)), compress)
		hashval.Each(a, h, scratch[:0], func(f, v []byte) bool {
			dst = rdb.AppendElement(rdb.AppendElement(dst, f, compress), v, compress)
			return true
		})
		return dst
	case object.TypeSet:
		if blob := setval.Blob(a, h); blob != nil {
			typ := byte(rdb.TypeSetListpack)
			if setval.Encoding(a, h) == object.EncIntset {
				typ = rdb.TypeSetIntset
			}
			return rdb.AppendBlob(dst, ent, typ, blob, compress)
		}
		dst = rdb.AppendCollection(dst, ent, rdb.TypeSet, uint64(setval.Len(a, h)), compress)
		setval.Each(a, h, scratch[:0], func(m []byte) bool {
			dst = rdb.AppendElement(dst, m, compress)
			return true
		})
		return dst
	case object.TypeList:
		return appendListNodes(rdb.AppendListHead(dst, ent, uint64(listNodes(a, h)), compress), a, h, compress)
	case object.TypeZSet:
		return appendZSet(dst, a, h, ent, compress)
	}
	panic(fmt.Sprintf("persist: no RDB form for value type %d", object.TypeOf(a, h)))
}

// NewRecord makes the record of key from a hash, set, list or sorted set value that d read (RESTORE: ent
// as rdb.OpenDump returned it): the blob copied, or the elements (a list's nodes) read from d
// one at a time. Bad data (an element that does not read, a duplicate, a list without
// elements) is rdb.ErrDumpData, a full arena object.ErrOOM; either way nothing is left
// allocated.
func NewRecord(a *alloc.Arena, key []byte, d *rdb.Decoder, ent rdb.Entry, expireMs int64) (alloc.Handle, error) {
	if ent.Type == rdb.TypeListQuicklist2 || ent.Type == rdb.TypeList {
		return newListRecord(a, key, d, ent, expireMs)
	}
	if ent.Type == rdb.TypeZSet2 {
		return newZSetRecord(a, key, d, ent, expireMs)
	}
	if ent.Type != rdb.TypeHash && ent.Type != rdb.TypeSet {
		h, err := NewBlobRecord(a, key, ent.Type, ent.Value, expireMs)
		return h, oomErr(err)
	}
	b := NewBuilder(a, key, ent.Type, ent.Len, expireMs)
	for {
		var err error
		if ent.Type == rdb.TypeHash {
			var f, v []byte
			if f, v, err = d.NextPair(); err == nil {
				err = b.AddPair(f, v)
			}
		} else {
			var m []byte
			if m, err = d.NextMember(); err == nil {
				err = b.AddMember(m)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Abort()
			if err = oomErr(err); err != object.ErrOOM {
				err = rdb.ErrDumpData
			}
			return 0, err
		}
	}
	if h := b.Finish(); h != 0 {
		return h, nil
	}
	return 0, rdb.ErrDumpData
}

// oomErr makes the type packages' out-of-memory errors object.ErrOOM.
func oomErr(err error) error {
	if errors.Is(err, setval.ErrOOM) || errors.Is(err, listpack.ErrNoMemory) {
		return object.ErrOOM
	}
	return err
}

// EncodeDump returns the DUMP payload of hash, set, list or sorted-set record h.
func EncodeDump(a *alloc.Arena, h alloc.Handle) []byte {
	var scratch [24]byte
	switch object.TypeOf(a, h) {
	case object.TypeHash:
		if blob := hashval.ListpackBlob(a, h); blob != nil {
			return rdb.EncodeDumpBlob(rdb.TypeHashListpack, blob)
		}
		b := rdb.AppendDumpHead(nil, rdb.TypeHash, uint64(hashval.Len(a, h)))
		hashval.Each(a, h, scratch[:0], func(f, v []byte) bool {
			b = rdb.AppendElement(rdb.AppendElement(b, f, true), v, true)
			return true
		})
		return rdb.FinishDump(b)
	case object.TypeSet:
		if blob := setval.Blob(a, h); blob != nil {
			typ := byte(rdb.TypeSetListpack)
			if setval.Encoding(a, h) == object.EncIntset {
				typ = rdb.TypeSetIntset
			}
			return rdb.EncodeDumpBlob(typ, blob)
		}
		b := rdb.AppendDumpHead(nil, rdb.TypeSet, uint64(setval.Len(a, h)))
		setval.Each(a, h, scratch[:0], func(m []byte) bool {
			b = rdb.AppendElement(b, m, true)
			return true
		})
		return rdb.FinishDump(b)
	case object.TypeList:
		b := rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, uint64(listNodes(a, h)))
		return rdb.FinishDump(appendListNodes(b, a, h, true))
	case object.TypeZSet:
		return encodeZSetDump(a, h)
	}
	panic(fmt.Sprintf("persist: no DUMP form for value type %d", object.TypeOf(a, h)))
}
