package listval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/quicklist"
)

// The list type's operations for package object (Free, MEMORY USAGE, COPY/MOVE across shards).
func init() {
	object.RegisterCollection(object.TypeList, &object.CollectionOps{
		Free:      freeValue,
		AllocSize: allocSize,
		Copy:      copyValue,
	})
}

// freeValue frees the list rooted at root: the listpack, or the quicklist's header, nodes and
// listpacks.
func freeValue(a *alloc.Arena, enc object.Encoding, root alloc.Handle) {
	if enc == object.EncListpack {
		listpack.FromHandle(root).Free(a)
		return
	}
	quicklist.FromHandle(root).Free(a)
}

// allocSize is what the list rooted at root is charged: the listpack's allocation, or the
// quicklist's header, nodes and listpacks (a walk of the nodes: O(nodes)).
func allocSize(a *alloc.Arena, enc object.Encoding, root alloc.Handle) int {
	if enc == object.EncListpack {
		return listpack.FromHandle(root).AllocSize(a)
	}
	return quicklist.FromHandle(root).AllocSize(a)
}

// copyValue makes a deep copy in dst of the list rooted at root in src, in the same encoding.
func copyValue(src *alloc.Arena, enc object.Encoding, root alloc.Handle, dst *alloc.Arena) (alloc.Handle, error) {
	if enc == object.EncListpack {
		l := listpack.FromBytes(dst, listpack.FromHandle(root).Bytes(src))
		if l.IsNil() {
			return 0, object.ErrOOM
		}
		return l.Handle(), nil
	}
	q, err := quicklist.FromHandle(root).Copy(src, dst)
	if err != nil {
		return 0, object.ErrOOM
	}
	return q.Handle(), nil
}
