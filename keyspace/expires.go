package keyspace

import (
	"sync/atomic"
	"unsafe"

	"github.com/kvserver/kvserver/alloc"
)

// expireIndex is the TTL index of one database in one shard (the role of Redis's db->expires):
// which keys expire when, ordered by time, so that the keys due now are found without looking
// at the others. It is a B+tree of (expire ms, key hash) entries in 1 KiB nodes of the shard's
// arena.
//
// Why a tree rather than a timing wheel: a key's expire changes and disappears often (SET
// EX on a hot key, PERSIST, DEL), and an index that cannot find an entry again fills with stale
// ones — a wheel slot may hold a million entries when keys were set with the same TTL in the same
// second, so finding one there is a scan. The tree finds an entry from the record's expire and
// the key's hash in O(log n), its leftmost leaf holds the keys due next, and keys set with
// ever-later times append at its right edge, where splits leave full nodes (16.3 bytes per
// key).
//
// An entry names a key by its 64-bit hash, not by its record handle: only the table holds
// handles, and the hash selects the key's table chain (expire.go deletes the record of that
// chain whose hash and expire both match). Each record with an expire has exactly one entry,
// whose when is the record's expire. Two keys of one database with the same hash and the same
// expire ms would have equal entries: with a 64-bit hash that does not happen in practice, and
// the worst it can do is leave an entry that later finds nothing to expire.
//
// Like the table, an expireIndex belongs to its shard: all methods need the shard's lock except
// the counters' loads.
type expireIndex struct {
	arena  *alloc.Arena
	root   alloc.Handle // 0 when empty
	height int          // levels of inner nodes above the leaves
	nodes  int64

	// count is the number of entries (INFO keyspace "expires"); whenSecs is the sum of their
	// times in seconds (for "avg_ttl"). Written under the shard's lock, read by anyone.
	count    atomic.Int64
	whenSecs atomic.Int64
}

// ttlEntry is one key's place in the index.
type ttlEntry struct {
	when int64  // the record's expire, unix ms
	hash uint64 // Hash of the key
}

func (e ttlEntry) less(o ttlEntry) bool {
	return e.when < o.when || (e.when == o.when && e.hash < o.hash)
}

// Node geometry.
const (
	// ttlNodeSize is a node's allocation: 1 KiB, so a tree of a million entries is four levels
	// deep and a node's insert moves at most 1 KiB.
	ttlNodeSize = 1024
	// ttlLeafCap entries fill a leaf after its 16-byte header.
	ttlLeafCap = (ttlNodeSize - 16) / 16
	// ttlInnerCap keys and ttlInnerCap+1 child handles fill an inner node: 16 + 50×16 + 51×4.
	ttlInnerCap = 50
	// ttlLeafMin and ttlInnerMin: a node below a quarter full after a delete merges with a
	// sibling or takes entries from it, so the tree never holds more than four times its
	// entries' size however keys leave it.
	ttlLeafMin  = ttlLeafCap / 4
	ttlInnerMin = ttlInnerCap / 4
	// ttlMaxHeight bounds the tree's height: with a quarter fill at least, twelve levels hold
	// more entries than an arena can.
	ttlMaxHeight = 12
	// whenSecsCap caps one entry's share of whenSecs (year 36812), so that keys with absurd
	// expire times cannot overflow the sum.
	whenSecsCap = 1 << 40
)

type ttlHeader struct {
	n uint16 // entries (leaf) or keys (inner)
	_ [14]byte
}

type ttlLeaf struct {
	ttlHeader
	e [ttlLeafCap]ttlEntry
}

// ttlInner: kids[i] holds the entries e with keys[i-1] ≤ e < keys[i].
type ttlInner struct {
	ttlHeader
	keys [ttlInnerCap]ttlEntry
	kids [ttlInnerCap + 1]alloc.Handle
}

var (
	_ [ttlNodeSize - unsafe.Sizeof(ttlLeaf{})]byte
	_ [ttlNodeSize - unsafe.Sizeof(ttlInner{})]byte
)

func newExpireIndex(a *alloc.Arena) *expireIndex { return &expireIndex{arena: a} }

func (x *expireIndex) len() int64 { return x.count.Load() }

func (x *expireIndex) leaf(h alloc.Handle) *ttlLeaf {
	return (*ttlLeaf)(unsafe.Pointer(unsafe.SliceData(x.arena.Bytes(h, ttlNodeSize))))
}

func (x *expireIndex) inner(h alloc.Handle) *ttlInner {
	return (*ttlInner)(unsafe.Pointer(unsafe.SliceData(x.arena.Bytes(h, ttlNodeSize))))
}

func (x *expireIndex) freeNode(h alloc.Handle) {
	x.arena.Free(h, ttlNodeSize)
	x.nodes--
}

// bytes is the memory the index holds in its arena.
func (x *expireIndex) bytes() int64 { return x.nodes * ttlNodeSize }

func (x *expireIndex) counted(e ttlEntry, delta int64) {
	x.count.Store(x.count.Load() + delta)
	x.whenSecs.Store(x.whenSecs.Load() + delta*min(max(e.when/1000, 0), whenSecsCap))
}

// upperBound is the number of keys ≤ e: the child of an inner node that holds e.
func upperBound(keys []ttlEntry, e ttlEntry) int {
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if e.less(keys[m]) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// lowerBound is the number of entries < e: where e is, or goes, in a leaf.
func lowerBound(es []ttlEntry, e ttlEntry) int {
	lo, hi := 0, len(es)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if es[m].less(e) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// pathStep is an inner node on the way down and the child taken.
type pathStep struct {
	h alloc.Handle
	i int
}

// descend walks from the root to the leaf where e belongs, filling path[1..height].
func (x *expireIndex) descend(e ttlEntry, path *[ttlMaxHeight + 1]pathStep) (leaf alloc.Handle, rightmost bool) {
	h, rightmost := x.root, true
	for lvl := x.height; lvl > 0; lvl-- {
		in := x.inner(h)
		i := upperBound(in.keys[:in.n], e)
		path[lvl] = pathStep{h, i}
		rightmost = rightmost && i == int(in.n)
		h = in.kids[i]
	}
	return h, rightmost
}

// insert adds e. The only error is ErrOOM, and then the index is unchanged.
func (x *expireIndex) insert(e ttlEntry) error {
	if x.root == 0 {
		h := x.arena.Alloc(ttlNodeSize)
		if h == 0 {
			return ErrOOM
		}
		x.nodes++
		l := x.leaf(h)
		l.n, l.e[0] = 1, e
		x.root, x.height = h, 0
		x.counted(e, 1)
		return nil
	}
	var path [ttlMaxHeight + 1]pathStep
	lh, rightmost := x.descend(e, &path)
	l := x.leaf(lh)
	pos := lowerBound(l.e[:l.n], e)
	if l.n < ttlLeafCap {
		copy(l.e[pos+1:l.n+1], l.e[pos:l.n])
		l.e[pos] = e
		l.n++
		x.counted(e, 1)
		return nil
	}
	// The leaf splits, and so does every full inner node above it: allocate all new nodes
	// first, so that running out of memory leaves the tree as it was.
	need := 1
	lvl := 1
	for ; lvl <= x.height && x.inner(path[lvl].h).n == ttlInnerCap; lvl++ {
		need++
	}
	if lvl > x.height {
		need++ // the root splits: a new root
	}
	if x.height+need-1 > ttlMaxHeight {
		return ErrOOM
	}
	var fresh [ttlMaxHeight + 2]alloc.Handle
	for j := range need {
		if fresh[j] = x.arena.Alloc(ttlNodeSize); fresh[j] == 0 {
			for _, h := range fresh[:j] {
				x.arena.Free(h, ttlNodeSize)
			}
			return ErrOOM
		}
	}
	x.nodes += int64(need)
	// Appending at the right edge (later times than all): split so the left node stays full.
	appending := rightmost && pos == int(l.n)
	sep, kid := x.splitLeaf(l, fresh[0], pos, e, appending), fresh[0]
	used := 1
	for lvl := 1; lvl <= x.height; lvl++ {
		in, i := x.inner(path[lvl].h), path[lvl].i
		if in.n < ttlInnerCap {
			copy(in.keys[i+1:in.n+1], in.keys[i:in.n])
			copy(in.kids[i+2:in.n+2], in.kids[i+1:in.n+1])
			in.keys[i], in.kids[i+1] = sep, kid
			in.n++
			x.counted(e, 1)
			return nil
		}
		sep = x.splitInner(in, fresh[used], i, sep, kid, appending)
		kid = fresh[used]
		used++
	}
	r := x.inner(fresh[used])
	r.n = 1
	r.keys[0], r.kids[0], r.kids[1] = sep, x.root, kid
	x.root = fresh[used]
	x.height++
	x.counted(e, 1)
	return nil
}

// splitLeaf inserts e at pos of the full leaf l, moving the upper part to the new leaf rh, and
// returns the separator (rh's first entry).
func (x *expireIndex) splitLeaf(l *ttlLeaf, rh alloc.Handle, pos int, e ttlEntry, appending bool) ttlEntry {
	var tmp [ttlLeafCap + 1]ttlEntry
	n := int(l.n)
	copy(tmp[:pos], l.e[:pos])
	tmp[pos] = e
	copy(tmp[pos+1:], l.e[pos:n])
	total := n + 1
	split := total / 2
	if appending {
		split = n
	}
	r := x.leaf(rh)
	l.n = uint16(copy(l.e[:], tmp[:split]))
	r.n = uint16(copy(r.e[:], tmp[split:total]))
	return r.e[0]
}

// splitInner inserts key sep and child kid after child i of the full inner node in, moving the
// upper part to the new node rh, and returns the key that goes up.
func (x *expireIndex) splitInner(in *ttlInner, rh alloc.Handle, i int, sep ttlEntry, kid alloc.Handle, appending bool) ttlEntry {
	var keys [ttlInnerCap + 1]ttlEntry
	var kids [ttlInnerCap + 2]alloc.Handle
	n := int(in.n)
	copy(keys[:i], in.keys[:i])
	keys[i] = sep
	copy(keys[i+1:], in.keys[i:n])
	copy(kids[:i+1], in.kids[:i+1])
	kids[i+1] = kid
	copy(kids[i+2:], in.kids[i+1:n+1])
	total := n + 1
	mid := total / 2
	if appending {
		mid = total - 2 // the new right node starts with one key and two children
	}
	r := x.inner(rh)
	in.n = uint16(copy(in.keys[:], keys[:mid]))
	copy(in.kids[:], kids[:mid+1])
	r.n = uint16(copy(r.keys[:], keys[mid+1:total]))
	copy(r.kids[:], kids[mid+1:total+1])
	return keys[mid]
}

// delete removes e and reports whether it was there.
func (x *expireIndex) delete(e ttlEntry) bool {
	if x.root == 0 {
		return false
	}
	var path [ttlMaxHeight + 1]pathStep
	lh, _ := x.descend(e, &path)
	l := x.leaf(lh)
	pos := lowerBound(l.e[:l.n], e)
	if pos == int(l.n) || l.e[pos] != e {
		return false
	}
	copy(l.e[pos:], l.e[pos+1:l.n])
	l.n--
	x.counted(e, -1)
	x.rebalance(&path, lh)
	return true
}

// rebalance restores the minimum fill on the path of a delete, bottom up, and shortens the
// tree when its root is left with one child.
func (x *expireIndex) rebalance(path *[ttlMaxHeight + 1]pathStep, h alloc.Handle) {
	for lvl := 0; lvl < x.height; lvl++ {
		if lvl == 0 && x.leaf(h).n >= ttlLeafMin || lvl > 0 && x.inner(h).n >= ttlInnerMin {
			break
		}
		parent := x.inner(path[lvl+1].h)
		li := max(path[lvl+1].i-1, 0) // fix the pair (li, li+1): the node and a sibling
		if lvl == 0 {
			x.fixLeaves(parent, li)
		} else {
			x.fixInners(parent, li)
		}
		h = path[lvl+1].h
	}
	for x.height > 0 && x.inner(x.root).n == 0 {
		old := x.root
		x.root = x.inner(old).kids[0]
		x.height--
		x.freeNode(old)
	}
	if x.height == 0 && x.leaf(x.root).n == 0 {
		x.freeNode(x.root)
		x.root = 0
	}
}

// fixLeaves merges leaves li and li+1 of parent when they fit in one, or shares their entries
// evenly.
func (x *expireIndex) fixLeaves(parent *ttlInner, li int) {
	L, R := x.leaf(parent.kids[li]), x.leaf(parent.kids[li+1])
	if int(L.n)+int(R.n) <= ttlLeafCap {
		copy(L.e[L.n:], R.e[:R.n])
		L.n += R.n
		x.freeNode(parent.kids[li+1])
		x.removeKey(parent, li)
		return
	}
	total := int(L.n) + int(R.n)
	want := total / 2
	if int(L.n) < want {
		k := want - int(L.n)
		copy(L.e[L.n:], R.e[:k])
		copy(R.e[:], R.e[k:R.n])
	} else {
		k := int(L.n) - want
		copy(R.e[k:], R.e[:R.n])
		copy(R.e[:k], L.e[want:L.n])
	}
	L.n, R.n = uint16(want), uint16(total-want)
	parent.keys[li] = R.e[0]
}

// fixInners merges inner nodes li and li+1 of parent (with the key between them) when they fit
// in one, or shares their keys evenly through the parent.
func (x *expireIndex) fixInners(parent *ttlInner, li int) {
	L, R := x.inner(parent.kids[li]), x.inner(parent.kids[li+1])
	ln, rn := int(L.n), int(R.n)
	if ln+1+rn <= ttlInnerCap {
		L.keys[ln] = parent.keys[li]
		copy(L.keys[ln+1:], R.keys[:rn])
		copy(L.kids[ln+1:], R.kids[:rn+1])
		L.n = uint16(ln + 1 + rn)
		x.freeNode(parent.kids[li+1])
		x.removeKey(parent, li)
		return
	}
	var keys [2*ttlInnerCap + 1]ttlEntry
	var kids [2*ttlInnerCap + 2]alloc.Handle
	copy(keys[:ln], L.keys[:ln])
	keys[ln] = parent.keys[li]
	copy(keys[ln+1:], R.keys[:rn])
	copy(kids[:ln+1], L.kids[:ln+1])
	copy(kids[ln+1:], R.kids[:rn+1])
	total := ln + 1 + rn
	mid := total / 2
	L.n = uint16(copy(L.keys[:], keys[:mid]))
	copy(L.kids[:], kids[:mid+1])
	parent.keys[li] = keys[mid]
	R.n = uint16(copy(R.keys[:], keys[mid+1:total]))
	copy(R.kids[:], kids[mid+1:total+1])
}

// removeKey drops key li and child li+1 of an inner node.
func (x *expireIndex) removeKey(in *ttlInner, li int) {
	copy(in.keys[li:], in.keys[li+1:in.n])
	copy(in.kids[li+1:], in.kids[li+2:in.n+1])
	in.n--
}

// first returns the entry that expires first.
func (x *expireIndex) first() (ttlEntry, bool) {
	if x.root == 0 {
		return ttlEntry{}, false
	}
	h := x.root
	for lvl := x.height; lvl > 0; lvl-- {
		h = x.inner(h).kids[0]
	}
	return x.leaf(h).e[0], true
}

// clear frees every node: the index is empty and holds no memory.
func (x *expireIndex) clear() {
	if x.root != 0 {
		x.freeSubtree(x.root, x.height)
	}
	x.root, x.height = 0, 0
	x.count.Store(0)
	x.whenSecs.Store(0)
}

func (x *expireIndex) freeSubtree(h alloc.Handle, height int) {
	if height > 0 {
		in := x.inner(h)
		for _, kid := range in.kids[:in.n+1] {
			x.freeSubtree(kid, height-1)
		}
	}
	x.freeNode(h)
}
