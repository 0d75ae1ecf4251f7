package hashval

import (
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// New makes the record of key holding an empty hash, listpack-encoded, with expire expireMs
// (unix ms, 0 for none). The caller inserts it into the keyspace. Without memory it returns
// object.ErrOOM.
func New(a *alloc.Arena, key []byte, expireMs int64) (alloc.Handle, error) {
	lp := listpack.New(a)
	if lp.IsNil() {
		return 0, object.ErrOOM
	}
	rec, err := object.NewCollection(a, key, object.TypeHash, object.EncListpack, lp.Handle(), expireMs)
	if err != nil {
		lp.Free(a)
		return 0, err
	}
	return rec, nil
}

// openTable is a view of a hashtable-encoded hash's table (on the caller's stack).
func openTable(a *alloc.Arena, root alloc.Handle) htable.Table {
	return htable.Open(a, entryField, root)
}

// Len is the number of fields of hash record rec.
func Len(a *alloc.Arena, rec alloc.Handle) int {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		// The pure count: a read must not write (a listpack of unknown count is walked).
		return listpack.Len(listpack.FromHandle(root).Bytes(a)) / 2
	}
	t := openTable(a, root)
	return int(t.Len())
}

// lpFindField returns the offset of field in listpack lp (a hash's), or -1.
func lpFindField(lp, field []byte) int {
	p := listpack.First(lp)
	if p < 0 {
		return -1
	}
	return listpack.Find(lp, p, field, 1)
}

// lpString returns the entry at p of lp as a string: a view, or an integer formatted into
// scratch[:0] (reallocated if too small).
func lpString(lp []byte, p int, scratch []byte) []byte {
	s, v, isInt := listpack.Get(lp, p)
	if isInt {
		return strconv.AppendInt(scratch[:0], v, 10)
	}
	return s
}

// Get returns the value of field in hash record rec: a view, or a listpack integer formatted
// into scratch (see the package doc for how long either is valid).
func Get(a *alloc.Arena, rec alloc.Handle, field, scratch []byte) (value []byte, ok bool) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		p := lpFindField(lp, field)
		if p < 0 {
			return nil, false
		}
		return lpString(lp, listpack.Next(lp, p), scratch), true
	}
	t := openTable(a, root)
	pos, found := t.Find(field, htable.Hash(field))
	if !found {
		return nil, false
	}
	_, v, _ := entryView(a, pos.Handle())
	return v, true
}

// Exists reports whether hash record rec has field.
func Exists(a *alloc.Arena, rec alloc.Handle, field []byte) bool {
	_, ok := Get(a, rec, field, nil)
	return ok
}

// StrLen is the length of field's value in hash record rec, 0 for a missing field (HSTRLEN):
// a listpack integer counts its decimal digits.
func StrLen(a *alloc.Arena, rec alloc.Handle, field []byte) int {
	var buf [24]byte
	v, _ := Get(a, rec, field, buf[:0])
	return len(v)
}

// Each calls fn for every field and value of hash record rec, in the listpack's order or the
// table's, until fn returns false. The views are valid during the call only; listpack integers
// are formatted into scratch. fn must not change the hash.
func Each(a *alloc.Arena, rec alloc.Handle, scratch []byte, fn func(field, value []byte) bool) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		eachListpack(listpack.FromHandle(root).Bytes(a), scratch, fn)
		return
	}
	t := openTable(a, root)
	more := true
	t.Each(func(h alloc.Handle) {
		if more {
			f, v, _ := entryView(a, h)
			more = fn(f, v)
		}
	})
}

// eachListpack calls fn for the pairs of lp until it returns false.
func eachListpack(lp, scratch []byte, fn func(field, value []byte) bool) {
	if cap(scratch) < 2*maxIntLen {
		scratch = make([]byte, 0, 2*maxIntLen)
	}
	for p := listpack.First(lp); p >= 0; {
		vp := listpack.Next(lp, p)
		f := lpString(lp, p, scratch[:0:maxIntLen])
		v := lpString(lp, vp, scratch[maxIntLen:maxIntLen:2*maxIntLen])
		if !fn(f, v) {
			return
		}
		p = listpack.Next(lp, vp)
	}
}

// maxIntLen is the longest decimal int64 ("-9223372036854775808").
const maxIntLen = 20

// TryConversion is Redis's hashTypeTryConversion, run before a write of pairs field,value
// pairs whose longest argument has longest bytes and whose lengths sum to total: a listpack
// becomes a hashtable when more pairs come than hash-max-listpack-entries (even if they repeat,
// as in Redis, which then pre-sizes the table), when an argument is longer than
// hash-max-listpack-value, or when the listpack could pass listpack.MaxSafetySize.
func TryConversion(a *alloc.Arena, rec alloc.Handle, pairs, longest, total int) error {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		return nil
	}
	if pairs > maxEntries() || longest > maxValue() ||
		!listpack.SafeToAdd(listpack.FromHandle(root).Bytes(a), total) {
		return convert(a, rec, pairs)
	}
	return nil
}

// Set sets field to value in hash record rec (HSET): added reports a new field. A listpack
// converts first when field or value is longer than hash-max-listpack-value, and after the
// write when it has more fields than hash-max-listpack-entries. Without memory it returns
// object.ErrOOM with the hash unchanged (or, if only the conversion after the write failed,
// written but still a listpack).
func Set(a *alloc.Arena, rec alloc.Handle, field, value []byte) (added bool, err error) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		if len(field) > maxValue() || len(value) > maxValue() ||
			!listpack.SafeToAdd(listpack.FromHandle(root).Bytes(a), len(field)+len(value)) {
			if err := convert(a, rec, 0); err != nil {
				return false, err
			}
			enc, root = object.Root(a, rec)
		}
	}
	if enc == object.EncListpack {
		added, err = setListpack(a, rec, root, field, value)
		if err == nil && added && Len(a, rec) > maxEntries() {
			err = convert(a, rec, 0)
		}
		checkHash(a, rec)
		return added, err
	}
	added, err = setTable(a, root, field, value)
	checkHash(a, rec)
	return added, err
}

// setListpack writes field,value into the listpack root of record rec.
func setListpack(a *alloc.Arena, rec, root alloc.Handle, field, value []byte) (bool, error) {
	l := listpack.FromHandle(root)
	lp := l.Bytes(a)
	if p := lpFindField(lp, field); p >= 0 {
		nl, _, err := l.Replace(a, listpack.Next(lp, p), value)
		if err != nil {
			return false, object.ErrOOM
		}
		setListpackRoot(a, rec, root, nl)
		return false, nil
	}
	nl, err := l.Append(a, field)
	if err != nil {
		return false, object.ErrOOM
	}
	nl2, err := nl.Append(a, value)
	if err != nil {
		// Take the field back out; a failed shrink leaves a bigger allocation, still valid.
		if back, derr := nl.DeleteRange(a, -1, 1); derr == nil {
			nl = back
		}
		setListpackRoot(a, rec, root, nl)
		return false, object.ErrOOM
	}
	setListpackRoot(a, rec, root, nl2)
	return true, nil
}

// setListpackRoot stores listpack l in record rec when a write moved it from old.
func setListpackRoot(a *alloc.Arena, rec, old alloc.Handle, l listpack.Listpack) {
	if l.Handle() != old {
		object.SetRoot(a, rec, object.EncListpack, l.Handle())
	}
}

// setTable writes field,value into the table rooted at root.
func setTable(a *alloc.Arena, root alloc.Handle, field, value []byte) (bool, error) {
	t := openTable(a, root)
	hash := htable.Hash(field)
	if pos, found := t.Find(field, hash); found {
		old := pos.Handle()
		nh := setEntryValue(a, old, value)
		if nh == 0 {
			return false, object.ErrOOM
		}
		if nh != old {
			t.ReplaceAt(pos, nh)
		}
		return false, nil
	}
	h := newEntry(a, field, value)
	if h == 0 {
		return false, object.ErrOOM
	}
	if err := t.Insert(hash, h); err != nil {
		freeEntry(a, h)
		return false, object.ErrOOM
	}
	return true, nil
}

// Delete removes field from hash record rec and reports whether it was there. The caller
// deletes the key when Len is then 0. Its only error is object.ErrOOM (a listpack that could
// not be shrunk), with the hash unchanged.
func Delete(a *alloc.Arena, rec alloc.Handle, field []byte) (bool, error) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		l := listpack.FromHandle(root)
		p := lpFindField(l.Bytes(a), field)
		if p < 0 {
			return false, nil
		}
		nl, _, err := l.DeleteEntries(a, p, 2)
		if err != nil {
			return false, object.ErrOOM
		}
		setListpackRoot(a, rec, root, nl)
		checkHash(a, rec)
		return true, nil
	}
	t := openTable(a, root)
	pos, found := t.Find(field, htable.Hash(field))
	if !found {
		return false, nil
	}
	h := pos.Handle()
	t.DeleteAt(pos)
	freeEntry(a, h)
	checkHash(a, rec)
	return true, nil
}

// convert makes the listpack hash of record rec a hashtable, its table sized for at least
// hint entries (a write of that many pairs coming). Without memory it returns object.ErrOOM
// and the hash stays a listpack.
func convert(a *alloc.Arena, rec alloc.Handle, hint int) error {
	_, root := object.Root(a, rec)
	l := listpack.FromHandle(root)
	troot, err := tableFromListpack(a, l.Bytes(a), hint)
	if err != nil {
		return err
	}
	l.Free(a)
	object.SetRoot(a, rec, object.EncHashtable, troot)
	return nil
}

// tableFromListpack makes a table holding the pairs of listpack lp (which it leaves as it
// is), sized for max(pairs, hint) entries, and returns its root.
func tableFromListpack(a *alloc.Arena, lp []byte, hint int) (alloc.Handle, error) {
	troot, err := htable.Create(a)
	if err != nil {
		return 0, object.ErrOOM
	}
	t := openTable(a, troot)
	t.ExpandForLoad(uint64(max(listpack.Len(lp)/2, hint)))
	t.EndLoad()
	var buf [2 * maxIntLen]byte
	eachListpack(lp, buf[:0], func(f, v []byte) bool {
		h := newEntry(a, f, v)
		if h == 0 {
			err = object.ErrOOM
			return false
		}
		if ierr := t.Insert(htable.Hash(f), h); ierr != nil {
			freeEntry(a, h)
			err = object.ErrOOM
			return false
		}
		return true
	})
	if err != nil {
		t.Destroy(func(h alloc.Handle) { freeEntry(a, h) })
		return 0, err
	}
	return troot, nil
}
