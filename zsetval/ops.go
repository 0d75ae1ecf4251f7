package zsetval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// The sorted-set type's operations for package object (Free, MEMORY USAGE, COPY/MOVE across
// shards).
func init() {
	object.RegisterCollection(object.TypeZSet, &object.CollectionOps{
		Free:       freeValue,
		AllocSize:  allocSize,
		Copy:       copyValue,
		FreeEffort: FreeEffort,
		FreeStep: func(a *alloc.Arena, enc object.Encoding, root alloc.Handle, budget int) bool {
			return FreeStep(a, root, budget)
		},
	})
}

// freeValue frees the sorted set rooted at root.
func freeValue(a *alloc.Arena, enc object.Encoding, root alloc.Handle) {
	if enc == object.EncListpack {
		listpack.FromHandle(root).Free(a)
		return
	}
	freeSkiplist(a, root)
}

// allocSize is what the sorted set rooted at root is charged: the listpack's allocation, or
// every allocation of the skiplist form.
func allocSize(a *alloc.Arena, enc object.Encoding, root alloc.Handle) int {
	if enc == object.EncListpack {
		return listpack.FromHandle(root).AllocSize(a)
	}
	z := openSkiplist(a, root)
	return z.allocSize()
}

// copyValue makes a deep copy in dst of the sorted set rooted at root in src, same encoding.
func copyValue(src *alloc.Arena, enc object.Encoding, root alloc.Handle, dst *alloc.Arena) (alloc.Handle, error) {
	if enc == object.EncListpack {
		l := listpack.FromBytes(dst, listpack.FromHandle(root).Bytes(src))
		if l.IsNil() {
			return 0, object.ErrOOM
		}
		return l.Handle(), nil
	}
	z := openSkiplist(src, root)
	return z.copyTo(dst)
}
