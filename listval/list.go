package listval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/quicklist"
)

// New makes the record of key holding an empty list, listpack-encoded, with expire expireMs
// (unix ms, 0 for none). The caller inserts it into the keyspace (and removes it if it stays
// empty). Without memory it returns object.ErrOOM.
func New(a *alloc.Arena, key []byte, expireMs int64) (alloc.Handle, error) {
	lp := listpack.New(a)
	if lp.IsNil() {
		return 0, object.ErrOOM
	}
	rec, err := object.NewCollection(a, key, object.TypeList, object.EncListpack, lp.Handle(), expireMs)
	if err != nil {
		lp.Free(a)
		return 0, err
	}
	return rec, nil
}

// Len is the number of elements of list record rec.
func Len(a *alloc.Arena, rec alloc.Handle) int {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		return listpack.Len(listpack.FromHandle(root).Bytes(a))
	}
	return quicklist.FromHandle(root).Len(a)
}

// Encoding is list record rec's encoding (object.EncListpack or object.EncQuicklist).
func Encoding(a *alloc.Arena, rec alloc.Handle) object.Encoding {
	enc, _ := object.Root(a, rec)
	return enc
}

// TryConversionAppend is listTypeTryConversionAppend, run before a write adds n elements whose
// lengths sum to bytes (all the elements of one command at once): a listpack that would then
// exceed the node limits becomes a quicklist (its one node the listpack as it is). A quicklist
// is left alone. Without memory it returns object.ErrOOM with the list unchanged.
func TryConversionAppend(a *alloc.Arena, rec alloc.Handle, n, bytes int) error {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		return nil
	}
	l := listpack.FromHandle(root)
	lp := l.Bytes(a)
	if !exceedsListpack(len(lp)+bytes, listpack.Len(lp)+n) {
		return nil
	}
	q, err := quicklist.New(a, curFill())
	if err != nil {
		return object.ErrOOM
	}
	if c := listpack.Len(lp); c > 0 {
		if err := q.AppendListpack(a, l, c); err != nil {
			q.Free(a)
			return object.ErrOOM
		}
	} else {
		l.Free(a)
	}
	object.SetRoot(a, rec, object.EncQuicklist, q.Handle())
	checkList(a, rec)
	return nil
}

// tryShrink is listTypeTryConversion: a quicklist of one packed node within the limits (half
// of them when shrinking) becomes that node's listpack. A listpack is left alone.
func tryShrink(a *alloc.Arena, rec alloc.Handle, shrinking bool) {
	enc, root := object.Root(a, rec)
	if enc != object.EncQuicklist {
		return
	}
	q := quicklist.FromHandle(root)
	l, ok := q.Single(a)
	if !ok {
		return
	}
	lp := l.Bytes(a)
	if !withinShrink(len(lp), q.Len(a), shrinking) {
		return
	}
	l = q.TakeSingle(a)
	object.SetRoot(a, rec, object.EncListpack, l.Handle())
}

// afterRemove runs the shrinking conversion after elements were removed, unless the list is
// empty (the caller deletes the key).
func afterRemove(a *alloc.Arena, rec alloc.Handle) {
	if Len(a, rec) > 0 {
		tryShrink(a, rec, true)
	}
	checkList(a, rec)
}

// PushHead adds elem at the head of list record rec, converting first as
// TryConversionAppend does for one element.
func PushHead(a *alloc.Arena, rec alloc.Handle, elem []byte) error {
	if err := TryConversionAppend(a, rec, 1, len(elem)); err != nil {
		return err
	}
	return Push(a, rec, elem, false)
}

// PushTail adds elem at the tail of list record rec, converting first as PushHead does.
func PushTail(a *alloc.Arena, rec alloc.Handle, elem []byte) error {
	if err := TryConversionAppend(a, rec, 1, len(elem)); err != nil {
		return err
	}
	return Push(a, rec, elem, true)
}

// Push adds elem at the head (or the tail) of list record rec with no conversion check: for a
// command that ran TryConversionAppend over all its elements first (listTypePush).
func Push(a *alloc.Arena, rec alloc.Handle, elem []byte, tail bool) error {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		l := listpack.FromHandle(root)
		var nl listpack.Listpack
		var err error
		if tail {
			nl, err = l.Append(a, elem)
		} else {
			nl, err = l.Prepend(a, elem)
		}
		if err != nil {
			return object.ErrOOM
		}
		setListpackRoot(a, rec, root, nl)
		checkList(a, rec)
		return nil
	}
	q := quicklist.FromHandle(root)
	var err error
	if tail {
		err = q.PushTail(a, elem)
	} else {
		err = q.PushHead(a, elem)
	}
	if err != nil {
		return object.ErrOOM
	}
	checkList(a, rec)
	return nil
}

// setListpackRoot stores listpack l in record rec when a write moved it from old.
func setListpackRoot(a *alloc.Arena, rec, old alloc.Handle, l listpack.Listpack) {
	if l.Handle() != old {
		object.SetRoot(a, rec, object.EncListpack, l.Handle())
	}
}

// PushAll is a whole LPUSH or RPUSH: the conversion checked once for the n elements that
// elem(0) … elem(n-1) return (their lengths summing to bytes), then each pushed at the head (or
// the tail) in order. It decodes the record once — a push is a handful of nanoseconds, and each
// decode of the record counts — and returns the list's length after the pushes and how many were
// pushed (fewer than n only on error: object.ErrOOM).
func PushAll(a *alloc.Arena, rec alloc.Handle, n, bytes int, elem func(i int) []byte, tail bool) (length, pushed int, err error) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		if exceedsListpack(len(lp)+bytes, listpack.Len(lp)+n) {
			if err := TryConversionAppend(a, rec, n, bytes); err != nil {
				return Len(a, rec), 0, err
			}
			enc, root = object.Root(a, rec)
		}
	}
	if enc == object.EncListpack {
		l := listpack.FromHandle(root)
		for ; pushed < n; pushed++ {
			var nl listpack.Listpack
			if tail {
				nl, err = l.Append(a, elem(pushed))
			} else {
				nl, err = l.Prepend(a, elem(pushed))
			}
			if err != nil {
				err = object.ErrOOM
				break
			}
			l = nl
		}
		setListpackRoot(a, rec, root, l)
		checkList(a, rec)
		return listpack.Len(l.Bytes(a)), pushed, err
	}
	q := quicklist.FromHandle(root) // a quicklist's root never moves
	for ; pushed < n; pushed++ {
		if tail {
			err = q.PushTail(a, elem(pushed))
		} else {
			err = q.PushHead(a, elem(pushed))
		}
		if err != nil {
			err = object.ErrOOM
			break
		}
	}
	checkList(a, rec)
	return q.Len(a), pushed, err
}
