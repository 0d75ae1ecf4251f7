package server

import (
	"math"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// scanCommands are KEYS and SCAN, of the @keyspace family.
func scanCommands() []*command {
	return []*command{
		{Name: "keys", Arity: 2, Flags: cmdReadOnly, Cats: catKeyspace | catDangerous, Proc: keysCommand},
		{Name: "scan", Arity: -2, Flags: cmdReadOnly, Cats: catKeyspace, Proc: scanCommand},
	}
}

// keysCommand: KEYS pattern — every key of the database matching the glob pattern, in no
// particular order. As in Redis it sees the whole keyspace at one instant: every shard is
// locked for the run. The pattern "*" matches every key, the empty one included, without
// matching. Keys whose time has passed are left out (and removed on the way).
func keysCommand(c *client, args querybuf.Args) {
	pattern := args.Arg(1)
	all := len(pattern) == 1 && pattern[0] == '*'
	ks := c.srv.ks
	d := c.w.ArrayDeferred()
	n := 0
	emit := func(a *alloc.Arena, h alloc.Handle) {
		key := object.Key(a, h)
		if all || glob.Match(pattern, key, false) {
			c.w.Bulk(key)
			n++
		}
	}
	ks.LockAll()
	for i := range ks.NumShards() {
		sh := ks.Shard(i)
		a := sh.Arena()
		for cursor := uint64(0); ; {
			cursor = sh.ScanLocked(c.db, cursor, func(h alloc.Handle) { emit(a, h) })
			if cursor == 0 {
				break
			}
		}
	}
	ks.UnlockAll()
	c.w.SetArrayLen(d, n)
}

// maxScanCount bounds SCAN's COUNT: the keyspace visits at most ten times as many buckets.
const maxScanCount = 1 << 40

// scanCommand: SCAN cursor [MATCH pattern] [COUNT count] [TYPE type] — Redis's
// scanGenericCommand over the keyspace's cursor (the shard index in the top bits, the shard's
// reverse-binary table cursor below): every key present for the whole scan is returned at
// least once, whatever the tables do between calls. COUNT keys are collected (or ten times as
// many buckets visited), then filtered by MATCH and TYPE; a TYPE matching no type filters
// everything, without an error, as in Redis 7.2.
func scanCommand(c *client, args querybuf.Args) {
	cursor, ok := parseScanCursor(args.Arg(1))
	if !ok {
		c.w.Error("ERR invalid cursor")
		return
	}
	count := int64(10)
	var pattern, typeName []byte
	usePattern := false
	for i := 2; i < args.Len(); i += 2 {
		opt, more := args.Arg(i), args.Len()-i >= 2
		switch {
		case eqFold(opt, "count") && more:
			v, ok := parseInt(args.Arg(i + 1))
			if !ok {
				c.w.Error(errNotInteger)
				return
			}
			if v < 1 {
				c.w.Error(errSyntax)
				return
			}
			count = v
		case eqFold(opt, "match") && more:
			pattern = args.Arg(i + 1)
			usePattern = !(len(pattern) == 1 && pattern[0] == '*')
		case eqFold(opt, "type") && more:
			typeName = args.Arg(i + 1)
		default:
			c.w.Error(errSyntax)
			return
		}
	}

	// Keys are copied out under their shard's lock, then replied with the cursor first.
	var buf []byte
	var ends []int
	var typeChecks int64
	next := c.srv.ks.Scan(c.db, cursor, int(min(count, maxScanCount)), func(s *shard, h alloc.Handle) {
		a := s.Arena()
		key := object.Key(a, h)
		if usePattern && !glob.Match(pattern, key, false) {
			return
		}
		if typeName != nil {
			// Redis looks the key up to read its type: a keyspace hit.
			typeChecks++
			if !eqFold(typeName, object.TypeOf(a, h).Name()) {
				return
			}
		}
		buf = append(buf, key...)
		ends = append(ends, len(buf))
	})
	if typeChecks > 0 {
		c.hits.Store(c.hits.Load() + typeChecks)
	}
	c.w.Array(2)
	c.w.Bulk(strconv.AppendUint(c.scratch[:0], next, 10))
	c.w.Array(len(ends))
	start := 0
	for _, end := range ends {
		c.w.Bulk(buf[start:end])
		start = end
	}
}

// parseScanCursor is Redis's parseScanCursorOrReply, which reads the cursor with C's strtoul:
// the argument ends at its first NUL byte; it must not start with a space; an optional sign,
// then decimal digits and nothing else, within 64 bits (a '-' negates modulo 2^64). The empty
// string is cursor 0.
func parseScanCursor(arg []byte) (uint64, bool) {
	for i, ch := range arg {
		if ch == 0 {
			arg = arg[:i]
			break
		}
	}
	if len(arg) == 0 {
		return 0, true
	}
	if isSpace(arg[0]) {
		return 0, false
	}
	neg := false
	digits := arg
	if digits[0] == '+' || digits[0] == '-' {
		neg = digits[0] == '-'
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, false
	}
	var v uint64
	for _, ch := range digits {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		d := uint64(ch - '0')
		if v > (math.MaxUint64-d)/10 {
			return 0, false // ERANGE
		}
		v = v*10 + d
	}
	if neg {
		v = -v
	}
	return v, true
}
