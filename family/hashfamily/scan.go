package hashfamily

import (
	"strconv"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/scanargs"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/hashval"
)

// hscanCommand: HSCAN key cursor [MATCH pattern] [COUNT count] — Redis 7.2's hscanCommand:
// the cursor is checked first, then the key (a missing key answers an empty scan without
// looking at the options), then the options. A listpack hash comes whole with cursor 0; a
// table is scanned with SCAN's guarantee. MATCH filters on fields; a field and its value
// come or go together.
func hscanCommand(ctx *command.Ctx) {
	cursor, ok := scanargs.ParseCursor(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(scanargs.ErrInvalidCursor.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if !found {
		ctx.W.Array(2)
		ctx.W.BulkString("0")
		ctx.W.Array(0)
		return
	}
	opts, err := scanargs.Parse(ctx.Args, 3)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	// The reply starts with the next cursor: the pairs are collected first.
	var buf []byte
	var ends []int
	next := hashval.Scan(sh.Arena(), rec, cursor, opts.Count, ctx.Scratch[:0], func(f, v []byte) {
		if opts.UsePattern && !glob.Match(opts.Pattern, f, false) {
			return
		}
		buf = append(buf, f...)
		ends = append(ends, len(buf))
		buf = append(buf, v...)
		ends = append(ends, len(buf))
	})
	w := ctx.W
	w.Array(2)
	w.Bulk(strconv.AppendUint(ctx.Scratch[:0], next, 10))
	w.Array(len(ends))
	start := 0
	for _, end := range ends {
		w.Bulk(buf[start:end])
		start = end
	}
}
