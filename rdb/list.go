package rdb

import (
	"fmt"
	"io"

	"github.com/kvserver/kvserver/listpack"
)

// Lists. Redis 7.2 writes every list as type 18 (a quicklist of listpacks, also for a
// listpack-encoded list: one packed node): the node count, then per node its container (1
// plain, 2 packed) and a string — a packed node's listpack bytes, a plain node's element as it
// is — LZF-compressed like any string (a node list-compress-depth keeps compressed is saved as
// its LZF bytes, rdbSaveLzfBlob: the same string encoding). Older dumps hold type 14 (a
// quicklist of ziplists, Redis 3.2 to 6.2), 10 (one ziplist, Redis 2.6 to 3.0) and 1 (a linked
// list: its elements). The decoder reports 18 and 14 alike, as TypeListQuicklist2 whose nodes
// NextNode reads one at a time (each ziplist converted to a listpack, each listpack validated
// deep), and 1 and 10 as TypeList whose elements NextListElem reads (type 10's from its
// ziplist, validated and converted whole first): a list of a million elements is never a Go
// value of that size.

// Quicklist node containers (quicklist.h's QUICKLIST_NODE_CONTAINER_*).
const (
	containerPlain  = 1
	containerPacked = 2
)

// readListValue reads the head of a list value of type t (TypeList, TypeListZiplist,
// TypeListQuicklist, TypeListQuicklist2) into ent and d.elems.
func (d *Decoder) readListValue(t byte, ent *Entry) error {
	if t == TypeListZiplist {
		blob, err := d.readString(slotValue)
		if err != nil {
			return err
		}
		var dst []byte
		if d.reuse(slotConv) {
			dst = d.bufs[slotConv]
		}
		lp, n, err := ziplistToListpack(blob, dst, "list", nil)
		if err != nil {
			return err
		}
		if d.reuse(slotConv) {
			d.bufs[slotConv] = lp
		}
		if n == 0 {
			return errEmptyKey
		}
		// Its elements, read from memory by NextListElem: Redis's loader pushes them one by
		// one (quicklistPushTail), so the nodes follow the current fill.
		ent.Type, ent.Len = TypeList, uint64(n)
		d.elems = elemState{typ: TypeList, left: uint64(n), node: lp, at: listpack.First(lp)}
		return nil
	}
	n, err := d.readPlainLen()
	if err != nil {
		return err
	}
	if n == 0 {
		return errEmptyKey
	}
	ent.Len = n
	if t == TypeList {
		ent.Type = TypeList
		d.elems = elemState{typ: TypeList, left: n}
		return nil
	}
	ent.Type = TypeListQuicklist2
	d.elems = elemState{typ: TypeListQuicklist2, left: n, src: t}
	return nil
}

// NextNode returns the next node of the list Next returned last (Type TypeListQuicklist2): a
// validated listpack (plain false) or a plain node's element (plain true), or io.EOF once all
// nodes are read. Empty packed nodes are skipped, as Redis's loader skips them: a list all of
// whose nodes are empty gives no node at all, and its loader must treat it as an empty key
// (Redis skips it in a file, RESTORE refuses it). With ReuseBuffers the node is valid until
// the next call; else it is a new slice.
func (d *Decoder) NextNode() (node []byte, plain bool, err error) {
	if d.err != nil {
		return nil, false, d.err
	}
	e := &d.elems
	for {
		if e.typ != TypeListQuicklist2 || e.left == 0 {
			return nil, false, io.EOF
		}
		node, plain, err = d.readNode(e.src)
		if err != nil {
			return nil, false, d.elemErr(err)
		}
		if e.left--; e.left == 0 {
			*e = elemState{}
		}
		if node != nil {
			return node, plain, nil
		}
	}
}

// readNode reads one node of a quicklist of type src (TypeListQuicklist2: container and
// string; TypeListQuicklist: a ziplist, converted): the node, or nil for an empty packed one.
func (d *Decoder) readNode(src byte) ([]byte, bool, error) {
	container := uint64(containerPacked)
	if src == TypeListQuicklist2 {
		c, err := d.readPlainLen()
		if err != nil {
			return nil, false, err
		}
		if c != containerPacked && c != containerPlain {
			return nil, false, fmt.Errorf("%w: quicklist integrity check failed (container %d)", ErrCorrupt, c)
		}
		container = c
	}
	data, err := d.readString(slotElem)
	if err != nil {
		return nil, false, err
	}
	if len(data) == 0 {
		return nil, false, fmt.Errorf("%w: empty quicklist node", ErrCorrupt)
	}
	if container == containerPlain {
		return data, true, nil
	}
	if src == TypeListQuicklist {
		var dst []byte
		if d.reuse(slotConv) {
			dst = d.bufs[slotConv]
		}
		lp, n, err := ziplistToListpack(data, dst, "quicklist", nil)
		if err != nil {
			return nil, false, err
		}
		if d.reuse(slotConv) {
			d.bufs[slotConv] = lp
		}
		if n == 0 {
			return nil, false, nil
		}
		return lp, false, nil
	}
	if listpack.Validate(data, true, nil) != nil {
		return nil, false, fmt.Errorf("%w: list listpack integrity check failed", ErrCorrupt)
	}
	if listpack.Len(data) == 0 {
		return nil, false, nil
	}
	return data, false, nil
}

// NextListElem returns the next element of the list Next returned last (Type TypeList), or
// io.EOF once all Entry.Len elements are read. With ReuseBuffers it is valid until the next
// call.
func (d *Decoder) NextListElem() ([]byte, error) { return d.nextSingle(TypeList) }

// AppendListHead appends the head of a list (type 18) of n nodes: the caller then appends
// exactly n with AppendListNode. The rest as AppendString.
func AppendListHead(b []byte, ent Entry, n uint64, compress bool) []byte {
	return appendLen(appendHead(b, ent, TypeListQuicklist2, compress), n)
}

// AppendListNode appends one node of a list as Redis 7.2 writes it: the container, then the
// listpack's bytes (plain false) or the plain node's element (plain true) as a string (LZF
// where compress allows).
func AppendListNode(b, node []byte, plain, compress bool) []byte {
	c := uint64(containerPacked)
	if plain {
		c = containerPlain
	}
	return appendString(appendLen(b, c), node, compress)
}
