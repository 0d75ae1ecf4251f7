package listval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/quicklist"
)

// Pop removes up to n elements from the head (or the tail) of list record rec and returns how
// many it removed, first calling fn with each in the order they come off (the views are valid
// during the call; copy to keep). A list left with elements gets the shrinking conversion; an
// emptied one stays an empty record for the caller to delete. Without memory it returns
// object.ErrOOM, the list then unchanged (fn was called all the same).
func Pop(a *alloc.Arena, rec alloc.Handle, tail bool, n int, scratch []byte, fn func(elem []byte)) (int, error) {
	return pop(a, rec, tail, n, scratch, fn, true)
}

// PopKeep is Pop without the shrinking conversion: LMOVE pops, pushes (perhaps onto the same
// list) and only then converts the source (Shrink), as lmoveGenericCommand does.
func PopKeep(a *alloc.Arena, rec alloc.Handle, tail bool, n int, scratch []byte, fn func(elem []byte)) (int, error) {
	return pop(a, rec, tail, n, scratch, fn, false)
}

// Shrink is the shrinking conversion (listTypeTryConversion LIST_CONV_SHRINKING) of list
// record rec, when it has elements.
func Shrink(a *alloc.Arena, rec alloc.Handle) { afterRemove(a, rec) }

func pop(a *alloc.Arena, rec alloc.Handle, tail bool, n int, scratch []byte, fn func(elem []byte), shrink bool) (int, error) {
	if n == 1 {
		if enc, root := object.Root(a, rec); enc == object.EncListpack {
			return popOneListpack(a, rec, root, tail, scratch, fn)
		} else {
			return popOneQuicklist(a, rec, root, tail, scratch, fn, shrink)
		}
	}
	length := Len(a, rec)
	n = min(n, length)
	if n <= 0 {
		return 0, nil
	}
	start := 0
	if tail {
		start = length - 1
	}
	Range(a, rec, start, n, tail, scratch, func(elem []byte) bool {
		fn(elem)
		return true
	})
	from := 0
	if tail {
		from = -n
	}
	if err := deleteRange(a, rec, from, n); err != nil {
		return 0, err
	}
	if shrink {
		afterRemove(a, rec)
	} else {
		checkList(a, rec)
	}
	return n, nil
}

// popOneListpack is pop of one element from the listpack root of record rec (LPOP's and
// RPOP's usual case): one seek, one delete, and no conversion to try.
func popOneListpack(a *alloc.Arena, rec, root alloc.Handle, tail bool, scratch []byte, fn func(elem []byte)) (int, error) {
	l := listpack.FromHandle(root)
	lp := l.Bytes(a)
	p := listpack.First(lp)
	if tail {
		p = listpack.Last(lp)
	}
	if p < 0 {
		return 0, nil
	}
	if cap(scratch) < maxIntLen {
		scratch = make([]byte, 0, maxIntLen)
	}
	s, v, isInt := listpack.Get(lp, p)
	fn(elemString(s, v, isInt, scratch))
	nl, _, err := l.DeleteEntries(a, p, 1)
	if err != nil {
		return 0, object.ErrOOM
	}
	setListpackRoot(a, rec, root, nl)
	checkList(a, rec)
	return 1, nil
}

// popOneQuicklist is pop of one element from the quicklist root of record rec.
func popOneQuicklist(a *alloc.Arena, rec, root alloc.Handle, tail bool, scratch []byte, fn func(elem []byte), shrink bool) (int, error) {
	q := quicklist.FromHandle(root)
	i := 0
	if tail {
		i = -1
	}
	s, v, isInt, ok := q.Index(a, i)
	if !ok {
		return 0, nil
	}
	if cap(scratch) < maxIntLen {
		scratch = make([]byte, 0, maxIntLen)
	}
	fn(elemString(s, v, isInt, scratch))
	if err := q.DeleteRangeNoMerge(a, i, 1); err != nil {
		return 0, object.ErrOOM
	}
	if shrink && q.Len(a) > 0 && q.Nodes(a) == 1 {
		tryShrink(a, rec, true)
	}
	checkList(a, rec)
	return 1, nil
}

// deleteRange removes n elements from index from (negative counts from the tail).
func deleteRange(a *alloc.Arena, rec alloc.Handle, from, n int) error {
	if n <= 0 {
		return nil
	}
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		l := listpack.FromHandle(root)
		nl, err := l.DeleteRange(a, from, n)
		if err != nil {
			return object.ErrOOM
		}
		setListpackRoot(a, rec, root, nl)
		return nil
	}
	if err := quicklist.FromHandle(root).DeleteRangeNoMerge(a, from, n); err != nil {
		return object.ErrOOM
	}
	return nil
}

// Set replaces element i of list record rec (negative counts from the tail) with elem — LSET:
// the growing conversion is tried first (even when i turns out out of range, as Redis does),
// the shrinking one after a replacement. ok is false when i is out of range.
func Set(a *alloc.Arena, rec alloc.Handle, i int, elem []byte) (ok bool, err error) {
	if err := TryConversionAppend(a, rec, 1, len(elem)); err != nil {
		return false, err
	}
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		l := listpack.FromHandle(root)
		p := listpack.Seek(l.Bytes(a), i)
		if p < 0 {
			return false, nil
		}
		nl, _, err := l.Replace(a, p, elem)
		if err != nil {
			return true, object.ErrOOM
		}
		setListpackRoot(a, rec, root, nl)
	} else {
		ok, err := quicklist.FromHandle(root).Replace(a, i, elem)
		if !ok {
			return false, nil
		}
		if err != nil {
			return true, object.ErrOOM
		}
	}
	tryShrink(a, rec, true)
	checkList(a, rec)
	return true, nil
}

// InsertPivot puts elem before (or after) the first element equal to pivot in list record rec
// — LINSERT: the growing conversion is tried first, whether or not pivot is found (as Redis
// does). found is false when no element equals pivot.
func InsertPivot(a *alloc.Arena, rec alloc.Handle, pivot, elem []byte, after bool) (found bool, err error) {
	if err := TryConversionAppend(a, rec, 1, len(elem)); err != nil {
		return false, err
	}
	enc, root := object.Root(a, rec)
	if enc == object.EncQuicklist {
		found, err = quicklist.FromHandle(root).InsertPivot(a, pivot, elem, after)
		if err != nil {
			err = object.ErrOOM
		}
		checkList(a, rec)
		return found, err
	}
	l := listpack.FromHandle(root)
	lp := l.Bytes(a)
	p := listpack.First(lp)
	for p >= 0 && !listpack.Equal(lp, p, pivot) {
		p = listpack.Next(lp, p)
	}
	if p < 0 {
		return false, nil
	}
	where := listpack.Before
	if after {
		where = listpack.After
	}
	nl, _, err := l.Insert(a, p, where, elem)
	if err != nil {
		return true, object.ErrOOM
	}
	setListpackRoot(a, rec, root, nl)
	checkList(a, rec)
	return true, nil
}

// Remove removes elements equal to elem from list record rec — LREM's count: count > 0 the
// first count from the head, count < 0 the first -count from the tail, 0 all of them. It
// returns how many it removed; a list left with elements gets the shrinking conversion.
// Without memory it returns object.ErrOOM with the removals done so far.
func Remove(a *alloc.Arena, rec alloc.Handle, count int, elem []byte) (int, error) {
	fromTail := count < 0
	if fromTail {
		count = -count
	}
	enc, root := object.Root(a, rec)
	var removed int
	var err error
	if enc == object.EncListpack {
		var nl listpack.Listpack
		nl, removed, err = quicklist.RemoveEqualListpack(a, listpack.FromHandle(root), elem, count, fromTail)
		setListpackRoot(a, rec, root, nl)
	} else {
		removed, err = quicklist.FromHandle(root).RemoveEqual(a, elem, count, fromTail)
	}
	if removed > 0 {
		afterRemove(a, rec)
	}
	if err != nil {
		err = object.ErrOOM
	}
	return removed, err
}

// Trim keeps only the elements of list record rec from start to stop inclusive (LTRIM's
// indexes: negative count from the tail, out of range ones clipped, an empty range empties the
// list) and returns how many it removed. A list left with elements gets the shrinking
// conversion; an emptied one stays an empty record for the caller to delete.
func Trim(a *alloc.Arena, rec alloc.Handle, start, stop int) (int, error) {
	n := Len(a, rec)
	if start < 0 {
		start += n
	}
	if stop < 0 {
		stop += n
	}
	start = max(start, 0)
	var ltrim, rtrim int
	if start > stop || start >= n {
		ltrim, rtrim = n, 0
	} else {
		stop = min(stop, n-1)
		ltrim, rtrim = start, n-stop-1
	}
	if err := deleteRange(a, rec, 0, ltrim); err != nil {
		return 0, err
	}
	if err := deleteRange(a, rec, -rtrim, rtrim); err != nil {
		return ltrim, err
	}
	if ltrim+rtrim > 0 {
		afterRemove(a, rec)
	}
	return ltrim + rtrim, nil
}
