package scanargs

import (
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/object"
)

// Matches reports whether b passes MATCH (always, without a pattern).
func (o Options) Matches(b []byte) bool { return !o.UsePattern || glob.Match(o.Pattern, b, false) }

// Scanner scans the collection rec from cursor for about o.Count elements and returns the next
// cursor, calling emit for each reply element it keeps: a member, or a hash's field and then
// its value, filtered with o.Matches. scratch is formatting space (an intset's integers).
type Scanner func(a *alloc.Arena, rec alloc.Handle, cursor uint64, o Options, scratch []byte, emit func(b []byte)) uint64

// Run is the whole of HSCAN, SSCAN (and ZSCAN): key cursor [MATCH pattern] [COUNT count] on a
// key of type t, as Redis's scanGenericCommand orders its checks — the cursor first, then the
// key (WRONGTYPE; a missing key answers an empty scan whatever the options), then the options.
// The reply is the next cursor and the elements scan kept; they are collected first, since the
// cursor comes before them.
func Run(ctx *command.Ctx, t object.Type, scan Scanner) {
	cursor, ok := ParseCursor(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(ErrInvalidCursor.Error())
		return
	}
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, found, err := ctx.LookupReadType(sh, key, t)
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
	opts, err := Parse(ctx.Args, 3)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	var r Reply
	next := scan(sh.Arena(), rec, cursor, opts, ctx.Scratch[:0], r.Add)
	r.Write(ctx, next)
}

// Reply collects a scan's elements, copied out of the arena, so that the next cursor can be
// written before them: the SCAN family's reply, [cursor, [elements…]].
type Reply struct {
	buf  []byte
	ends []int
}

// Add appends a copy of b.
func (r *Reply) Add(b []byte) {
	r.buf = append(r.buf, b...)
	r.ends = append(r.ends, len(r.buf))
}

// Write writes the reply: next, then the elements added.
func (r *Reply) Write(ctx *command.Ctx, next uint64) {
	w := ctx.W
	w.Array(2)
	w.Bulk(strconv.AppendUint(ctx.Scratch[:0], next, 10))
	w.Array(len(r.ends))
	start := 0
	for _, end := range r.ends {
		w.Bulk(r.buf[start:end])
		start = end
	}
}
