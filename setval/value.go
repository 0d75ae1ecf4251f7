package setval

import (
	"errors"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/intset"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// ErrOOM is the only error of a change: the arena had no memory. What was done before stays
// done (a conversion that cannot be completed leaves the set in its old encoding).
var ErrOOM = errors.New("setval: out of memory")

// value is a set as its record holds it: an encoding and a root handle. Changes may move the
// root (a listpack or an intset reallocates, a conversion makes a new one): the record-level
// functions (set.go) store it back.
type value struct {
	enc  object.Encoding
	root alloc.Handle
}

func (v value) intsetBytes(a *alloc.Arena) []byte { return intset.FromHandle(v.root).Bytes(a) }
func (v value) lpBytes(a *alloc.Arena) []byte     { return listpack.FromHandle(v.root).Bytes(a) }
func (v value) table(a *alloc.Arena) htable.Table {
	return htable.Open(a, memberOf, v.root)
}

// isInteger is Redis's string2ll as sets use it: the canonical decimal form of an int64.
func isInteger(m []byte) (int64, bool) { return listpack.StringToInt64(m) }

// newEmpty makes an empty value of encoding enc.
func newEmpty(a *alloc.Arena, enc object.Encoding) (value, error) {
	switch enc {
	case object.EncIntset:
		s := intset.New(a)
		if s.IsNil() {
			return value{}, ErrOOM
		}
		return value{enc, s.Handle()}, nil
	case object.EncListpack:
		l := listpack.New(a)
		if l.IsNil() {
			return value{}, ErrOOM
		}
		return value{enc, l.Handle()}, nil
	case object.EncHashtable:
		root, err := htable.Create(a)
		if err != nil {
			return value{}, ErrOOM
		}
		return value{enc, root}, nil
	}
	panic("setval: not a set encoding: " + enc.Name())
}

// createEncoding is setTypeCreate's choice for a set whose first member is first and which is
// about to receive sizeHint members.
func createEncoding(first []byte, sizeHint int) object.Encoding {
	if _, ok := isInteger(first); ok && int64(sizeHint) <= maxIntsetEntries.Load() {
		return object.EncIntset
	}
	if int64(sizeHint) <= maxListpackEntries.Load() {
		return object.EncListpack
	}
	return object.EncHashtable
}

// length is the number of members.
func (v value) length(a *alloc.Arena) int {
	switch v.enc {
	case object.EncIntset:
		return intset.Len(a.Bytes(v.root, intset.HeaderSize))
	case object.EncListpack:
		return listpack.Len(v.lpBytes(a))
	}
	t := v.table(a)
	return int(t.Len())
}

// add is setTypeAddAux for a member given as a string: it reports whether m was new.
func (v *value) add(a *alloc.Arena, m []byte) (bool, error) {
	switch v.enc {
	case object.EncIntset:
		if n, ok := isInteger(m); ok {
			return v.addInt(a, n)
		}
		return v.intsetAddString(a, m)
	case object.EncListpack:
		return v.listpackAdd(a, m)
	}
	return v.tableAdd(a, m)
}

// addInt is setTypeAddAux for a member given as an integer.
func (v *value) addInt(a *alloc.Arena, n int64) (bool, error) {
	if v.enc != object.EncIntset {
		var buf [20]byte
		return v.add(a, strconv.AppendInt(buf[:0], n, 10))
	}
	s, added, err := intset.FromHandle(v.root).Add(a, n)
	v.root = s.Handle()
	if err != nil {
		return false, ErrOOM
	}
	if added && int64(intset.Len(v.intsetBytes(a))) > maxIntsetEntries.Load() {
		// maybeConvertIntset: past its limit an intset becomes a hash table, never a listpack.
		if err := v.convert(a, object.EncHashtable); err != nil {
			return true, err
		}
	}
	return added, nil
}

// lpIntEntryMax is the most bytes a listpack entry holding an integer takes (a 64-bit integer:
// encoding byte, 8 bytes, back-length): the bound lpEstimateBytesRepeatedInteger gives at worst.
const lpIntEntryMax = 10

// intsetAddString adds a non-integer to an intset, which cannot hold it: the set becomes a
// listpack while it has fewer members than the listpack limit and neither m nor the widest of
// its integers in decimal (its minimum or maximum, sign included) exceeds the value limit;
// else a hash table. The member is always new.
func (v *value) intsetAddString(a *alloc.Arena, m []byte) (bool, error) {
	is := v.intsetBytes(a)
	n := intset.Len(is)
	maxEle, total := 0, 0
	if n > 0 {
		var buf [20]byte
		maxEle = max(len(strconv.AppendInt(buf[:0], intset.Min(is), 10)),
			len(strconv.AppendInt(buf[:0], intset.Max(is), 10)))
		total = n * lpIntEntryMax
	}
	lpEntries, lpValue := maxListpackEntries.Load(), maxListpackValue.Load()
	to := object.EncHashtable
	if int64(n) < lpEntries && int64(len(m)) <= lpValue && int64(maxEle) <= lpValue &&
		listpack.SafeToAdd(nil, total+len(m)) {
		to = object.EncListpack
	}
	if err := v.convert(a, to); err != nil {
		return false, err
	}
	if to == object.EncListpack {
		return true, v.listpackAppend(a, m)
	}
	return true, v.tableInsert(a, m, htable.Hash(m))
}

// listpackAdd adds m to a listpack, which becomes a hash table when m would take it past the
// entries or the value limit.
func (v *value) listpackAdd(a *alloc.Arena, m []byte) (bool, error) {
	lp := v.lpBytes(a)
	if p := listpack.First(lp); p >= 0 && listpack.Find(lp, p, m, 0) >= 0 {
		return false, nil
	}
	if int64(listpack.Len(lp)) < maxListpackEntries.Load() && int64(len(m)) <= maxListpackValue.Load() &&
		listpack.SafeToAdd(lp, len(m)) {
		return true, v.listpackAppend(a, m)
	}
	if err := v.convert(a, object.EncHashtable); err != nil {
		return false, err
	}
	return true, v.tableInsert(a, m, htable.Hash(m))
}

// listpackAppend appends m, known not to be a member.
func (v *value) listpackAppend(a *alloc.Arena, m []byte) error {
	l, err := listpack.FromHandle(v.root).Append(a, m)
	v.root = l.Handle()
	if err != nil {
		return ErrOOM
	}
	return nil
}

// tableAdd adds m to a hash table.
func (v *value) tableAdd(a *alloc.Arena, m []byte) (bool, error) {
	t := v.table(a)
	hash := htable.Hash(m)
	if _, ok := t.Find(m, hash); ok {
		return false, nil
	}
	return true, v.tableInsert(a, m, hash)
}

// tableInsert inserts m, known not to be a member, whose hash is hash.
func (v *value) tableInsert(a *alloc.Arena, m []byte, hash uint64) error {
	e := newEntry(a, m)
	if e == 0 {
		return ErrOOM
	}
	t := v.table(a)
	if err := t.Insert(hash, e); err != nil {
		freeEntry(a, e)
		return ErrOOM
	}
	return nil
}

// remove is setTypeRemoveAux: it reports whether m was a member. The encoding never changes.
func (v *value) remove(a *alloc.Arena, m []byte) (bool, error) {
	switch v.enc {
	case object.EncIntset:
		n, ok := isInteger(m)
		if !ok {
			return false, nil
		}
		s, removed, err := intset.FromHandle(v.root).Remove(a, n)
		v.root = s.Handle()
		if err != nil {
			return false, ErrOOM
		}
		return removed, nil
	case object.EncListpack:
		lp := v.lpBytes(a)
		p := listpack.First(lp)
		if p >= 0 {
			p = listpack.Find(lp, p, m, 0)
		}
		if p < 0 {
			return false, nil
		}
		l, _, err := listpack.FromHandle(v.root).Delete(a, p)
		v.root = l.Handle()
		if err != nil {
			return false, ErrOOM
		}
		return true, nil
	}
	t := v.table(a)
	pos, ok := t.Find(m, htable.Hash(m))
	if !ok {
		return false, nil
	}
	e := pos.Handle()
	t.DeleteAt(pos)
	freeEntry(a, e)
	return true, nil
}

// isMember is setTypeIsMemberAux for a string.
func (v value) isMember(a *alloc.Arena, m []byte) bool {
	switch v.enc {
	case object.EncIntset:
		n, ok := isInteger(m)
		return ok && intset.Find(v.intsetBytes(a), n)
	case object.EncListpack:
		lp := v.lpBytes(a)
		p := listpack.First(lp)
		return p >= 0 && listpack.Find(lp, p, m, 0) >= 0
	}
	t := v.table(a)
	_, ok := t.Find(m, htable.Hash(m))
	return ok
}

// isMemberInt is setTypeIsMemberAux for an integer (a member of an intset or an integer entry
// of a listpack): an intset is searched without formatting it.
func (v value) isMemberInt(a *alloc.Arena, n int64) bool {
	if v.enc == object.EncIntset {
		return intset.Find(v.intsetBytes(a), n)
	}
	var buf [20]byte
	return v.isMember(a, strconv.AppendInt(buf[:0], n, 10))
}

// each calls fn for every member, in the encoding's order (an intset's ascending, a
// listpack's insertion order, a table's bucket order), until fn returns false: as a string
// s, or as an integer n when isInt (intset members, listpack integer entries). s is a view
// valid during the call; fn must not change the set.
func (v value) each(a *alloc.Arena, fn func(s []byte, n int64, isInt bool) bool) {
	switch v.enc {
	case object.EncIntset:
		is := v.intsetBytes(a)
		for i, l := 0, intset.Len(is); i < l; i++ {
			if !fn(nil, intset.Get(is, i), true) {
				return
			}
		}
	case object.EncListpack:
		lp := v.lpBytes(a)
		for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
			if !fn(listpack.Get(lp, p)) {
				return
			}
		}
	default:
		t := v.table(a)
		stop := false
		t.Each(func(h alloc.Handle) {
			if !stop && !fn(memberOf(a, h), 0, false) {
				stop = true
			}
		})
	}
}

// convert rebuilds the set in encoding to (setTypeConvert): hash table from an intset or a
// listpack, listpack from an intset, intset from a set of integers only (maybeConvertToIntset).
// On error the set is unchanged.
func (v *value) convert(a *alloc.Arena, to object.Encoding) error {
	nv, err := newEmpty(a, to)
	if err != nil {
		return err
	}
	v.each(a, func(s []byte, n int64, isInt bool) bool {
		switch to {
		case object.EncHashtable:
			if isInt {
				var buf [20]byte
				s = strconv.AppendInt(buf[:0], n, 10)
			}
			err = nv.tableInsert(a, s, htable.Hash(s))
		case object.EncListpack:
			if isInt {
				var l listpack.Listpack
				l, err = listpack.FromHandle(nv.root).AppendInt(a, n)
				nv.root = l.Handle()
			} else {
				err = nv.listpackAppend(a, s)
			}
		case object.EncIntset:
			if !isInt {
				var ok bool
				if n, ok = isInteger(s); !ok {
					panic("setval: intset conversion of a non-integer member")
				}
			}
			_, err = nv.addInt(a, n)
		}
		return err == nil
	})
	if err != nil {
		nv.free(a)
		return ErrOOM
	}
	v.free(a)
	*v = nv
	return nil
}

// free frees everything the value holds.
func (v value) free(a *alloc.Arena) {
	switch v.enc {
	case object.EncIntset:
		intset.FromHandle(v.root).Free(a)
	case object.EncListpack:
		listpack.FromHandle(v.root).Free(a)
	default:
		t := v.table(a)
		t.Destroy(func(h alloc.Handle) { freeEntry(a, h) })
	}
}

// allocSize is what the value's allocations are charged: exact, so a table's entries are
// walked (MEMORY USAGE of a big set costs a pass over it).
func (v value) allocSize(a *alloc.Arena) int {
	switch v.enc {
	case object.EncIntset:
		return intset.FromHandle(v.root).AllocSize(a)
	case object.EncListpack:
		return listpack.FromHandle(v.root).AllocSize(a)
	}
	t := v.table(a)
	n := int(t.Bytes())
	t.Each(func(h alloc.Handle) { n += entryAllocSize(a, h) })
	return n
}

// copyTo makes a deep copy of v in dst, in the same encoding.
func (v value) copyTo(a, dst *alloc.Arena) (value, error) {
	switch v.enc {
	case object.EncIntset:
		s := intset.FromBytes(dst, v.intsetBytes(a))
		if s.IsNil() {
			return value{}, ErrOOM
		}
		return value{v.enc, s.Handle()}, nil
	case object.EncListpack:
		l := listpack.FromBytes(dst, v.lpBytes(a))
		if l.IsNil() {
			return value{}, ErrOOM
		}
		return value{v.enc, l.Handle()}, nil
	}
	nv, err := newEmpty(dst, object.EncHashtable)
	if err != nil {
		return value{}, err
	}
	v.each(a, func(s []byte, _ int64, _ bool) bool {
		err = nv.tableInsert(dst, s, htable.Hash(s))
		return err == nil
	})
	if err != nil {
		nv.free(dst)
		return value{}, err
	}
	return nv, nil
}
