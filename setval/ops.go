package setval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// Sets' operations for package object (Free, MEMORY USAGE, COPY), which knows a set only by
// its encoding and root.
func init() {
	object.RegisterCollection(object.TypeSet, &object.CollectionOps{
		Free: func(a *alloc.Arena, enc object.Encoding, root alloc.Handle) {
			value{enc, root}.free(a)
		},
		AllocSize: func(a *alloc.Arena, enc object.Encoding, root alloc.Handle) int {
			return value{enc, root}.allocSize(a)
		},
		Copy: func(src *alloc.Arena, enc object.Encoding, root alloc.Handle, dst *alloc.Arena) (alloc.Handle, error) {
			nv, err := value{enc, root}.copyTo(src, dst)
			return nv.root, err
		},
	})
}
