package htable

import (
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// A table rooted in the arena is what a hash or a set that outgrew its listpack keeps: no Go
// memory at all. Its header (64 bytes, pointer-free) is one allocation of the owner's arena,
// named by the handle Create returns, which the key's record holds; it never moves while the
// table lives, whatever the table does. A command opens a view of it (Open), a Table value on
// its stack, and uses every method of Table through it; the view writes through to the header,
// so there is nothing to write back and a view may simply be dropped. Arrays of more than one
// segment keep their segments' handles in a directory allocation (bucketArray).

// Create makes an empty table rooted in arena a and returns the handle of its header; without
// memory it returns ErrOOM. The table holds no other memory until its first Insert.
func Create(a *alloc.Arena) (alloc.Handle, error) {
	root := a.Alloc(headerSize)
	if root == 0 {
		return 0, ErrOOM
	}
	clear(a.Bytes(root, headerSize))
	return root, nil
}

// Open returns a view of the table rooted at root in arena a, whose entries' keys keyOf reads.
// It allocates nothing: keep the view on the stack for one command, under the owner's lock, and
// do not keep it past the command (another view may change the table's arrays). Opening costs
// an address computation per array.
func Open(a *alloc.Arena, keyOf KeyFunc, root alloc.Handle) Table {
	t := Table{arena: a, keyOf: keyOf, root: root,
		hdr: (*header)(unsafe.Pointer(unsafe.SliceData(a.Bytes(root, headerSize))))}
	for i := range t.hdr.ht {
		t.setArray(i, t.hdr.ht[i])
	}
	return t
}

// Root is the handle of the table's header in the arena, 0 for a table made by New.
func (t *Table) Root() alloc.Handle { return t.root }

// Destroy frees a table rooted in the arena: it calls fn for every entry (the entries are the
// owner's to free), frees every bucket, then the header. Neither the view nor the root handle
// may be used afterwards. fn must not use the table.
func (t *Table) Destroy(fn func(h alloc.Handle)) {
	if t.root == 0 {
		panic("htable: Destroy of a table not rooted in the arena")
	}
	t.Clear(fn)
	t.arena.Free(t.root, headerSize)
	*t = Table{}
}
