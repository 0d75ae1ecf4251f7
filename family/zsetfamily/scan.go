package zsetfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/scanargs"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/resp"
	"github.com/kvserver/kvserver/zsetval"
)

// zscanCommand: ZSCAN key cursor [MATCH pattern] [COUNT count] — the next cursor and a batch
// of members, each followed by its score as Redis prints it (d2string). A listpack comes
// whole with cursor 0; a skiplist by its hash table's cursor. MATCH filters on the member.
// The checks come in scanGenericCommand's order (scanargs.Run).
func zscanCommand(ctx *command.Ctx) {
	scanargs.Run(ctx, object.TypeZSet, func(a *alloc.Arena, rec alloc.Handle, cursor uint64, o scanargs.Options, scratch []byte, emit func([]byte)) uint64 {
		var num [32]byte
		return zsetval.Scan(a, rec, cursor, o.Count, scratch, func(member []byte, score float64) {
			if o.Matches(member) {
				emit(member)
				emit(resp.AppendDouble(num[:0], score))
			}
		})
	})
}
