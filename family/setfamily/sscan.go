package setfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/scanargs"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/setval"
)

// sscanCommand: SSCAN key cursor [MATCH pattern] [COUNT count] — the next cursor and a batch of
// members. A listpack or an intset comes whole, with cursor 0; a hash table by htable's cursor,
// with Redis's guarantee. The cursor is checked first, then the key (a missing key answers an
// empty scan whatever the options), then the options (scanargs: TYPE is SCAN's only).
func sscanCommand(ctx *command.Ctx) {
	scanargs.Run(ctx, object.TypeSet, func(a *alloc.Arena, rec alloc.Handle, cursor uint64, o scanargs.Options, scratch []byte, emit func([]byte)) uint64 {
		return setval.Scan(a, rec, cursor, o.Count, scratch, func(m []byte) {
			if o.Matches(m) {
				emit(m)
			}
		})
	})
}
