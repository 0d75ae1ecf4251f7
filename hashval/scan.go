package hashval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// scanStepsPerElement is Redis's bound for sparse tables: a call visits at most COUNT × 10
// buckets.
const scanStepsPerElement = 10

// Scan is HSCAN's walk of hash record rec from cursor (Redis's scanGenericCommand): it calls
// fn with pairs and returns the cursor to continue from, 0 when done. A listpack is returned
// whole in one call, whatever the cursor and count, with cursor 0, as Redis does. A table is
// scanned with htable's reverse-binary cursor — every field present for the whole scan is
// returned at least once — bucket by bucket until count elements (fields and values both
// count, as Redis's list of keys does) or count × 10 buckets. Views as Each's; fn must not
// change the hash.
func Scan(a *alloc.Arena, rec alloc.Handle, cursor uint64, count int, scratch []byte, fn func(field, value []byte)) uint64 {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		eachListpack(listpack.FromHandle(root).Bytes(a), scratch, func(f, v []byte) bool {
			fn(f, v)
			return true
		})
		return 0
	}
	t := openTable(a, root)
	elements := 0
	visit := func(h alloc.Handle) {
		f, v, _ := entryView(a, h)
		elements += 2
		fn(f, v)
	}
	for steps := max(count, 1) * scanStepsPerElement; ; steps-- {
		cursor = t.Scan(cursor, visit)
		if cursor == 0 || steps <= 1 || elements >= count {
			return cursor
		}
	}
}
