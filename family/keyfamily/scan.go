package keyfamily

import (
	"slices"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/family/scanargs"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]: Redis's scanGenericCommand over the
// keyspace's cursor. The cursor is keyspace's (keyspace/scan.go): the shard index in its bits
// from scanShardShift up, that shard's reverse-binary table cursor below. Shards are scanned
// one after another, each with Redis's guarantee: every key present for the whole scan is
// returned at least once, whatever the tables do between calls.
//
// The pipeline holds the shard the cursor is in and, while the keys they hold (read without
// locks) are fewer than COUNT, the shards after it (scanShards): so a SCAN 0 COUNT 1000 of a
// small keyspace covers it in one call, as in Redis, and a SCAN of a big one holds one shard.
// The scan stops at the end of the last shard held; the cursor then names the next shard's
// start, so a call may return fewer keys than COUNT (as Redis's may), never a wrong cursor.

const (
	// scanShardShift is keyspace's: where a SCAN cursor keeps the shard index (keyspace does
	// not export its cursor layout; TestScanCursorLayout checks that the two agree).
	scanShardShift = 48
	// scanStepsPerKey is Redis's bound for sparse tables: a call visits at most COUNT × 10
	// buckets.
	scanStepsPerKey = 10
)

// scanArgs are SCAN's arguments, parsed.
type scanArgs struct {
	cursor     uint64
	count      int
	pattern    []byte // MATCH, when usePattern
	usePattern bool   // false for no MATCH or MATCH *
	typeName   []byte // TYPE, nil for none
}

// parseScanArgs parses SCAN's arguments in Redis's order: the cursor, then the options in the
// order given (a repeated option: the last one counts), as HSCAN and SSCAN do (scanargs).
func parseScanArgs(args querybuf.Args) (scanArgs, error) {
	cursor, ok := scanargs.ParseCursor(args.Arg(1))
	if !ok {
		return scanArgs{}, scanargs.ErrInvalidCursor
	}
	o, err := scanargs.ParseWithType(args, 2)
	return scanArgs{cursor: cursor, count: o.Count, pattern: o.Pattern, usePattern: o.UsePattern, typeName: o.TypeName}, err
}

// cursorShard is the shard a cursor is in. As dictScan ignores a cursor's bits above its
// table's mask, the shard index's bits above the shard count (a power of two) are ignored, so
// every 64-bit cursor names a place (SCAN -1 visits the last bucket of the last shard).
func cursorShard(cursor uint64, shards int) int {
	return int((cursor >> scanShardShift) & uint64(shards-1))
}

// scanShards is SCAN's Shards function: the cursor's shard, then the following ones while the
// keys of those held so far are fewer than COUNT — at most COUNT × 10 shards, since each costs
// the scan at least one of its COUNT × 10 steps. Invalid arguments lock nothing: the handler
// answers their error.
func scanShards(ctx *command.Ctx, dst []int) []int {
	sa, err := parseScanArgs(ctx.Args)
	if err != nil {
		return dst
	}
	n := ctx.KS.NumShards()
	need, maxShards := int64(sa.count), int64(sa.count)*scanStepsPerKey
	for i := cursorShard(sa.cursor, n); i < n && maxShards > 0; i, maxShards = i+1, maxShards-1 {
		dst = append(dst, i)
		keys := shardKeys(ctx.KS, i, ctx.DB)
		if keys >= need {
			break
		}
		need -= keys
	}
	return dst
}

// scanCommand: SCAN — COUNT keys are collected (or ten times as many buckets visited), then
// filtered by MATCH and TYPE; a TYPE matching no type filters everything, without an error, as
// in Redis 7.2. The reply starts with the cursor, so the keys are copied out first.
func scanCommand(ctx *command.Ctx) {
	sa, err := parseScanArgs(ctx.Args)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	var r scanargs.Reply
	r.Write(ctx, opScan(ctx, sa, r.Add))
}

// opScan scans the run of held shards that starts at sa's cursor, calls fn with each key that
// passes MATCH and TYPE, and returns the cursor to continue from, 0 when every shard has been
// covered. key is valid only during fn.
func opScan(ctx *command.Ctx, sa scanArgs, fn func(key []byte)) uint64 {
	n := ctx.KS.NumShards()
	si := cursorShard(sa.cursor, n)
	c := sa.cursor & (1<<scanShardShift - 1)
	locked := ctx.Locked()
	p, held := slices.BinarySearch(locked, si)
	returned, steps, maxSteps := 0, 0, sa.count*scanStepsPerKey
	for held {
		sh := ctx.ShardAt(si)
		visit := func(h alloc.Handle) {
			returned++
			if scanKeep(ctx, sh, h, sa) {
				fn(object.Key(sh.Arena(), h))
			}
		}
		for {
			c = sh.ScanLocked(ctx.DB, c, visit)
			steps++
			if c == 0 || returned >= sa.count || steps >= maxSteps {
				break
			}
		}
		if c == 0 {
			si, p = si+1, p+1
			held = p < len(locked) && locked[p] == si
		}
		if returned >= sa.count || steps >= maxSteps {
			break
		}
	}
	if si >= n {
		return 0
	}
	return uint64(si)<<scanShardShift | c
}

// scanKeep applies MATCH and TYPE to record h of sh. TYPE reads the type through a lookup, as
// Redis's lookupKeyReadWithFlags(LOOKUP_NOTOUCH) does: a keyspace hit. The scan has already
// removed keys whose time has passed, so the lookup does not expire any (LookupNoExpire): it
// changes nothing in the table the scan is walking.
func scanKeep(ctx *command.Ctx, sh *keyspace.Shard, h alloc.Handle, sa scanArgs) bool {
	a := sh.Arena()
	key := object.Key(a, h)
	if sa.usePattern && !glob.Match(sa.pattern, key, false) {
		return false
	}
	if sa.typeName == nil {
		return true
	}
	th, ok := ctx.LookupReadFlags(sh, key, keyspace.LookupNoTouch|keyspace.LookupNoExpire)
	return ok && conv.EqFold(sa.typeName, object.TypeOf(a, th).Name())
}
