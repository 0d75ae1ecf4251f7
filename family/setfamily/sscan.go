package setfamily

import (
	"strconv"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/scanargs"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/setval"
)

// sscanCommand: SSCAN key cursor [MATCH pattern] [COUNT count] — the next cursor and a batch of
// members. A listpack or an intset comes whole, with cursor 0; a hash table by htable's cursor,
// with Redis's guarantee. The cursor is checked first, then the key (a missing key answers an
// empty scan whatever the options), then the options (scanargs: TYPE is SCAN's only).
func sscanCommand(ctx *command.Ctx) {
	cursor, ok := scanargs.ParseCursor(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(scanargs.ErrInvalidCursor.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := lookupRead(ctx, sh, key)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
		return
	case !found:
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
	var buf []byte
	var ends []int
	next := setval.Scan(sh.Arena(), rec, cursor, opts.Count, ctx.Scratch[:0], func(m []byte) {
		if !opts.UsePattern || glob.Match(opts.Pattern, m, false) {
			buf = append(buf, m...)
			ends = append(ends, len(buf))
		}
	})
	ctx.W.Array(2)
	ctx.W.Bulk(strconv.AppendUint(ctx.Scratch[:0], next, 10))
	ctx.W.Array(len(ends))
	start := 0
	for _, end := range ends {
		ctx.W.Bulk(buf[start:end])
		start = end
	}
}
