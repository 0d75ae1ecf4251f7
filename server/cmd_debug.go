package server

import (
	"fmt"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/family/keyfamily"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// debugCommands is DEBUG, of the @server family.
func debugCommands() []*command.Command {
	return []*command.Command{
		{Name: "debug", Flags: command.Protected,
			Locking: command.LockFunc, Shards: debugShards, Handler: clientCommand(debugCommand)},
	}
}

// debugShards locks what DEBUG touches: the key's shard for DEBUG OBJECT key, nothing for the
// other subcommands (DEBUG SLEEP must hold no lock while it sleeps).
func debugShards(ctx *command.Ctx, dst []int) []int {
	if ctx.Args.Len() == 3 && conv.EqFold(ctx.Args.Arg(1), "object") {
		dst = append(dst, ctx.KS.ShardFor(ctx.Args.Arg(2)))
	}
	return dst
}

// debugState is what DEBUG changes at run time.
type debugState struct {
	// activeExpireOff is DEBUG SET-ACTIVE-EXPIRE 0: the cron leaves due keys to lazy expiry.
	activeExpireOff atomic.Bool
	// expiring is held by the cron while it removes due keys, so that SET-ACTIVE-EXPIRE 0
	// returns only once no removal is under way: a test that turns active expiry off and then
	// sets keys with a short TTL must see them stay.
	expiring sync.Mutex
}

// debugAllowed is allowProtectedAction(enable-debug-command, c): yes allows every client,
// local only loopback and Unix-socket clients, no nobody. The directive is immutable: read once.
func (s *Server) debugAllowed(c *client) bool {
	switch s.enableDebug {
	case "yes":
		return true
	case "local":
		return c.IsLocal()
	}
	return false
}

// debug returns the server's debugState.
func (s *Server) debug() *debugState { return &s.debugState }

// activeExpireEnabled reports whether the cron removes due keys (DEBUG SET-ACTIVE-EXPIRE).
func (s *Server) activeExpireEnabled() bool { return !s.debug().activeExpireOff.Load() }

// debugCommand: the subcommands of Redis's DEBUG that test suites use. Each takes an exact
// number of arguments; anything else is Redis's "unknown subcommand or wrong number of
// arguments" error, naming the subcommand as it was written.
func debugCommand(c *client, args querybuf.Args) {
	sub, n := args.Arg(1), args.Len()
	switch {
	case conv.EqFold(sub, "help") && n == 2:
		command.ReplyHelp(&c.w, "DEBUG", []string{
			"LOG <message>",
			"    Write <message> to the server log.",
			"OBJECT <key>",
			"    Show low level info about `key` and associated value.",
			"PAUSE-CRON <0|1>",
			"    Stop periodic cron job processing.",
			"SET-ACTIVE-EXPIRE <0|1>",
			"    Setting it to 0 disables expiring keys in background when they are not",
			"    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
			"    default.",
			"SLEEP <seconds>",
			"    Stop the server for <seconds>. Decimals allowed.",
		})
	case conv.EqFold(sub, "log") && n == 3:
		c.srv.debugLog(args.Arg(2)) // cut at 1 KiB and rate-limited
		c.w.OK()
	case conv.EqFold(sub, "sleep") && n == 3:
		// Redis reads the seconds with strtod and no check: what is not a number sleeps 0 s.
		// On a fake clock (Options.Sleep) the sleep advances that clock instead.
		secs := strtod(args.Arg(2))
		if us := int64(secs * 1e6); us > 0 {
			c.srv.sleep(time.Duration(us) * time.Microsecond)
		}
		c.w.OK()
	case conv.EqFold(sub, "set-active-expire") && n == 3:
		// Redis's atoi: anything not starting with a non-zero number switches it off.
		c.srv.debug().activeExpireOff.Store(atoi(args.Arg(2)) == 0)
		c.srv.debug().expiring.Lock() // wait for a cycle already running to see the flag
		c.srv.debug().expiring.Unlock()
		c.w.OK()
	case conv.EqFold(sub, "pause-cron") && n == 3:
		c.srv.cron.paused.Store(atoi(args.Arg(2)) != 0)
		c.w.OK()
	case conv.EqFold(sub, "object") && n == 3:
		c.debugObject(args.Arg(2))
	default:
		command.ReplySubcommandSyntaxError(&c.w, args)
	}
}

// debugObject: DEBUG OBJECT key — Redis's status line on a key's value, found as dictFind
// finds it (no expiry, no LRU touch, no statistics): "Value at:<address> refcount:<n>
// encoding:<name> serializedlength:<bytes in an RDB file> lru:<24-bit clock>
// lru_seconds_idle:<s>". The address is the record's shard and handle.
func (c *client) debugObject(key []byte) {
	sh := c.ctx.Shard(key)
	h, ok := sh.LookupFlagsLocked(c.db, key, keyspace.LookupNoTouch|keyspace.LookupNoExpire)
	if !ok {
		c.w.Error(replyerr.NoSuchKey.Error())
		return
	}
	a := sh.Arena()
	line := fmt.Sprintf("Value at:0x%x refcount:%d encoding:%s serializedlength:%d lru:%d lru_seconds_idle:%d",
		uint64(sh.Index())<<32|uint64(h), keyfamily.Refcount(&c.ctx, a, h), object.EncodingOf(a, h).Name(),
		c.serializedLength(a, h), object.LRU(a, h), keyfamily.EstimateObjectIdleTime(&c.ctx, a, h))
	c.w.Simple(line)
}

// serializedLength is Redis's rdbSavedObjectLen for a string: an int encoding as an 8, 16 or
// 32-bit RDB integer, else the string with its length prefix — LZF-compressed when
// rdbcompression is on, the string is longer than 20 bytes and compression saves at least 4.
func (c *client) serializedLength(a *alloc.Arena, h alloc.Handle) int {
	if object.EncodingOf(a, h) == object.EncInt {
		v, _ := object.IntValue(a, h)
		if n := rdbIntLen(v); n > 0 {
			return n
		}
		s := strconv.AppendInt(c.scratch[:0], v, 10)
		return rdbLenLen(len(s)) + len(s)
	}
	s := object.Value(a, h, c.scratch[:0])
	if len(s) <= 11 {
		if v, ok := object.CanonicalInt(s); ok {
			if n := rdbIntLen(v); n > 0 {
				return n
			}
		}
	}
	if len(s) > 20 && c.rdbCompression() {
		if n := lzfCompressedLen(s); n > 0 {
			// RDB_ENCVAL_LZF, the compressed and original lengths, the compressed bytes.
			return 1 + rdbLenLen(n) + rdbLenLen(len(s)) + n
		}
	}
	return rdbLenLen(len(s)) + len(s)
}

// rdbCompression reports whether rdbcompression is on.
func (c *client) rdbCompression() bool {
	v, _ := c.srv.cfg.Value("rdbcompression")
	return v == "yes"
}

// rdbIntLen is the size of rdbEncodeInteger's encoding of v: a type byte and 1, 2 or 4 bytes;
// 0 if v needs more than 32 bits.
func rdbIntLen(v int64) int {
	switch {
	case v >= -(1<<7) && v <= 1<<7-1:
		return 2
	case v >= -(1<<15) && v <= 1<<15-1:
		return 3
	case v >= -(1<<31) && v <= 1<<31-1:
		return 5
	}
	return 0
}

// rdbLenLen is the size of rdbSaveLen's encoding of n.
func rdbLenLen(n int) int {
	switch {
	case n < 1<<6:
		return 1
	case n < 1<<14:
		return 2
	case uint64(n) <= 1<<32-1:
		return 5
	}
	return 9
}

// LZF as Redis builds it (liblzf 3.6's lzf_c.c with HLOG 16 and VERY_FAST): literal runs of
// up to 32 bytes, back references of 3 to 264 bytes within 8 KiB.
const (
	lzfHashLog = 16
	lzfMaxLit  = 1 << 5
	lzfMaxOff  = 1 << 13
	lzfMaxRef  = 1<<8 + 1<<3
)

// lzfCompressedLen is the length lzf_compress produces for in with an output buffer of
// len(in)-4 bytes (rdbSaveLzfStringObject), or 0 when the output does not fit and Redis stores
// the string as it is. It follows lzf_compress step by step but only counts the output.
// Redis does not clear its hash table before use (INIT_HTAB 0): a slot left by an earlier call
// may in rare cases give Redis another match; here the table starts empty.
func lzfCompressedLen(in []byte) int {
	inEnd := len(in)
	if inEnd <= 4 {
		return 0
	}
	outEnd := inEnd - 4
	var htab [1 << lzfHashLog]int32 // 1 + the position last seen with a hash; 0 for none
	idx := func(h uint32) uint32 { return ((h >> (3*8 - lzfHashLog)) - h*5) & (1<<lzfHashLog - 1) }
	frst := func(p int) uint32 { return uint32(in[p])<<8 | uint32(in[p+1]) }
	next := func(v uint32, p int) uint32 { return v<<8 | uint32(in[p+2]) }

	ip, op, lit := 0, 1, 0 // op: output bytes so far, the open literal run's header included
	hval := frst(ip)
	for ip < inEnd-2 {
		hval = next(hval, ip)
		slot := &htab[idx(hval)]
		ref := int(*slot) - 1
		*slot = int32(ip + 1)
		if ref > 0 && ref < ip && ip-ref-1 < lzfMaxOff &&
			in[ref] == in[ip] && in[ref+1] == in[ip+1] && in[ref+2] == in[ip+2] {
			length := 2
			maxLen := min(inEnd-ip-length, lzfMaxRef)
			if lit == 0 {
				op-- // undo the empty run
			}
			if op+3+1 >= outEnd {
				return 0
			}
			length = lzfMatchLen(in, ref, ip, length, maxLen)
			length -= 2 // octets - 1
			ip++
			if length < 7 {
				op++
			} else {
				op += 2
			}
			op++    // the offset's low byte
			lit = 0 // start a run
			op++    // its header
			ip += length + 1
			if ip >= inEnd-2 {
				break
			}
			// VERY_FAST: hash the two positions before ip.
			ip -= 2
			hval = frst(ip)
			hval = next(hval, ip)
			htab[idx(hval)] = int32(ip + 1)
			ip++
			hval = next(hval, ip)
			htab[idx(hval)] = int32(ip + 1)
			ip++
			continue
		}
		if op >= outEnd {
			return 0
		}
		lit, op, ip = lit+1, op+1, ip+1
		if lit == lzfMaxLit {
			lit, op = 0, op+1
		}
	}
	if op+3 > outEnd {
		return 0
	}
	for ip < inEnd {
		lit, op, ip = lit+1, op+1, ip+1
		if lit == lzfMaxLit {
			lit, op = 0, op+1
		}
	}
	if lit == 0 {
		op--
	}
	return op
}

// lzfMatchLen extends a match of length bytes at ref and ip as lzf_compress does: when more
// than 16 bytes may match it first compares 16 more one by one, stopping at the first
// difference, then goes on while below maxLen. (That unrolled part may run up to two bytes
// past maxLen near the end of the input, and so does this.)
func lzfMatchLen(in []byte, ref, ip, length, maxLen int) int {
	if maxLen > 16 {
		for range 16 {
			length++
			if in[ref+length] != in[ip+length] {
				return length
			}
		}
	}
	for {
		length++
		if length >= maxLen || in[ref+length] != in[ip+length] {
			return length
		}
	}
}

// strtod reads the longest prefix of b that C's strtod would take as a decimal number (leading
// spaces, a sign, digits with one point, an exponent); 0 if there is none.
func strtod(b []byte) float64 {
	i := 0
	for i < len(b) && conv.IsSpace(b[i]) {
		i++
	}
	start := i
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0
	}
	end := i
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j < len(b) && b[j] >= '0' && b[j] <= '9' {
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			end = j
		}
	}
	v, _ := strconv.ParseFloat(string(b[start:end]), 64) // ±Inf on overflow, as strtod's HUGE_VAL
	return v
}

// atoi is C's atoi: leading spaces, a sign, digits; 0 if there are none.
func atoi(b []byte) int64 {
	i := 0
	for i < len(b) && conv.IsSpace(b[i]) {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var v int64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
	}
	if neg {
		return -v
	}
	return v
}
