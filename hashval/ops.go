package hashval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// The hash type's operations for package object (Free, MEMORY USAGE, COPY/MOVE across shards).
func init() {
	object.RegisterCollection(object.TypeHash, &object.CollectionOps{
		Free:      freeValue,
		AllocSize: allocSize,
		Copy:      copyValue,
	})
}

// freeValue frees the hash rooted at root: the listpack, or every entry and the table.
func freeValue(a *alloc.Arena, enc object.Encoding, root alloc.Handle) {
	if enc == object.EncListpack {
		listpack.FromHandle(root).Free(a)
		return
	}
	t := openTable(a, root)
	t.Destroy(func(h alloc.Handle) { freeEntry(a, h) })
}

// allocSize is what the hash rooted at root is charged: the listpack's allocation, or the
// table's (header, arrays, child buckets) plus every entry's. A table is walked: O(fields).
func allocSize(a *alloc.Arena, enc object.Encoding, root alloc.Handle) int {
	if enc == object.EncListpack {
		return listpack.FromHandle(root).AllocSize(a)
	}
	t := openTable(a, root)
	n := int(t.Bytes())
	t.Each(func(h alloc.Handle) { n += entryAllocSize(a, h) })
	return n
}

// copyValue makes a deep copy in dst of the hash rooted at root in src, in the same encoding.
func copyValue(src *alloc.Arena, enc object.Encoding, root alloc.Handle, dst *alloc.Arena) (alloc.Handle, error) {
	if enc == object.EncListpack {
		l := listpack.FromBytes(dst, listpack.FromHandle(root).Bytes(src))
		if l.IsNil() {
			return 0, object.ErrOOM
		}
		return l.Handle(), nil
	}
	st := openTable(src, root)
	droot, err := htable.Create(dst)
	if err != nil {
		return 0, object.ErrOOM
	}
	dt := openTable(dst, droot)
	dt.ExpandForLoad(uint64(st.Len()))
	dt.EndLoad()
	st.Each(func(h alloc.Handle) {
		if err != nil {
			return
		}
		_, _, size := entryView(src, h)
		nh := dst.Alloc(size)
		if nh == 0 {
			err = object.ErrOOM
			return
		}
		copy(dst.Bytes(nh, size), src.Bytes(h, size))
		if dt.Insert(htable.Hash(entryField(dst, nh)), nh) != nil {
			dst.Free(nh, size)
			err = object.ErrOOM
		}
	})
	if err != nil {
		dt.Destroy(func(h alloc.Handle) { freeEntry(dst, h) })
		return 0, err
	}
	return droot, nil
}

// ListpackBlob returns the bytes of hash record rec's listpack when it is listpack-encoded (what
// DUMP and RDB write as type 16), nil otherwise. The view is valid until the hash changes.
func ListpackBlob(a *alloc.Arena, rec alloc.Handle) []byte {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		return nil
	}
	return listpack.FromHandle(root).Bytes(a)
}

// NewFromListpack makes the record of key holding a copy of blob, a listpack of field,value
// pairs the caller validated (listpack.ValidateDups with pairs), with expire expireMs. As Redis
// 7.2's RDB load of a type-16 listpack does, a hash with more fields than
// hash-max-listpack-entries is converted to a hashtable; long values do not convert it (Redis
// checks only the count there). Without memory it returns object.ErrOOM.
func NewFromListpack(a *alloc.Arena, key, blob []byte, expireMs int64) (alloc.Handle, error) {
	if listpack.Len(blob)/2 > maxEntries() {
		troot, err := tableFromListpack(a, blob, 0)
		if err != nil {
			return 0, err
		}
		rec, err := object.NewCollection(a, key, object.TypeHash, object.EncHashtable, troot, expireMs)
		if err != nil {
			freeValue(a, object.EncHashtable, troot)
			return 0, err
		}
		return rec, nil
	}
	l := listpack.FromBytes(a, blob)
	if l.IsNil() {
		return 0, object.ErrOOM
	}
	rec, err := object.NewCollection(a, key, object.TypeHash, object.EncListpack, l.Handle(), expireMs)
	if err != nil {
		l.Free(a)
		return 0, err
	}
	return rec, nil
}
