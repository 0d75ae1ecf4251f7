package persist

import (
	"errors"
	"io"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
)

// List records to and from RDB: written as type 18 (Redis 7.2's quicklist 2), a
// listpack-encoded list as one packed node; read from type 18 (and 14 and 10, which package rdb
// reports alike) node by node, or from type 1 element by element, through listval.Builder,
// which makes a single small node a listpack-encoded list as Redis's loader does.

// listNodes is the number of nodes list record h is written as.
func listNodes(a *alloc.Arena, h alloc.Handle) int {
	n := 0
	listval.Nodes(a, h, func([]byte, bool) bool { n++; return true })
	return n
}

// appendListNodes appends the nodes of list record h: a packed node's listpack as it is, a
// plain node's element (the one entry of its listpack).
func appendListNodes(dst []byte, a *alloc.Arena, h alloc.Handle, compress bool) []byte {
	var scratch [24]byte
	listval.Nodes(a, h, func(lp []byte, plain bool) bool {
		if plain {
			s, v, isInt := listpack.Get(lp, listpack.First(lp))
			if isInt {
				s = strconv.AppendInt(scratch[:0], v, 10)
			}
			dst = rdb.AppendListNode(dst, s, true, compress)
		} else {
			dst = rdb.AppendListNode(dst, lp, false, compress)
		}
		return true
	})
	return dst
}

// appendListPart adds to b a list's part read from a dump: a node (a validated listpack, or a
// plain node's element when plain), or with elem an element of a type-1 list.
func appendListPart(b *listval.Builder, part []byte, plain, elem bool) error {
	switch {
	case elem:
		return b.AppendElem(part)
	case plain:
		return b.AppendPlain(part)
	}
	return b.AppendListpack(part)
}

// newListRecord makes a list record from the nodes (rdb.TypeListQuicklist2) or elements
// (rdb.TypeList) d reads, for NewRecord.
func newListRecord(a *alloc.Arena, key []byte, d *rdb.Decoder, ent rdb.Entry, expireMs int64) (alloc.Handle, error) {
	b := listval.NewBuilder(a, key, expireMs)
	for {
		var part []byte
		var plain bool
		var err error
		if ent.Type == rdb.TypeList {
			part, err = d.NextListElem()
		} else {
			part, plain, err = d.NextNode()
		}
		if err == io.EOF {
			break
		}
		if err == nil {
			err = appendListPart(b, part, plain, ent.Type == rdb.TypeList)
		}
		if err != nil {
			b.Abort()
			if err = oomErr(err); err != object.ErrOOM {
				err = rdb.ErrDumpData
			}
			return 0, err
		}
	}
	h, err := b.Finish()
	switch {
	case errors.Is(err, listval.ErrEmpty):
		return 0, rdb.ErrDumpData
	case err != nil:
		return 0, object.ErrOOM
	}
	return h, nil
}
