package quicklist

import (
	"encoding/binary"
	"errors"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
)

// ErrNoMemory is returned when the arena cannot grow.
var ErrNoMemory = errors.New("quicklist: out of memory")

// Sizes of the root header and of a node (see the package doc).
const (
	headerSize = 24
	nodeSize   = 16
)

// Limits of Redis 7.2's quicklist.c: the byte limits of fills -1…-5, the byte cap of a node
// with a positive fill (SIZE_SAFETY_LIMIT), and the entry overhead an insert is estimated at
// (SIZE_ESTIMATE_OVERHEAD).
var negFillLimit = [5]int{4096, 8192, 16384, 32768, 65536}

const (
	sizeSafetyLimit      = 8192
	sizeEstimateOverhead = 8
	plainBit             = 1 << 31
)

// fillMax is the largest positive fill (quicklist.c's FILL_MAX): larger ones count as it.
const fillMax = 1<<15 - 1

// DefaultFill is list-max-listpack-size's default: 8 KB nodes.
const DefaultFill = -2

// List is a quicklist in an arena, named by its root handle. The zero List is none.
type List struct{ h alloc.Handle }

// FromHandle makes a List of a handle New returned.
func FromHandle(h alloc.Handle) List { return List{h} }

// Handle returns the root allocation, to be stored in a record.
func (l List) Handle() alloc.Handle { return l.h }

// New returns an empty list with fill factor fill, or ErrNoMemory.
func New(a *alloc.Arena, fill int) (List, error) {
	h := a.Alloc(headerSize)
	if h == 0 {
		return List{}, ErrNoMemory
	}
	b := a.Bytes(h, headerSize)
	clear(b)
	fill = min(max(fill, -5), fillMax)
	binary.LittleEndian.PutUint32(b[12:], uint32(int32(fill)))
	return List{h}, nil
}

func (l List) hdr(a *alloc.Arena) []byte { return a.Bytes(l.h, headerSize) }

func (l List) head(a *alloc.Arena) alloc.Handle {
	return alloc.Handle(binary.LittleEndian.Uint32(l.hdr(a)))
}

func (l List) tail(a *alloc.Arena) alloc.Handle {
	return alloc.Handle(binary.LittleEndian.Uint32(l.hdr(a)[4:]))
}

// Nodes returns the number of nodes.
func (l List) Nodes(a *alloc.Arena) int { return int(binary.LittleEndian.Uint32(l.hdr(a)[8:])) }

// Fill returns the fill factor the list was made with.
func (l List) Fill(a *alloc.Arena) int { return int(int32(binary.LittleEndian.Uint32(l.hdr(a)[12:]))) }

// Len returns the number of elements.
func (l List) Len(a *alloc.Arena) int { return int(binary.LittleEndian.Uint64(l.hdr(a)[16:])) }

func (l List) setHead(a *alloc.Arena, n alloc.Handle) {
	binary.LittleEndian.PutUint32(l.hdr(a), uint32(n))
}

func (l List) setTail(a *alloc.Arena, n alloc.Handle) {
	binary.LittleEndian.PutUint32(l.hdr(a)[4:], uint32(n))
}

func (l List) addNodes(a *alloc.Arena, d int) {
	b := l.hdr(a)[8:]
	binary.LittleEndian.PutUint32(b, uint32(int(binary.LittleEndian.Uint32(b))+d))
}

func (l List) addLen(a *alloc.Arena, d int) {
	b := l.hdr(a)[16:]
	binary.LittleEndian.PutUint64(b, uint64(int(binary.LittleEndian.Uint64(b))+d))
}

// node is a view of one node's 16 bytes.
type node struct {
	h alloc.Handle
	b []byte
}

func nodeAt(a *alloc.Arena, h alloc.Handle) node { return node{h, a.Bytes(h, nodeSize)} }

func (n node) prev() alloc.Handle { return alloc.Handle(binary.LittleEndian.Uint32(n.b)) }
func (n node) next() alloc.Handle { return alloc.Handle(binary.LittleEndian.Uint32(n.b[4:])) }
func (n node) lp() listpack.Listpack {
	return listpack.FromHandle(alloc.Handle(binary.LittleEndian.Uint32(n.b[8:])))
}
func (n node) count() int             { return int(binary.LittleEndian.Uint32(n.b[12:]) &^ plainBit) }
func (n node) plain() bool            { return binary.LittleEndian.Uint32(n.b[12:])&plainBit != 0 }
func (n node) setPrev(h alloc.Handle) { binary.LittleEndian.PutUint32(n.b, uint32(h)) }
func (n node) setNext(h alloc.Handle) { binary.LittleEndian.PutUint32(n.b[4:], uint32(h)) }
func (n node) setLP(lp listpack.Listpack) {
	binary.LittleEndian.PutUint32(n.b[8:], uint32(lp.Handle()))
}
func (n node) setCount(c int, plain bool) {
	v := uint32(c)
	if plain {
		v |= plainBit
	}
	binary.LittleEndian.PutUint32(n.b[12:], v)
}
func (n node) bytes(a *alloc.Arena) []byte { return n.lp().Bytes(a) }
func (n node) size(a *alloc.Arena) int {
	return int(binary.LittleEndian.Uint32(a.Bytes(n.lp().Handle(), 4)))
}

// limits returns the byte limit and the entry limit of a node under fill.
func limits(fill int) (bytes, count int) {
	if fill < 0 {
		return negFillLimit[min(-fill, 5)-1], 1 << 30
	}
	return sizeSafetyLimit, max(fill, 1)
}

// isLarge reports whether an element of sz bytes gets a plain node of its own.
func isLarge(sz, fill int) bool {
	lim, _ := limits(fill)
	return sz > lim
}

// exceeds reports whether a node of newSz bytes and newCount entries is over the limits.
func exceeds(fill, newSz, newCount int) bool {
	lim, cnt := limits(fill)
	return newSz > lim || newCount > cnt
}

// allowInsert reports whether node n may take an element of sz bytes.
func allowInsert(a *alloc.Arena, n alloc.Handle, fill, sz int) bool {
	if n == 0 || isLarge(sz, fill) {
		return false
	}
	nd := nodeAt(a, n)
	if nd.plain() {
		return false
	}
	return !exceeds(fill, nd.size(a)+sz+sizeEstimateOverhead, nd.count()+1)
}

// allowMerge reports whether nodes x and y may become one.
func allowMerge(a *alloc.Arena, x, y alloc.Handle, fill int) bool {
	if x == 0 || y == 0 {
		return false
	}
	nx, ny := nodeAt(a, x), nodeAt(a, y)
	if nx.plain() || ny.plain() {
		return false
	}
	return !exceeds(fill, nx.size(a)+ny.size(a)-listpack.EmptySize, nx.count()+ny.count())
}

// newNode allocates a node holding lp (count entries), unlinked.
func newNode(a *alloc.Arena, lp listpack.Listpack, count int, plain bool) alloc.Handle {
	h := a.Alloc(nodeSize)
	if h == 0 {
		return 0
	}
	n := nodeAt(a, h)
	n.setPrev(0)
	n.setNext(0)
	n.setLP(lp)
	n.setCount(count, plain)
	return h
}

// link puts the unlinked node h after node at (0: at the head).
func (l List) link(a *alloc.Arena, h, at alloc.Handle) {
	n := nodeAt(a, h)
	var next alloc.Handle
	if at == 0 {
		next = l.head(a)
		l.setHead(a, h)
	} else {
		an := nodeAt(a, at)
		next = an.next()
		an.setNext(h)
	}
	n.setPrev(at)
	n.setNext(next)
	if next == 0 {
		l.setTail(a, h)
	} else {
		nodeAt(a, next).setPrev(h)
	}
	l.addNodes(a, 1)
}

// unlinkFree removes node h from the list and frees it and its listpack.
func (l List) unlinkFree(a *alloc.Arena, h alloc.Handle) {
	n := nodeAt(a, h)
	p, nx := n.prev(), n.next()
	if p == 0 {
		l.setHead(a, nx)
	} else {
		nodeAt(a, p).setNext(nx)
	}
	if nx == 0 {
		l.setTail(a, p)
	} else {
		nodeAt(a, nx).setPrev(p)
	}
	n.lp().Free(a)
	a.Free(h, nodeSize)
	l.addNodes(a, -1)
}

// fromEntries makes a listpack of count entries whose bytes are body (entries copied from
// another listpack: an entry's bytes do not depend on where it stands).
func fromEntries(a *alloc.Arena, count int, parts ...[]byte) listpack.Listpack {
	n := listpack.EmptySize
	for _, p := range parts {
		n += len(p)
	}
	h := a.Alloc(n)
	if h == 0 {
		return listpack.Listpack{}
	}
	b := a.Bytes(h, n)
	binary.LittleEndian.PutUint32(b, uint32(n))
	c := min(count, listpack.NumUnknown)
	binary.LittleEndian.PutUint16(b[4:], uint16(c))
	off := listpack.HeaderSize
	for _, p := range parts {
		off += copy(b[off:], p)
	}
	b[off] = listpack.EOF
	return listpack.FromHandle(h)
}

// single makes a listpack of the one element s.
func single(a *alloc.Arena, s []byte) (listpack.Listpack, error) {
	lp := listpack.New(a)
	if lp.IsNil() {
		return lp, ErrNoMemory
	}
	nl, err := lp.Append(a, s)
	if err != nil {
		lp.Free(a)
		return lp, ErrNoMemory
	}
	return nl, nil
}

// PushHead adds s at the head.
func (l List) PushHead(a *alloc.Arena, s []byte) error {
	defer l.check(a)
	fill := l.Fill(a)
	if h := l.head(a); allowInsert(a, h, fill, len(s)) {
		n := nodeAt(a, h)
		lp, err := n.lp().Prepend(a, s)
		if err != nil {
			return ErrNoMemory
		}
		n.setLP(lp)
		n.setCount(n.count()+1, false)
		l.addLen(a, 1)
		return nil
	}
	return l.insertNode(a, 0, s, isLarge(len(s), fill))
}

// PushTail adds s at the tail.
func (l List) PushTail(a *alloc.Arena, s []byte) error {
	defer l.check(a)
	fill := l.Fill(a)
	t := l.tail(a)
	if allowInsert(a, t, fill, len(s)) {
		n := nodeAt(a, t)
		lp, err := n.lp().Append(a, s)
		if err != nil {
			return ErrNoMemory
		}
		n.setLP(lp)
		n.setCount(n.count()+1, false)
		l.addLen(a, 1)
		return nil
	}
	return l.insertNode(a, t, s, isLarge(len(s), fill))
}

// insertNode puts a new node holding only s after node at (0: at the head).
func (l List) insertNode(a *alloc.Arena, at alloc.Handle, s []byte, plain bool) error {
	lp, err := single(a, s)
	if err != nil {
		return err
	}
	h := newNode(a, lp, 1, plain)
	if h == 0 {
		lp.Free(a)
		return ErrNoMemory
	}
	l.link(a, h, at)
	l.addLen(a, 1)
	return nil
}

// locate returns the node holding element i (0 ≤ i < Len) and i's index in it, walking from
// the nearer end.
func (l List) locate(a *alloc.Arena, i int) (alloc.Handle, int) {
	n := l.Len(a)
	if i <= n/2 {
		for h := l.head(a); h != 0; {
			nd := nodeAt(a, h)
			if c := nd.count(); i < c {
				return h, i
			} else {
				i -= c
			}
			h = nd.next()
		}
		return 0, 0
	}
	j := n - 1 - i // distance from the tail
	for h := l.tail(a); h != 0; {
		nd := nodeAt(a, h)
		c := nd.count()
		if j < c {
			return h, c - 1 - j
		}
		j -= c
		h = nd.prev()
	}
	return 0, 0
}

// norm turns a negative index into one from the head; ok is false out of range.
func (l List) norm(a *alloc.Arena, i int) (int, bool) {
	n := l.Len(a)
	if i < 0 {
		i += n
	}
	return i, i >= 0 && i < n
}

// Index returns element i (negative counts from the tail): a string view (valid until the next
// write) with isInt false, or an integer with isInt true; ok is false out of range. It walks
// from the nearer end: O(distance from that end) in nodes.
func (l List) Index(a *alloc.Arena, i int) (s []byte, v int64, isInt, ok bool) {
	i, ok = l.norm(a, i)
	if !ok {
		return nil, 0, false, false
	}
	h, j := l.locate(a, i)
	lp := nodeAt(a, h).bytes(a)
	s, v, isInt = listpack.Get(lp, listpack.Seek(lp, j))
	return s, v, isInt, true
}

// pop removes the element at one end, returning it copied into buf (an int as isInt).
func (l List) pop(a *alloc.Arena, buf []byte, tail bool) (s []byte, v int64, isInt, ok bool) {
	defer l.check(a)
	h := l.head(a)
	idx := 0
	if tail {
		h, idx = l.tail(a), -1
	}
	if h == 0 {
		return buf, 0, false, false
	}
	n := nodeAt(a, h)
	lp := n.bytes(a)
	es, v, isInt := listpack.Get(lp, listpack.Seek(lp, idx))
	if !isInt {
		s = append(buf, es...)
	} else {
		s = buf
	}
	l.addLen(a, -1)
	if n.count() == 1 {
		l.unlinkFree(a, h)
		return s, v, isInt, true
	}
	nl, err := n.lp().DeleteRange(a, idx, 1)
	if err != nil {
		// Shrinking failed for want of memory: the entry stays; report nothing popped.
		l.addLen(a, 1)
		return buf, 0, false, false
	}
	n.setLP(nl)
	n.setCount(n.count()-1, n.plain())
	return s, v, isInt, true
}

// PopHead removes the head element and returns it: a string appended to buf (isInt false), or
// an integer (isInt true, s is buf). ok is false when the list is empty.
func (l List) PopHead(a *alloc.Arena, buf []byte) (s []byte, v int64, isInt, ok bool) {
	return l.pop(a, buf, false)
}

// PopTail removes the tail element and returns it as PopHead does.
func (l List) PopTail(a *alloc.Arena, buf []byte) (s []byte, v int64, isInt, ok bool) {
	return l.pop(a, buf, true)
}

// Insert puts s at index i (0 ≤ i ≤ Len; Len appends), so that s becomes element i. A node
// that cannot take it is split at i and s gets a node between the halves, which is then merged
// with either half when allowed.
func (l List) Insert(a *alloc.Arena, i int, s []byte) error {
	n := l.Len(a)
	if i <= 0 {
		return l.PushHead(a, s)
	}
	if i >= n {
		return l.PushTail(a, s)
	}
	defer l.check(a)
	fill := l.Fill(a)
	h, j := l.locate(a, i)
	nd := nodeAt(a, h)
	if allowInsert(a, h, fill, len(s)) {
		lp := nd.bytes(a)
		nl, _, err := nd.lp().Insert(a, listpack.Seek(lp, j), listpack.Before, s)
		if err != nil {
			return ErrNoMemory
		}
		nd.setLP(nl)
		nd.setCount(nd.count()+1, false)
		l.addLen(a, 1)
		return nil
	}
	if j == 0 && allowInsert(a, nd.prev(), fill, len(s)) {
		pn := nodeAt(a, nd.prev())
		nl, err := pn.lp().Append(a, s)
		if err != nil {
			return ErrNoMemory
		}
		pn.setLP(nl)
		pn.setCount(pn.count()+1, false)
		l.addLen(a, 1)
		return nil
	}
	at := nd.prev()
	if j > 0 {
		if err := l.split(a, h, j); err != nil {
			return err
		}
		at = h
	}
	if err := l.insertNode(a, at, s, isLarge(len(s), fill)); err != nil {
		return err
	}
	nh := nodeAt(a, at).next()
	if at == 0 {
		nh = l.head(a)
	}
	l.mergeAround(a, nh)
	return nil
}

// split cuts node h after its first j entries (0 < j < count): h keeps them, a new node after
// it takes the rest.
func (l List) split(a *alloc.Arena, h alloc.Handle, j int) error {
	nd := nodeAt(a, h)
	lp := nd.bytes(a)
	p := listpack.Seek(lp, j)
	end := len(lp) - 1
	c := nd.count()
	right := fromEntries(a, c-j, lp[p:end])
	if right.IsNil() {
		return ErrNoMemory
	}
	rh := newNode(a, right, c-j, false)
	if rh == 0 {
		right.Free(a)
		return ErrNoMemory
	}
	nd = nodeAt(a, h)
	nl, err := nd.lp().DeleteRange(a, j, c-j)
	if err != nil {
		right.Free(a)
		a.Free(rh, nodeSize)
		return ErrNoMemory
	}
	nd.setLP(nl)
	nd.setCount(j, false)
	l.link(a, rh, h)
	return nil
}

// merge joins node y (x's next) into x when allowed, and returns whether it did.
func (l List) merge(a *alloc.Arena, x, y alloc.Handle) bool {
	fill := l.Fill(a)
	if !allowMerge(a, x, y, fill) {
		return false
	}
	nx, ny := nodeAt(a, x), nodeAt(a, y)
	bx, by := nx.bytes(a), ny.bytes(a)
	c := nx.count() + ny.count()
	m := fromEntries(a, c, bx[listpack.HeaderSize:len(bx)-1], by[listpack.HeaderSize:len(by)-1])
	if m.IsNil() {
		return false
	}
	nx = nodeAt(a, x)
	nx.lp().Free(a)
	nx.setLP(m)
	nx.setCount(c, false)
	l.unlinkFree(a, y)
	return true
}

// mergeAround merges node h with its previous and then its next neighbour when allowed.
func (l List) mergeAround(a *alloc.Arena, h alloc.Handle) {
	if h == 0 {
		return
	}
	if p := nodeAt(a, h).prev(); p != 0 && l.merge(a, p, h) {
		h = p
	}
	if nx := nodeAt(a, h).next(); nx != 0 {
		l.merge(a, h, nx)
	}
}

// Replace puts s in place of element i (negative counts from the tail); ok is false out of
// range. As Redis 7.2's quicklistReplaceEntry: in a packed node, an element that is not too
// big for any node replaces the entry in place even when the node then passes its limits
// (lpReplace); a plain node takes a large element in place, or a small one goes after it
// (_quicklistInsert) and the plain node is dropped; a large element in a packed node gets a
// plain node of its own where the entry was, the node split around it.
func (l List) Replace(a *alloc.Arena, i int, s []byte) (bool, error) {
	i, ok := l.norm(a, i)
	if !ok {
		return false, nil
	}
	defer l.check(a)
	fill := l.Fill(a)
	h, j := l.locate(a, i)
	nd := nodeAt(a, h)
	large := isLarge(len(s), fill)
	switch {
	case !nd.plain() && !large:
		p := listpack.Seek(nd.bytes(a), j)
		nl, _, err := nd.lp().Replace(a, p, s)
		if err != nil {
			return true, ErrNoMemory
		}
		nd.setLP(nl)
		return true, nil
	case nd.plain() && large:
		nl, err := single(a, s)
		if err != nil {
			return true, err
		}
		nd = nodeAt(a, h)
		nd.lp().Free(a)
		nd.setLP(nl)
		return true, nil
	case nd.plain():
		if err := l.insertAt(a, h, 0, s, true); err != nil {
			return true, err
		}
		l.unlinkFree(a, h)
		l.addLen(a, -1)
		return true, nil
	}
	// A large element in a packed node: [..j] [s] [j+1..], then entry j goes.
	if c := nd.count(); j < c-1 {
		if err := l.split(a, h, j+1); err != nil {
			return true, err
		}
	}
	if err := l.insertNode(a, h, s, true); err != nil {
		return true, err
	}
	nh := nodeAt(a, h).next()
	if nd = nodeAt(a, h); nd.count() == 1 {
		l.unlinkFree(a, h)
	} else {
		nl, err := nd.lp().DeleteRange(a, -1, 1)
		if err != nil {
			return true, ErrNoMemory
		}
		nd.setLP(nl)
		nd.setCount(nd.count()-1, false)
	}
	l.addLen(a, -1)
	l.mergeCenter(a, nh)
	return true, nil
}

// DeleteRange removes n elements from index start (negative counts from the tail); a range
// past the end is clipped. The nodes at the cut are merged with their neighbours when allowed.
func (l List) DeleteRange(a *alloc.Arena, start, n int) error {
	return l.deleteRange(a, start, n, true)
}

// DeleteRangeNoMerge is DeleteRange leaving the nodes as the cut left them, as Redis's
// quicklistDelRange and quicklistDelIndex do: the list commands use it, so that a list has the
// nodes Redis's would, and becomes a listpack again (one node left) at Redis's points.
func (l List) DeleteRangeNoMerge(a *alloc.Arena, start, n int) error {
	return l.deleteRange(a, start, n, false)
}

func (l List) deleteRange(a *alloc.Arena, start, n int, merge bool) error {
	defer l.check(a)
	length := l.Len(a)
	if start < 0 {
		start += length
		if start < 0 {
			start = 0
		}
	}
	if n <= 0 || start >= length {
		return nil
	}
	n = min(n, length-start)
	h, j := l.locate(a, start)
	before := nodeAt(a, h).prev() // a node before the cut, to merge afterwards
	for n > 0 && h != 0 {
		nd := nodeAt(a, h)
		c := nd.count()
		next := nd.next()
		k := min(n, c-j)
		if k == c {
			l.unlinkFree(a, h)
		} else {
			nl, err := nd.lp().DeleteRange(a, j, k)
			if err != nil {
				return ErrNoMemory
			}
			nd.setLP(nl)
			nd.setCount(c-k, nd.plain())
			if j > 0 {
				before = h
			}
		}
		l.addLen(a, -k)
		n -= k
		j = 0
		h = next
	}
	if !merge {
		return nil
	}
	if before != 0 {
		l.mergeAround(a, before)
	} else if hd := l.head(a); hd != 0 {
		l.mergeAround(a, hd)
	}
	return nil
}

// Find returns the index of the first element equal to s, or -1.
func (l List) Find(a *alloc.Arena, s []byte) int {
	i := 0
	for h := l.head(a); h != 0; {
		nd := nodeAt(a, h)
		lp := nd.bytes(a)
		for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
			if listpack.Equal(lp, p, s) {
				return i
			}
			i++
		}
		h = nd.next()
	}
	return -1
}

// InsertPivot puts s before (or after) the first element equal to pivot — LINSERT. It returns
// false when no element equals pivot. Where the element goes is Redis 7.2's _quicklistInsert:
// into the pivot's node when it has room; at a node's edge, into the neighbour with room or a
// new node; else the node is split at the pivot and s joins the half on its side, which is
// then merged with its neighbours when allowed. A large element gets a plain node.
func (l List) InsertPivot(a *alloc.Arena, pivot, s []byte, after bool) (bool, error) {
	i := l.Find(a, pivot)
	if i < 0 {
		return false, nil
	}
	h, j := l.locate(a, i)
	return true, l.insertAt(a, h, j, s, after)
}

// insertAt is _quicklistInsert: s before or after entry j of node h.
func (l List) insertAt(a *alloc.Arena, h alloc.Handle, j int, s []byte, after bool) error {
	defer l.check(a)
	fill := l.Fill(a)
	nd := nodeAt(a, h)
	c := nd.count()
	full := !allowInsert(a, h, fill, len(s))
	atTail := after && j == c-1
	atHead := !after && j == 0
	prev, next := nd.prev(), nd.next()
	if isLarge(len(s), fill) {
		if nd.plain() || atTail || atHead {
			at := h
			if !after {
				at = prev
			}
			return l.insertNode(a, at, s, true)
		}
		if after {
			j++
		}
		if err := l.split(a, h, j); err != nil {
			return err
		}
		return l.insertNode(a, h, s, true)
	}
	switch {
	case !full:
		where := listpack.Before
		if after {
			where = listpack.After
		}
		nl, _, err := nd.lp().Insert(a, listpack.Seek(nd.bytes(a), j), where, s)
		if err != nil {
			return ErrNoMemory
		}
		nd.setLP(nl)
		nd.setCount(c+1, false)
		l.addLen(a, 1)
		return nil
	case atTail && allowInsert(a, next, fill, len(s)):
		nn := nodeAt(a, next)
		nl, err := nn.lp().Prepend(a, s)
		if err != nil {
			return ErrNoMemory
		}
		nn.setLP(nl)
		nn.setCount(nn.count()+1, false)
		l.addLen(a, 1)
		return nil
	case atHead && allowInsert(a, prev, fill, len(s)):
		pn := nodeAt(a, prev)
		nl, err := pn.lp().Append(a, s)
		if err != nil {
			return ErrNoMemory
		}
		pn.setLP(nl)
		pn.setCount(pn.count()+1, false)
		l.addLen(a, 1)
		return nil
	case atTail:
		return l.insertNode(a, h, s, false)
	case atHead:
		return l.insertNode(a, prev, s, false)
	}
	// Full, in the middle (or a plain node): split at the pivot; s joins the half on its side.
	if after {
		j++
	}
	if err := l.split(a, h, j); err != nil {
		return err
	}
	side, center := h, nodeAt(a, h).next() // before: the left half takes s at its end
	if after {
		center = h // the node that keeps the pivot, as _quicklistSplitNode leaves it
	}
	var err error
	if after {
		side = nodeAt(a, h).next() // after: the right half takes s at its start
		n := nodeAt(a, side)
		var nl listpack.Listpack
		if nl, err = n.lp().Prepend(a, s); err == nil {
			n.setLP(nl)
			n.setCount(n.count()+1, false)
		}
	} else {
		n := nodeAt(a, side)
		var nl listpack.Listpack
		if nl, err = n.lp().Append(a, s); err == nil {
			n.setLP(nl)
			n.setCount(n.count()+1, false)
		}
	}
	if err != nil {
		return ErrNoMemory
	}
	l.addLen(a, 1)
	l.mergeCenter(a, center)
	return nil
}

// mergeCenter is _quicklistMergeNodes around node center: the two nodes before it, the two
// after it, then center with its previous node and the result with its next, each when allowed.
func (l List) mergeCenter(a *alloc.Arena, center alloc.Handle) {
	c := nodeAt(a, center)
	prev, next := c.prev(), c.next()
	if prev != 0 {
		if pp := nodeAt(a, prev).prev(); pp != 0 {
			l.merge(a, pp, prev)
		}
	}
	if next != 0 {
		if nn := nodeAt(a, next).next(); nn != 0 {
			l.merge(a, next, nn)
		}
	}
	target := center
	if p := nodeAt(a, center).prev(); p != 0 && l.merge(a, p, center) {
		target = p
	}
	if nx := nodeAt(a, target).next(); nx != 0 {
		l.merge(a, target, nx)
	}
}

// Range calls fn for each element from index start (negative counts from the tail) towards the
// tail, or towards the head when reverse, until fn returns false. Views passed to fn are valid
// only during the call, and fn must not write to the list.
func (l List) Range(a *alloc.Arena, start int, reverse bool, fn func(s []byte, v int64, isInt bool) bool) {
	start, ok := l.norm(a, start)
	if !ok {
		return
	}
	h, j := l.locate(a, start)
	for h != 0 {
		nd := nodeAt(a, h)
		lp := nd.bytes(a)
		p := listpack.Seek(lp, j)
		for p >= 0 {
			s, v, isInt := listpack.Get(lp, p)
			if !fn(s, v, isInt) {
				return
			}
			if reverse {
				p = listpack.Prev(lp, p)
			} else {
				p = listpack.Next(lp, p)
			}
		}
		if reverse {
			h, j = nd.prev(), -1
		} else {
			h, j = nd.next(), 0
		}
	}
}

// Free gives back the whole list: root, nodes and listpacks.
func (l List) Free(a *alloc.Arena) {
	if l.h == 0 {
		return
	}
	for h := l.head(a); h != 0; {
		nd := nodeAt(a, h)
		next := nd.next()
		nd.lp().Free(a)
		a.Free(h, nodeSize)
		h = next
	}
	a.Free(l.h, headerSize)
}

// AllocSize returns exactly the bytes charged to the arena for the list.
func (l List) AllocSize(a *alloc.Arena) int {
	n := alloc.UsableSize(headerSize)
	for h := l.head(a); h != 0; {
		nd := nodeAt(a, h)
		n += alloc.UsableSize(nodeSize) + nd.lp().AllocSize(a)
		h = nd.next()
	}
	return n
}

// Copy returns a deep copy of the list in arena dst (which may be a).
func (l List) Copy(a, dst *alloc.Arena) (List, error) {
	c, err := New(dst, l.Fill(a))
	if err != nil {
		return c, err
	}
	var last alloc.Handle
	for h := l.head(a); h != 0; {
		nd := nodeAt(a, h)
		lp := listpack.FromBytes(dst, nd.bytes(a))
		if lp.IsNil() {
			c.Free(dst)
			return List{}, ErrNoMemory
		}
		nh := newNode(dst, lp, nd.count(), nd.plain())
		if nh == 0 {
			lp.Free(dst)
			c.Free(dst)
			return List{}, ErrNoMemory
		}
		c.link(dst, nh, last)
		c.addLen(dst, nd.count())
		last = nh
		h = nd.next()
	}
	c.check(dst)
	return c, nil
}
