package stringfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// checkStringLength is Redis's checkStringLength: a string of size+add bytes must fit in
// proto-max-bulk-len, and the sum must not overflow.
func checkStringLength(ctx *command.Ctx, size, add int64) error {
	total := int64(uint64(size) + uint64(add))
	if total > ctx.Cfg.ProtoMaxBulkLen() || total < size || total < add {
		return errStringTooLong
	}
	return nil
}

// appendCommand: APPEND key value — the new length.
func appendCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	n, err := opAppend(ctx, ctx.Shard(key), key, ctx.Args.Arg(2))
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.Notify(keyspace.NotifyString, "append", key)
	ctx.W.Int(int64(n))
}

// opAppend appends tail to key's value and returns the new length. A missing key is set as
// SET would set it; an existing value becomes raw, with room to grow (Redis's greedy sds).
func opAppend(ctx *command.Ctx, sh *keyspace.Shard, key, tail []byte) (int, error) {
	h, found := ctx.LookupWrite(sh, key)
	if !found {
		return len(tail), ctx.SetString(sh, key, tail, 0)
	}
	a := sh.Arena()
	if object.TypeOf(a, h) != object.TypeString {
		return 0, replyerr.WrongType
	}
	if err := checkStringLength(ctx, int64(object.ValueLen(a, h)), int64(len(tail))); err != nil {
		return 0, err
	}
	nh, n, err := object.Append(a, h, tail)
	sh.UpdateLocked(ctx.DB, key, h, nh) // the record may have moved, even on error
	return n, err
}

// strlenCommand: STRLEN key — 0 for a missing key.
func strlenCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	n, err := opStrlen(ctx, ctx.Shard(key), key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Int(int64(n))
}

// opStrlen is the length of key's value, 0 if missing (a read lookup: counted).
func opStrlen(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (int, error) {
	h, found := ctx.LookupRead(sh, key)
	switch {
	case !found:
		return 0, nil
	case object.TypeOf(sh.Arena(), h) != object.TypeString:
		return 0, replyerr.WrongType
	}
	return object.ValueLen(sh.Arena(), h), nil
}

// getrangeCommand: GETRANGE key start end (and SUBSTR) — the bytes from start to end
// inclusive; an empty string for a missing key or an empty range. The indexes are checked
// before the key.
func getrangeCommand(ctx *command.Ctx) {
	start, ok := conv.String2ll(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	end, ok := conv.String2ll(ctx.Args.Arg(3))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	key := ctx.Args.Arg(1)
	val, err := opGetRange(ctx, ctx.Shard(key), key, start, end)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Bulk(val)
}

// opGetRange is Redis's OpGetRange: the part of key's value from start to end (a view valid
// under sh's lock), empty for a missing key.
func opGetRange(ctx *command.Ctx, sh *keyspace.Shard, key []byte, start, end int64) ([]byte, error) {
	val, found, err := opGet(ctx, sh, key)
	if err != nil || !found {
		return nil, err
	}
	lo, hi := getrangeBounds(start, end, len(val))
	return val[lo:hi], nil
}

// getrangeBounds turns GETRANGE's inclusive start and end into the slice [lo:hi] of a value
// of n bytes, as Redis's getrangeCommand: both negative with start after end is empty; then
// negative indexes count from the end, are clamped to 0, end to the last byte; start after end
// is empty.
func getrangeBounds(start, end int64, n int) (lo, hi int) {
	if start < 0 && end < 0 && start > end {
		return 0, 0
	}
	ln := int64(n)
	if start < 0 {
		start += ln
	}
	if end < 0 {
		end += ln
	}
	start, end = max(start, 0), max(end, 0)
	if end >= ln {
		end = ln - 1
	}
	if start > end || ln == 0 {
		return 0, 0
	}
	return int(start), int(end) + 1
}

// setrangeCommand: SETRANGE key offset value — the new length. The offset is checked first
// (an integer, not negative).
func setrangeCommand(ctx *command.Ctx) {
	offset, ok := conv.String2ll(ctx.Args.Arg(2))
	if !ok {
		ctx.W.Error(replyerr.NotInteger.Error())
		return
	}
	if offset < 0 {
		ctx.W.Error(errOffsetRange.Error())
		return
	}
	key := ctx.Args.Arg(1)
	n, err := opSetRange(ctx, ctx.Shard(key), key, offset, ctx.Args.Arg(3))
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Int(int64(n))
}

// opSetRange writes val into key's value at offset, zero-filling the gap before it, and
// returns the new length. Writing nothing answers the current length (0 for a missing key,
// which is not created); the length is checked against proto-max-bulk-len otherwise.
func opSetRange(ctx *command.Ctx, sh *keyspace.Shard, key []byte, offset int64, val []byte) (int, error) {
	a := sh.Arena()
	h, found := ctx.LookupWrite(sh, key)
	if found && object.TypeOf(a, h) != object.TypeString {
		return 0, replyerr.WrongType
	}
	if len(val) == 0 {
		if !found {
			return 0, nil
		}
		return object.ValueLen(a, h), nil
	}
	if err := checkStringLength(ctx, offset, int64(len(val))); err != nil {
		return 0, err
	}
	if !found {
		// A new raw value of exactly offset+len(val) bytes, as Redis's sdsnewlen.
		n := int(offset) + len(val)
		nh, err := object.NewZeroString(a, key, n)
		if err != nil {
			return 0, err
		}
		copy(object.Value(a, nh, nil)[offset:], val)
		if err := sh.InsertLocked(ctx.DB, key, nh); err != nil {
			object.Free(a, nh)
			return 0, err
		}
		ctx.NotifyNew(key)
		ctx.Notify(keyspace.NotifyString, "setrange", key)
		return n, nil
	}
	nh, n, err := object.SetRange(a, h, int(offset), val)
	sh.UpdateLocked(ctx.DB, key, h, nh) // the record may have moved, even on error
	if err == nil {
		ctx.Notify(keyspace.NotifyString, "setrange", key)
	}
	return n, err
}
