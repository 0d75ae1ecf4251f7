package zindex

import (
	"errors"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// EntryFunc reads the entry named h: its score and its member. The member view need only stay
// valid until the next call.
type EntryFunc func(a *alloc.Arena, h alloc.Handle) (score float64, member []byte)

// ErrOOM is returned when the arena cannot give a node: the index is left as it was.
var ErrOOM = errors.New("zindex: out of memory")

// header is the index's root allocation: it never moves while the index lives, so the owner's
// record keeps its handle.
type header struct {
	root   alloc.Handle // the root node, 0 when the index is empty
	height uint32       // levels of inner nodes above the leaves (0: the root is a leaf)
	count  uint32       // entries
	leaves uint32       // leaf nodes
	inners uint32       // inner nodes
	first  alloc.Handle // the first leaf, 0 when empty
	last   alloc.Handle // the last leaf, 0 when empty
	_      uint32
}

const headerSize = int(unsafe.Sizeof(header{}))

// Index is a view of an index rooted in an arena: a value to keep on the stack for one command,
// under the arena owner's serialisation. It allocates no Go memory; it writes through to the
// header, so a view may simply be dropped.
type Index struct {
	a     *alloc.Arena
	hdr   *header
	root  alloc.Handle
	entry EntryFunc
}

// Create makes an empty index in arena a and returns the handle of its header (the only
// allocation until the first entry); ErrOOM without memory.
func Create(a *alloc.Arena) (root alloc.Handle, err error) {
	root = a.Alloc(headerSize)
	if root == 0 {
		return 0, ErrOOM
	}
	clear(a.Bytes(root, headerSize))
	return root, nil
}

// Open returns a view of the index rooted at root in arena a, which reads entries through
// entry.
func Open(a *alloc.Arena, root alloc.Handle, entry EntryFunc) Index {
	return Index{a: a, hdr: headerOf(a, root), root: root, entry: entry}
}

func headerOf(a *alloc.Arena, root alloc.Handle) *header {
	return (*header)(unsafe.Pointer(unsafe.SliceData(a.Bytes(root, headerSize))))
}

// Len is the number of entries.
func (ix Index) Len() int { return int(ix.hdr.count) }

// Bytes is what the index's allocations are charged: its header and its nodes (not the
// entries, which are the owner's).
func (ix Index) Bytes() int { return bytesOf(ix.hdr) }

func bytesOf(hdr *header) int {
	return alloc.UsableSize(headerSize) + int(hdr.leaves)*alloc.UsableSize(leafSize) +
		int(hdr.inners)*alloc.UsableSize(innerSize)
}
