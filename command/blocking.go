package command

import (
	"math"
	"strconv"
	"time"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// The handler's side of blocking commands (BLPOP, BLMOVE, BZPOPMIN …; DESIGN §4): a handler
// that finds nothing to serve calls Block and writes nothing; the pipeline parks the connection
// on the keys, and when one of them gets a value of the awaited type it runs the same command
// line again, with the same handler — which then serves, or calls Block again.

// TimeoutReply is what a blocking command answers at once where it cannot block (inside
// MULTI): its own null. Once blocked, a time-out (or CLIENT UNBLOCK … TIMEOUT) answers the null
// array whatever the command, as Redis's replyToBlockedClientTimedOut does for lists, sorted
// sets and streams.
type TimeoutReply uint8

const (
	// TimeoutNullArray answers the null array (RESP2 *-1; RESP3 _): BLPOP, BRPOP, BLMPOP,
	// BZPOPMIN, BZPOPMAX, BZMPOP.
	TimeoutNullArray TimeoutReply = iota
	// TimeoutNullBulk answers the null bulk string (RESP2 $-1; RESP3 _): BLMOVE, BRPOPLPUSH.
	TimeoutNullBulk
)

// Errors of a blocking command's timeout argument, Redis's words (getTimeoutFromObjectOrReply).
const (
	errTimeoutNotFloat replyerr.Error = "ERR timeout is not a float or out of range"
	errTimeoutNegative replyerr.Error = "ERR timeout is negative"
	errTimeoutRange    replyerr.Error = "ERR timeout is out of range"
)

// ParseTimeout reads a blocking command's timeout — seconds, as a float ("0.1") — as Redis's
// getTimeoutFromObjectOrReply does, and returns the deadline in unix milliseconds: 0 waits
// forever. errText is Redis's error for a timeout that is not a number, is negative, or is so
// large the deadline overflows; "" when the timeout is good. Milliseconds are rounded up, as
// Redis's ceill.
func ParseTimeout(arg []byte) (deadlineMs int64, errText string) {
	if _, ok := conv.String2ld(arg); !ok {
		return 0, errTimeoutNotFloat.Error()
	}
	secs, err := strconv.ParseFloat(string(arg), 64)
	if err != nil && !math.IsInf(secs, 0) {
		return 0, errTimeoutNotFloat.Error()
	}
	ms := math.Ceil(secs * 1000)
	switch {
	case ms >= math.MaxInt64: // 2^63 as a float64: int64(ms) would overflow
		return 0, errTimeoutRange.Error()
	case ms < 0:
		return 0, errTimeoutNegative.Error()
	case ms == 0:
		return 0, ""
	}
	now := time.Now().UnixMilli()
	if int64(ms) > math.MaxInt64-now {
		return 0, errTimeoutRange.Error()
	}
	return now + int64(ms), ""
}

// blockRequest is what a handler asked for when it called Block; the pipeline reads it after
// the handler returns.
type blockRequest struct {
	on       bool
	typ      object.Type
	deadline int64    // unix ms; 0 forever
	keys     [][]byte // views into the command's arguments
}

// CanBlock reports whether the command being run may block: not inside MULTI/EXEC nor a
// script, where Redis's blocking commands answer at once as if their time had run out.
func (ctx *Ctx) CanBlock() bool { return !ctx.inScript && !ctx.Tx.InMulti() }

// Block parks the connection until one of keys holds a value of type typ, or until deadlineMs
// (unix ms; 0: no limit), when the null array is answered. The handler calls it when it has
// nothing to serve, writes nothing, and returns; keys must be arguments of the command line (the
// pipeline copies them). Where the connection cannot block (CanBlock false, or a connection that
// does not support it) onTimeout is written at once.
func (ctx *Ctx) Block(typ object.Type, deadlineMs int64, onTimeout TimeoutReply, keys ...[]byte) {
	if !ctx.CanBlock() || ctx.blocker == nil {
		writeTimeoutReply(ctx, onTimeout)
		return
	}
	r := &ctx.block
	r.on, r.typ, r.deadline = true, typ, deadlineMs
	r.keys = append(r.keys[:0], keys...)
}

// writeTimeoutReply answers a blocking command whose time ran out.
func writeTimeoutReply(ctx *Ctx, r TimeoutReply) {
	if r == TimeoutNullBulk {
		ctx.W.Null()
		return
	}
	ctx.W.NullArray()
}
