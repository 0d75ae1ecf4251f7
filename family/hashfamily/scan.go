package hashfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/scanargs"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/object"
)

// hscanCommand: HSCAN key cursor [MATCH pattern] [COUNT count] — Redis 7.2's hscanCommand:
// the cursor is checked first, then the key (a missing key answers an empty scan without
// looking at the options), then the options. A listpack hash comes whole with cursor 0; a
// table is scanned with SCAN's guarantee. MATCH filters on fields; a field and its value
// come or go together.
func hscanCommand(ctx *command.Ctx) {
	scanargs.Run(ctx, object.TypeHash, func(a *alloc.Arena, rec alloc.Handle, cursor uint64, o scanargs.Options, scratch []byte, emit func([]byte)) uint64 {
		return hashval.Scan(a, rec, cursor, o.Count, scratch, func(f, v []byte) {
			if o.Matches(f) {
				emit(f)
				emit(v)
			}
		})
	})
}
