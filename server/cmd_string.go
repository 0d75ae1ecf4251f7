package server

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// stringCommands are the @string family. Arity, flags and key positions are those of Redis's
// src/commands/*.json (COMMAND INFO).
func stringCommands() []*command {
	return []*command{
		{Name: "get", Arity: 2, Flags: cmdReadOnly | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: getCommand},
		{Name: "set", Arity: -3, Flags: cmdWrite | cmdDenyOOM, First: 1, Last: 1, Step: 1, Cats: catString, Proc: setCommand},
		{Name: "setnx", Arity: 3, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: setnxCommand},
		{Name: "setex", Arity: 4, Flags: cmdWrite | cmdDenyOOM, First: 1, Last: 1, Step: 1, Cats: catString, Proc: setexCommand},
		{Name: "psetex", Arity: 4, Flags: cmdWrite | cmdDenyOOM, First: 1, Last: 1, Step: 1, Cats: catString, Proc: psetexCommand},
		{Name: "getset", Arity: 3, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: getsetCommand},
		{Name: "getdel", Arity: 2, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: getdelCommand},
		{Name: "getex", Arity: -2, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: getexCommand},
		{Name: "mget", Arity: -2, Flags: cmdReadOnly | cmdFast, First: 1, Last: -1, Step: 1, Cats: catString, Proc: mgetCommand},
		{Name: "mset", Arity: -3, Flags: cmdWrite | cmdDenyOOM, First: 1, Last: -1, Step: 2, Cats: catString, Proc: msetCommand},
		{Name: "msetnx", Arity: -3, Flags: cmdWrite | cmdDenyOOM, First: 1, Last: -1, Step: 2, Cats: catString, Proc: msetnxCommand},
		{Name: "append", Arity: 3, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: appendCommand},
		{Name: "strlen", Arity: 2, Flags: cmdReadOnly | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: strlenCommand},
		{Name: "incr", Arity: 2, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: incrCommand},
		{Name: "decr", Arity: 2, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: decrCommand},
		{Name: "incrby", Arity: 3, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: incrbyCommand},
		{Name: "decrby", Arity: 3, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: decrbyCommand},
		{Name: "incrbyfloat", Arity: 3, Flags: cmdWrite | cmdDenyOOM | cmdFast, First: 1, Last: 1, Step: 1, Cats: catString, Proc: incrbyfloatCommand},
		{Name: "getrange", Arity: 4, Flags: cmdReadOnly, First: 1, Last: 1, Step: 1, Cats: catString, Proc: getrangeCommand},
		{Name: "substr", Arity: 4, Flags: cmdReadOnly, First: 1, Last: 1, Step: 1, Cats: catString, Proc: getrangeCommand},
		{Name: "setrange", Arity: 4, Flags: cmdWrite | cmdDenyOOM, First: 1, Last: 1, Step: 1, Cats: catString, Proc: setrangeCommand},
	}
}

// Error texts of the string family, word for word as Redis 7.2 (t_string.c) writes them.
const (
	errDecrOverflow  = "ERR decrement would overflow"
	errNaNOrInfinity = "ERR increment would produce NaN or Infinity"
	errOffsetRange   = "ERR offset is out of range"
	errStringTooLong = "ERR string exceeds maximum allowed size (proto-max-bulk-len)"
)

// Errors of the string operations (the op… functions); their texts are the replies.
var (
	errStrWrongType  = errors.New(errWrongType)
	errStrNotInteger = errors.New(errNotInteger)
	errStrNotFloat   = errors.New(errNotFloat)
	errStrOverflow   = errors.New(errOverflow)
	errStrNaNOrInf   = errors.New(errNaNOrInfinity)
	errStrTooLong    = errors.New(errStringTooLong)
)

// replyError writes err, an operation's error: a string-family error or the keyspace's OOM.
func (c *client) replyError(err error) { c.w.Error(err.Error()) }

// isString reports whether record h is a string (else: WRONGTYPE).
func isString(sh *shard, h alloc.Handle) bool {
	return object.TypeOf(sh.Arena(), h) == object.TypeString
}

// lookupStringLocked is the read lookup of the string commands: found says whether key exists;
// ok false means it holds another type and WRONGTYPE has been replied.
func (c *client) lookupStringLocked(sh *shard, key []byte) (h alloc.Handle, found, ok bool) {
	h, found = c.lookupReadLocked(sh, key)
	if found && !isString(sh, h) {
		c.w.Error(errWrongType)
		return h, true, false
	}
	return h, found, true
}

// getCommand: GET key.
func getCommand(c *client, args querybuf.Args) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	c.getGenericLocked(sh, key)
}

// getGenericLocked replies with the string value of key (copied into the reply under the
// lock), a null, or WRONGTYPE: Redis's getGenericCommand, shared by GET, GETSET, GETDEL and
// SET…GET. It reports false on WRONGTYPE.
func (c *client) getGenericLocked(sh *shard, key []byte) bool {
	h, found, ok := c.lookupStringLocked(sh, key)
	if !ok {
		return false
	}
	if !found {
		c.w.Null()
		return true
	}
	c.w.Bulk(object.Value(sh.Arena(), h, c.scratch[:0]))
	return true
}

// SET flags, as Redis's OBJ_SET_* and OBJ_* bits.
const (
	setNX = 1 << iota
	setXX
	setGet
	setKeepTTL
	setEX
	setPX
	setEXAT
	setPXAT
	setPersist
)

const setExpireFlags = setEX | setPX | setEXAT | setPXAT

// The option families of parseSetOptions: Redis's COMMAND_SET and COMMAND_GET.
const (
	// optsSet is SET's: NX XX GET KEEPTTL EX PX EXAT PXAT, after the key and value.
	optsSet = iota
	// optsGetEx is GETEX's: PERSIST EX PX EXAT PXAT, after the key.
	optsGetEx
)

// parseSetOptions is Redis's parseExtendedStringArgumentsOrReply: one loop collects the
// flags and the expire argument of SET (optsSet) or GETEX (optsGetEx). A repeated option is
// accepted (the last value wins); conflicting ones (NX and XX, two kinds of expire, KEEPTTL
// or PERSIST with an expire), an option of the other command, or an expire without its
// argument are a syntax error. The number is converted afterwards, so a syntax error is
// found before a bad number.
func parseSetOptions(args querybuf.Args, typ int) (flags int, expire []byte, ok bool) {
	from := 3
	if typ == optsGetEx {
		from = 2
	}
	isSet := typ == optsSet
	for j := from; j < args.Len(); j++ {
		opt := args.Arg(j)
		hasNext := j+1 < args.Len()
		switch {
		case eqFold(opt, "nx") && flags&setXX == 0 && isSet:
			flags |= setNX
		case eqFold(opt, "xx") && flags&setNX == 0 && isSet:
			flags |= setXX
		case eqFold(opt, "get") && isSet:
			flags |= setGet
		case eqFold(opt, "keepttl") && flags&(setPersist|setExpireFlags) == 0 && isSet:
			flags |= setKeepTTL
		case eqFold(opt, "persist") && flags&(setKeepTTL|setExpireFlags) == 0 && !isSet:
			flags |= setPersist
		case eqFold(opt, "ex") && flags&(setKeepTTL|setPersist|setExpireFlags&^setEX) == 0 && hasNext:
			flags |= setEX
			expire = args.Arg(j + 1)
			j++
		case eqFold(opt, "px") && flags&(setKeepTTL|setPersist|setExpireFlags&^setPX) == 0 && hasNext:
			flags |= setPX
			expire = args.Arg(j + 1)
			j++
		case eqFold(opt, "exat") && flags&(setKeepTTL|setPersist|setExpireFlags&^setEXAT) == 0 && hasNext:
			flags |= setEXAT
			expire = args.Arg(j + 1)
			j++
		case eqFold(opt, "pxat") && flags&(setKeepTTL|setPersist|setExpireFlags&^setPXAT) == 0 && hasNext:
			flags |= setPXAT
			expire = args.Arg(j + 1)
			j++
		default:
			return 0, nil, false
		}
	}
	return flags, expire, true
}

// expireMillisOrReply converts an expire argument to an absolute unix time in ms, as Redis's
// getExpireMillisecondsOrReply: not an integer → not an integer; ≤ 0, or seconds that would
// overflow → invalid expire time; relative times are added to now, and an overflow there is an
// invalid expire time too.
func (c *client) expireMillisOrReply(arg []byte, flags int, cmdName string, now int64) (int64, bool) {
	v, ok := parseInt(arg)
	if !ok {
		c.w.Error(errNotInteger)
		return 0, false
	}
	seconds := flags&(setEX|setEXAT) != 0
	if v <= 0 || (seconds && v > maxInt64/1000) {
		c.w.Error(fmt.Sprintf(errInvalidExpire, cmdName))
		return 0, false
	}
	if seconds {
		v *= 1000
	}
	if flags&(setEX|setPX) != 0 {
		v += now
	}
	if v <= 0 {
		c.w.Error(fmt.Sprintf(errInvalidExpire, cmdName))
		return 0, false
	}
	return v, true
}

const maxInt64 = 1<<63 - 1

// setCommand: SET key value [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL].
func setCommand(c *client, args querybuf.Args) {
	flags, expireArg, ok := parseSetOptions(args, optsSet)
	if !ok {
		c.w.Error(errSyntax)
		return
	}
	var expireAt int64
	if expireArg != nil {
		if expireAt, ok = c.expireMillisOrReply(expireArg, flags, "set", nowMs()); !ok {
			return
		}
	}
	c.setGeneric(args.Arg(1), args.Arg(2), flags, expireAt, setReplyOK)
}

// setnxCommand: SETNX key value — SET NX answering 1 or 0.
func setnxCommand(c *client, args querybuf.Args) {
	c.setGeneric(args.Arg(1), args.Arg(2), setNX, 0, setReplyInt)
}

// setexCommand: SETEX key seconds value.
func setexCommand(c *client, args querybuf.Args) {
	setexGeneric(c, args, setEX, "setex")
}

// psetexCommand: PSETEX key milliseconds value.
func psetexCommand(c *client, args querybuf.Args) {
	setexGeneric(c, args, setPX, "psetex")
}

func setexGeneric(c *client, args querybuf.Args, unit int, name string) {
	expireAt, ok := c.expireMillisOrReply(args.Arg(2), unit, name, nowMs())
	if !ok {
		return
	}
	c.setGeneric(args.Arg(1), args.Arg(3), unit, expireAt, setReplyOK)
}

// getsetCommand: GETSET key value — SET key value GET.
func getsetCommand(c *client, args querybuf.Args) {
	c.setGeneric(args.Arg(1), args.Arg(2), setGet, 0, setReplyOK)
}

// setReply is what setGeneric answers without GET: Redis's ok_reply and abort_reply.
type setReply uint8

const (
	setReplyOK  setReply = iota // +OK, or a null when NX or XX refuses (SET)
	setReplyInt                 // :1, or :0 when NX refuses (SETNX)
)

// setGeneric is Redis's setGenericCommand: the GET reply first (or WRONGTYPE, and nothing is
// set), then the NX/XX condition, then the write. Without GET it answers as reply says.
func (c *client) setGeneric(key, val []byte, flags int, expireAt int64, reply setReply) {
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	if flags&setGet != 0 && !c.getGenericLocked(sh, key) {
		return
	}
	h, found := sh.LookupLocked(c.db, key)
	if (flags&setNX != 0 && found) || (flags&setXX != 0 && !found) {
		switch {
		case flags&setGet != 0:
		case reply == setReplyInt:
			c.w.Int(0)
		default:
			c.w.Null()
		}
		return
	}
	if flags&setKeepTTL != 0 && found {
		expireAt, _ = object.Expire(sh.Arena(), h)
	}
	if err := c.setStringLocked(sh, key, val, expireAt); err != nil {
		c.replyError(err)
		return
	}
	switch {
	case flags&setGet != 0:
	case reply == setReplyInt:
		c.w.Int(1)
	default:
		c.w.OK()
	}
}

// getdelCommand: GETDEL key — the value, then the key is deleted.
func getdelCommand(c *client, args querybuf.Args) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	if c.getGenericLocked(sh, key) {
		sh.DeleteLocked(c.db, key)
	}
}

// getexCommand: GETEX key [EX s|PX ms|EXAT s|PXAT ms|PERSIST] — the value, then the expire
// changed. As in Redis, a missing key answers a null before the expire is checked, and an
// absolute time already past deletes the key after its value is sent.
func getexCommand(c *client, args querybuf.Args) {
	flags, expireArg, ok := parseSetOptions(args, optsGetEx)
	if !ok {
		c.w.Error(errSyntax)
		return
	}
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, found, ok := c.lookupStringLocked(sh, key)
	if !ok {
		return
	}
	if !found {
		c.w.Null()
		return
	}
	now := nowMs()
	var when int64
	if expireArg != nil {
		if when, ok = c.expireMillisOrReply(expireArg, flags, "getex", now); !ok {
			return
		}
	}
	mark := c.w.Len()
	c.w.Bulk(object.Value(sh.Arena(), h, c.scratch[:0]))
	switch {
	case flags&(setEXAT|setPXAT) != 0 && when <= now:
		sh.DeleteLocked(c.db, key)
	case expireArg != nil:
		if err := sh.SetExpireLocked(c.db, key, when); err != nil {
			c.w.Truncate(mark) // nothing changed: answer the error alone
			c.replyError(err)
		}
	case flags&setPersist != 0:
		sh.PersistLocked(c.db, key)
	}
}

// lockKeyShards locks the shards of the keys args[from], args[from+step]… in ascending order
// (MSET's keys are every other argument) and returns them for c.unlock. Like lockKeys it
// reuses the client's index buffer.
func (c *client) lockKeyShards(args querybuf.Args, from, step int) []int {
	idx := c.shardIdx[:0]
	for i := from; i < args.Len(); i += step {
		idx = append(idx, c.srv.ks.ShardFor(args.Arg(i)))
	}
	c.shardIdx = idx
	return c.srv.ks.LockShards(idx)
}

// mgetCommand: MGET key [key ...] — atomic across shards; anything but a string is a null.
func mgetCommand(c *client, args querybuf.Args) {
	locked := c.lockKeyShards(args, 1, 1)
	defer c.unlock(locked)
	c.w.Array(args.Len() - 1)
	for j := 1; j < args.Len(); j++ {
		key := args.Arg(j)
		sh := c.srv.shardOf(key)
		h, ok := c.lookupReadLocked(sh, key)
		if !ok || !isString(sh, h) {
			c.w.Null()
			continue
		}
		c.w.Bulk(object.Value(sh.Arena(), h, c.scratch[:0]))
	}
}

// msetCommand: MSET key value [key value ...].
func msetCommand(c *client, args querybuf.Args) { msetGeneric(c, args, false) }

// msetnxCommand: MSETNX key value [key value ...] — all or nothing: 0 if any key exists.
func msetnxCommand(c *client, args querybuf.Args) { msetGeneric(c, args, true) }

// msetGeneric is Redis's msetGenericCommand, atomic across shards: all the keys' shards are
// locked before the first key is looked at.
func msetGeneric(c *client, args querybuf.Args, nx bool) {
	if args.Len()%2 == 0 {
		name := "mset"
		if nx {
			name = "msetnx"
		}
		c.w.Error(fmt.Sprintf(errWrongArgs, name))
		return
	}
	locked := c.lockKeyShards(args, 1, 2)
	defer c.unlock(locked)
	if nx {
		for j := 1; j < args.Len(); j += 2 {
			if _, found := c.srv.shardOf(args.Arg(j)).LookupLocked(c.db, args.Arg(j)); found {
				c.w.Int(0)
				return
			}
		}
	}
	for j := 1; j < args.Len(); j += 2 {
		key := args.Arg(j)
		if err := c.setStringLocked(c.srv.shardOf(key), key, args.Arg(j+1), 0); err != nil {
			c.replyError(err)
			return
		}
	}
	if nx {
		c.w.Int(1)
	} else {
		c.w.OK()
	}
}

// checkStringLength is Redis's checkStringLength: a string of size+add bytes must fit in
// proto-max-bulk-len (and the sum must not overflow).
func (c *client) checkStringLength(size, add int64) error {
	total := int64(uint64(size) + uint64(add))
	if total > c.srv.cfg.ProtoMaxBulkLen() || total < size || total < add {
		return errStrTooLong
	}
	return nil
}

// appendCommand: APPEND key value — the new length. A missing key is set as SET would set
// it; an existing value becomes raw (room to grow).
func appendCommand(c *client, args querybuf.Args) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	n, err := c.opAppendLocked(sh, key, args.Arg(2))
	if err != nil {
		c.replyError(err)
		return
	}
	c.w.Int(int64(n))
}

func (c *client) opAppendLocked(sh *shard, key, tail []byte) (int, error) {
	h, found := sh.LookupLocked(c.db, key)
	if !found {
		return len(tail), c.setStringLocked(sh, key, tail, 0)
	}
	if !isString(sh, h) {
		return 0, errStrWrongType
	}
	a := sh.Arena()
	if err := c.checkStringLength(int64(object.ValueLen(a, h)), int64(len(tail))); err != nil {
		return 0, err
	}
	nh, n, err := object.Append(a, h, tail)
	sh.UpdateLocked(c.db, key, h, nh) // the record may have moved, even on error
	return n, err
}

// strlenCommand: STRLEN key — 0 for a missing key.
func strlenCommand(c *client, args querybuf.Args) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, found, ok := c.lookupStringLocked(sh, key)
	switch {
	case !ok:
	case !found:
		c.w.Int(0)
	default:
		c.w.Int(int64(object.ValueLen(sh.Arena(), h)))
	}
}

// incrCommand: INCR key.
func incrCommand(c *client, args querybuf.Args) { incrDecrCommand(c, args.Arg(1), 1) }

// decrCommand: DECR key.
func decrCommand(c *client, args querybuf.Args) { incrDecrCommand(c, args.Arg(1), -1) }

// incrbyCommand: INCRBY key increment.
func incrbyCommand(c *client, args querybuf.Args) {
	incr, ok := parseInt(args.Arg(2))
	if !ok {
		c.w.Error(errNotInteger)
		return
	}
	incrDecrCommand(c, args.Arg(1), incr)
}

// decrbyCommand: DECRBY key decrement. The decrement is negated, so its minimum is refused.
func decrbyCommand(c *client, args querybuf.Args) {
	decr, ok := parseInt(args.Arg(2))
	if !ok {
		c.w.Error(errNotInteger)
		return
	}
	if decr == math.MinInt64 {
		c.w.Error(errDecrOverflow)
		return
	}
	incrDecrCommand(c, args.Arg(1), -decr)
}

// incrDecrCommand is Redis's incrDecrCommand: the new value, an integer reply.
func incrDecrCommand(c *client, key []byte, incr int64) {
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	v, err := c.opIncrByLocked(sh, key, incr)
	if err != nil {
		c.replyError(err)
		return
	}
	c.w.Int(v)
}

// opIncrByLocked adds incr to the integer value of key (0 if missing) and stores the sum with
// the int encoding, keeping the key's expire.
func (c *client) opIncrByLocked(sh *shard, key []byte, incr int64) (int64, error) {
	a := sh.Arena()
	h, found := sh.LookupLocked(c.db, key)
	var old int64
	if found {
		if !isString(sh, h) {
			return 0, errStrWrongType
		}
		v, ok := object.IntValue(a, h)
		if !ok {
			return 0, errStrNotInteger
		}
		old = v
	}
	if (incr < 0 && old < 0 && incr < math.MinInt64-old) ||
		(incr > 0 && old > 0 && incr > math.MaxInt64-old) {
		return 0, errStrOverflow
	}
	v := old + incr
	if !found {
		return v, c.setStringLocked(sh, key, strconv.AppendInt(c.scratch[:0], v, 10), 0)
	}
	nh, err := object.SetInt(a, h, v)
	sh.UpdateLocked(c.db, key, h, nh)
	return v, err
}

// incrbyfloatCommand: INCRBYFLOAT key increment — the new value as a bulk string, computed
// and printed as Redis's long double (see incrbyfloat.go). The text is stored, with the key's
// expire kept.
func incrbyfloatCommand(c *client, args querybuf.Args) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	text, err := c.opIncrByFloatLocked(sh, key, args.Arg(2))
	if err != nil {
		c.replyError(err)
		return
	}
	c.w.Bulk(text)
}

// opIncrByFloatLocked returns the stored text, valid until the client's next command.
func (c *client) opIncrByFloatLocked(sh *shard, key, incrArg []byte) ([]byte, error) {
	a := sh.Arena()
	h, found := sh.LookupLocked(c.db, key)
	value := ldZero()
	var expireAt int64
	if found {
		if !isString(sh, h) {
			return nil, errStrWrongType
		}
		v, ok := parseLongDouble(object.Value(a, h, c.scratch[:0]))
		if !ok {
			return nil, errStrNotFloat
		}
		value = v
		expireAt, _ = object.Expire(a, h)
	}
	incr, ok := parseLongDouble(incrArg)
	if !ok {
		return nil, errStrNotFloat
	}
	sum, ok := addLongDouble(value, incr)
	if !ok {
		return nil, errStrNaNOrInf
	}
	text := appendLongDoubleHuman(c.scratch[:0], sum)
	nh, err := object.NewString(a, key, text, expireAt, object.WriteText)
	if err != nil {
		return nil, err
	}
	if _, err := sh.ReplaceLocked(c.db, key, nh); err != nil {
		object.Free(a, nh)
		return nil, err
	}
	return text, nil
}

// getrangeCommand: GETRANGE key start end (and SUBSTR) — the bytes from start to end
// inclusive, negative indexes counting from the end, clamped as Redis clamps them; an empty
// string for a missing key or an empty range.
func getrangeCommand(c *client, args querybuf.Args) {
	start, ok := parseInt(args.Arg(2))
	if !ok {
		c.w.Error(errNotInteger)
		return
	}
	end, ok := parseInt(args.Arg(3))
	if !ok {
		c.w.Error(errNotInteger)
		return
	}
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, found, ok := c.lookupStringLocked(sh, key)
	if !ok {
		return
	}
	if !found {
		c.w.Bulk(nil)
		return
	}
	val := object.Value(sh.Arena(), h, c.scratch[:0])
	lo, hi := getrangeBounds(start, end, len(val))
	c.w.Bulk(val[lo:hi])
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

// setrangeCommand: SETRANGE key offset value — the new length. The gap before offset is
// zero-filled; setting nothing answers the current length (0 for a missing key, which is not
// created).
func setrangeCommand(c *client, args querybuf.Args) {
	offset, ok := parseInt(args.Arg(2))
	if !ok {
		c.w.Error(errNotInteger)
		return
	}
	if offset < 0 {
		c.w.Error(errOffsetRange)
		return
	}
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	n, err := c.opSetRangeLocked(sh, key, offset, args.Arg(3))
	if err != nil {
		c.replyError(err)
		return
	}
	c.w.Int(int64(n))
}

func (c *client) opSetRangeLocked(sh *shard, key []byte, offset int64, val []byte) (int, error) {
	a := sh.Arena()
	h, found := sh.LookupLocked(c.db, key)
	if found && !isString(sh, h) {
		return 0, errStrWrongType
	}
	if len(val) == 0 {
		if !found {
			return 0, nil
		}
		return object.ValueLen(a, h), nil
	}
	if err := c.checkStringLength(offset, int64(len(val))); err != nil {
		return 0, err
	}
	if !found {
		// A new raw value of exactly offset+len(val) zero bytes, as Redis's sdsnewlen.
		n := int(offset) + len(val)
		nh, err := object.NewZeroString(a, key, n)
		if err != nil {
			return 0, err
		}
		copy(object.Value(a, nh, nil)[offset:], val)
		if err := sh.InsertLocked(c.db, key, nh); err != nil {
			object.Free(a, nh)
			return 0, err
		}
		return n, nil
	}
	nh, n, err := object.SetRange(a, h, int(offset), val)
	sh.UpdateLocked(c.db, key, h, nh) // the record may have moved, even on error
	return n, err
}
