package quicklist

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
)

// ExceedsLimit reports whether a node (or a listpack-encoded list) of sz bytes and count
// entries is over fill's limits — quicklist.c's quicklistNodeExceedsLimit: a negative fill
// limits bytes only; a positive one entries (0 counts as 1) and also bytes at 8 KB.
func ExceedsLimit(fill, sz, count int) bool {
	fill = min(max(fill, -5), fillMax)
	return exceeds(fill, sz, count)
}

// NodeLimit returns fill's limits as quicklist.c's quicklistNodeLimit states them: a negative
// fill gives a byte limit and no entry limit (-1), a positive one an entry limit (0 counts as
// 1) and no byte limit (-1). The 8 KB safety cap of a positive fill is not in it: Redis's
// conversion of a quicklist back to a listpack compares against these only.
func NodeLimit(fill int) (bytes, count int) {
	fill = min(max(fill, -5), fillMax)
	if fill < 0 {
		return negFillLimit[-fill-1], -1
	}
	return -1, max(fill, 1)
}

// AppendListpack links listpack lp, of count entries (at least one), as a new packed node at
// the tail, as it is and whatever its size — quicklistAppendListpack, used when a listpack
// list becomes a quicklist and when a dump's nodes are loaded. The list takes lp over.
func (l List) AppendListpack(a *alloc.Arena, lp listpack.Listpack, count int) error {
	defer l.check(a)
	h := newNode(a, lp, count, false)
	if h == 0 {
		return ErrNoMemory
	}
	l.link(a, h, l.tail(a))
	l.addLen(a, count)
	return nil
}

// AppendPlain adds s at the tail in a plain node of its own, whatever its size
// (quicklistAppendPlainNode: a dump's plain node stays plain).
func (l List) AppendPlain(a *alloc.Arena, s []byte) error {
	defer l.check(a)
	return l.insertNode(a, l.tail(a), s, true)
}

// EachNode calls fn with each node from head to tail — its listpack's bytes (valid during the
// call) and whether it is plain — until fn returns false.
func (l List) EachNode(a *alloc.Arena, fn func(lp []byte, plain bool) bool) {
	for h := l.head(a); h != 0; {
		nd := nodeAt(a, h)
		if !fn(nd.bytes(a), nd.plain()) {
			return
		}
		h = nd.next()
	}
}

// Single returns the listpack of the list's only node when the list has exactly one node and
// it is packed (the case where a quicklist may become a listpack list again).
func (l List) Single(a *alloc.Arena) (listpack.Listpack, bool) {
	h := l.head(a)
	if h == 0 || l.Nodes(a) != 1 {
		return listpack.Listpack{}, false
	}
	nd := nodeAt(a, h)
	if nd.plain() {
		return listpack.Listpack{}, false
	}
	return nd.lp(), true
}

// TakeSingle frees the list's root and its only node but not the node's listpack, which it
// returns to the caller. The list must have one packed node (Single's ok); l is then gone.
func (l List) TakeSingle(a *alloc.Arena) listpack.Listpack {
	lp, ok := l.Single(a)
	if !ok {
		panic("quicklist: TakeSingle of a list without exactly one packed node")
	}
	a.Free(l.head(a), nodeSize)
	a.Free(l.h, headerSize)
	return lp
}
