package setfamily

import (
	"bytes"
	"strconv"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/setval"
)

// sscanArgs are SSCAN's options, parsed.
type sscanArgs struct {
	count   int
	pattern []byte // nil: no MATCH, or MATCH *
}

// maxScanCount bounds COUNT, as SCAN's (keyfamily): a call visits at most ten times as many
// buckets.
const maxScanCount = 1 << 40

// parseScanCursor is Redis's parseScanCursorOrReply (C's strtoul): up to a NUL byte, no leading
// space, an optional sign then decimal digits within 64 bits; the empty string is 0. SCAN's
// parser (keyfamily) has the same rules.
func parseScanCursor(arg []byte) (uint64, bool) {
	if i := bytes.IndexByte(arg, 0); i >= 0 {
		arg = arg[:i]
	}
	if len(arg) > 0 && conv.IsSpace(arg[0]) {
		return 0, false
	}
	v, whole, overflow := conv.Strtoull(arg, 10)
	return v, whole && !overflow
}

// parseSscanOptions parses SSCAN's options (args from 3) as scanGenericCommand does for an
// object: COUNT and MATCH, the last one given counting; TYPE is SCAN's only, a syntax error.
func parseSscanOptions(ctx *command.Ctx) (sscanArgs, error) {
	sa := sscanArgs{count: 10}
	for i := 3; i < ctx.Args.Len(); i += 2 {
		opt, more := ctx.Args.Arg(i), ctx.Args.Len()-i >= 2
		switch {
		case conv.EqFold(opt, "count") && more:
			v, ok := conv.String2ll(ctx.Args.Arg(i + 1))
			if !ok {
				return sa, replyerr.NotInteger
			}
			if v < 1 {
				return sa, replyerr.Syntax
			}
			sa.count = int(min(v, maxScanCount))
		case conv.EqFold(opt, "match") && more:
			sa.pattern = ctx.Args.Arg(i + 1)
			if len(sa.pattern) == 1 && sa.pattern[0] == '*' {
				sa.pattern = nil
			}
		default:
			return sa, replyerr.Syntax
		}
	}
	return sa, nil
}

// sscanCommand: SSCAN key cursor [MATCH pattern] [COUNT count] — the next cursor and a batch of
// members. A listpack or an intset comes whole, with cursor 0; a hash table by htable's cursor,
// with Redis's guarantee. The cursor is checked first, then the key (a missing key answers an
// empty scan whatever the options), then the options.
func sscanCommand(ctx *command.Ctx) {
	cursor, ok := parseScanCursor(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(errBadCursor.Error())
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
	sa, err := parseSscanOptions(ctx)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	var buf []byte
	var ends []int
	next := setval.Scan(sh.Arena(), rec, cursor, sa.count, ctx.Scratch[:0], func(m []byte) {
		if sa.pattern == nil || glob.Match(sa.pattern, m, false) {
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
