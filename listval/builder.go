package listval

import (
	"errors"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/quicklist"
)

// ErrEmpty is Finish's error for a list that got no element (Redis's loader rejects the key
// as empty); everything built is freed.
var ErrEmpty = errors.New("listval: empty list")

// Builder makes a list record from a dump's parts, in order: a quicklist under the current
// fill, turned into a listpack list at Finish when it is one small packed node (rdb.c's
// loading, then listTypeTryConversion LIST_CONV_AUTO). A Builder is for one goroutine holding
// the arena; it lives on the Go heap only while the load runs.
type Builder struct {
	a        *alloc.Arena
	key      []byte
	expireMs int64
	q        quicklist.List
	err      error
}

// NewBuilder starts the list record of key, with expire expireMs (unix ms, 0 for none).
func NewBuilder(a *alloc.Arena, key []byte, expireMs int64) *Builder {
	b := &Builder{a: a, key: key, expireMs: expireMs}
	q, err := quicklist.New(a, curFill())
	if err != nil {
		b.err = object.ErrOOM
	}
	b.q = q
	return b
}

// Len is the number of elements appended so far.
func (b *Builder) Len() int {
	if b.q.Handle() == 0 {
		return 0
	}
	return b.q.Len(b.a)
}

// AppendListpack appends the entries of listpack lp (already validated by the caller) as one
// packed node, copied as it is whatever its size (quicklistAppendListpack); an empty listpack
// is skipped, as Redis does.
func (b *Builder) AppendListpack(lp []byte) error {
	if b.err != nil {
		return b.err
	}
	n := listpack.Len(lp)
	if n == 0 {
		return nil
	}
	l := listpack.FromBytes(b.a, lp)
	if l.IsNil() {
		b.err = object.ErrOOM
		return b.err
	}
	if err := b.q.AppendListpack(b.a, l, n); err != nil {
		l.Free(b.a)
		b.err = object.ErrOOM
	}
	return b.err
}

// AppendPlain appends elem as a plain node of its own (a dump's plain node).
func (b *Builder) AppendPlain(elem []byte) error {
	if b.err != nil {
		return b.err
	}
	if err := b.q.AppendPlain(b.a, elem); err != nil {
		b.err = object.ErrOOM
	}
	return b.err
}

// AppendElem appends elem at the tail as a push does (older dumps' linked lists and ziplists
// read element by element).
func (b *Builder) AppendElem(elem []byte) error {
	if b.err != nil {
		return b.err
	}
	if err := b.q.PushTail(b.a, elem); err != nil {
		b.err = object.ErrOOM
	}
	return b.err
}

// Finish makes the record (which the caller inserts): listpack-encoded when the list is one
// packed node within the whole node limits, else a quicklist. The Builder is then spent. A
// list without elements gives ErrEmpty; a failed append's or the record's object.ErrOOM is
// returned with everything freed.
func (b *Builder) Finish() (alloc.Handle, error) {
	if b.err == nil && b.q.Len(b.a) == 0 {
		b.err = ErrEmpty
	}
	if b.err != nil {
		err := b.err
		b.Abort()
		return 0, err
	}
	rec, err := object.NewCollection(b.a, b.key, object.TypeList, object.EncQuicklist, b.q.Handle(), b.expireMs)
	if err != nil {
		b.Abort()
		return 0, err
	}
	b.q = quicklist.List{}
	tryShrink(b.a, rec, false)
	checkList(b.a, rec)
	return rec, nil
}

// Abort frees what was built; the Builder is then spent.
func (b *Builder) Abort() {
	if b.q.Handle() != 0 {
		b.q.Free(b.a)
		b.q = quicklist.List{}
	}
	if b.err == nil {
		b.err = ErrEmpty
	}
}
