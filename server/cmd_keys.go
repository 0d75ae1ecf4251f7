package server

import (
	"bytes"
	"math"
	"runtime/debug"
	"strings"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// Errors of the keyspace family, as Redis 7.2 words them.
const (
	errSameObject = "ERR source and destination objects are the same"
	errIntRange   = "ERR value is out of range, value must between -2147483648 and 2147483647"
	errLFUNotSet  = "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."
	errLFUSet     = "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."
)

// keyCommands are the @keyspace family (with the expire commands of cmd_expire.go, KEYS and
// SCAN of cmd_scan.go), MEMORY USAGE, and DEBUG (cmd_debug.go).
func keyCommands() []*command {
	rows := []*command{
		{Name: "del", Arity: -2, Flags: cmdWrite, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Proc: delCommand},
		{Name: "unlink", Arity: -2, Flags: cmdWrite | cmdFast, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Proc: delCommand},
		{Name: "exists", Arity: -2, Flags: cmdReadOnly | cmdFast, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Proc: existsCommand},
		{Name: "touch", Arity: -2, Flags: cmdReadOnly | cmdFast, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Proc: touchCommand},
		{Name: "type", Arity: 2, Flags: cmdReadOnly | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: typeCommand},
		{Name: "rename", Arity: 3, Flags: cmdWrite, First: 1, Last: 2, Step: 1, Cats: catKeyspace, Proc: renameCommand},
		{Name: "renamenx", Arity: 3, Flags: cmdWrite | cmdFast, First: 1, Last: 2, Step: 1, Cats: catKeyspace, Proc: renamenxCommand},
		{Name: "copy", Arity: -3, Flags: cmdWrite | cmdDenyOOM, First: 1, Last: 2, Step: 1, Cats: catKeyspace, Proc: copyCommand},
		{Name: "move", Arity: 3, Flags: cmdWrite | cmdFast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Proc: moveCommand},
		{Name: "swapdb", Arity: 3, Flags: cmdWrite | cmdFast, Cats: catKeyspace | catDangerous, Proc: swapdbCommand},
		{Name: "randomkey", Arity: 1, Flags: cmdReadOnly, Cats: catKeyspace, Proc: randomkeyCommand},
		{Name: "dbsize", Arity: 1, Flags: cmdReadOnly | cmdFast, Cats: catKeyspace, Proc: dbsizeCommand},
		{Name: "flushdb", Arity: -1, Flags: cmdWrite, Cats: catKeyspace | catDangerous, Proc: flushdbCommand},
		{Name: "flushall", Arity: -1, Flags: cmdWrite, Cats: catKeyspace | catDangerous, Proc: flushallCommand},
		{Name: "object", Arity: -2, Subcommands: []*command{
			{Name: "encoding", Arity: 3, Flags: cmdReadOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Proc: objectEncodingCommand},
			{Name: "freq", Arity: 3, Flags: cmdReadOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Proc: objectFreqCommand},
			{Name: "idletime", Arity: 3, Flags: cmdReadOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Proc: objectIdletimeCommand},
			{Name: "refcount", Arity: 3, Flags: cmdReadOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Proc: objectRefcountCommand},
			{Name: "help", Arity: 2, Flags: cmdLoading | cmdStale, Cats: catKeyspace, Proc: objectHelpCommand},
		}},
		{Name: "memory", Arity: -2, Subcommands: []*command{
			{Name: "usage", Arity: -3, Flags: cmdReadOnly, First: 2, Last: 2, Step: 1, Proc: memoryUsageCommand},
			{Name: "purge", Arity: 2, Proc: memoryPurgeCommand},
		}},
	}
	rows = append(rows, expireCommands()...)
	rows = append(rows, scanCommands()...)
	// DEBUG belongs to @server; it is registered here until the table lists debugCommands.
	return append(rows, debugCommands()...)
}

// lookupReadFlagsLocked is Redis's lookupKeyReadWithFlags: a lookup with flags (LookupNoTouch
// for TYPE, TTL, OBJECT) that counts keyspace hits and misses.
func (c *client) lookupReadFlagsLocked(sh *shard, key []byte, flags keyspace.LookupFlags) (alloc.Handle, bool) {
	h, ok := sh.LookupFlagsLocked(c.db, key, flags)
	if ok {
		c.hits.Store(c.hits.Load() + 1)
	} else {
		c.misses.Store(c.misses.Load() + 1)
	}
	return h, ok
}

// lockTwo locks the shards of two keys (one if they share it) in ascending order and returns
// them for unlock.
func (c *client) lockTwo(a, b []byte) []int {
	idx := append(c.shardIdx[:0], c.srv.ks.ShardFor(a), c.srv.ks.ShardFor(b))
	c.shardIdx = idx
	return c.srv.ks.LockShards(idx)
}

// intArgOrReply is Redis's getIntFromObjectOrReply: an integer within a C int. msg, when not
// empty, replaces both of its errors (SWAPDB's "invalid first DB index").
func (c *client) intArgOrReply(arg []byte, msg string) (int, bool) {
	v, ok := parseInt(arg)
	switch {
	case ok && v >= math.MinInt32 && v <= math.MaxInt32:
		return int(v), true
	case msg != "":
		c.w.Error(msg)
	case !ok:
		c.w.Error(errNotInteger)
	default:
		c.w.Error(errIntRange)
	}
	return 0, false
}

// dbIndexOrReply parses a database index as MOVE and COPY do: an int, then a database that
// exists.
func (c *client) dbIndexOrReply(arg []byte) (int, bool) {
	db, ok := c.intArgOrReply(arg, "")
	if !ok {
		return 0, false
	}
	if db < 0 || db >= c.srv.ks.Databases() {
		c.w.Error(errDBIndex)
		return 0, false
	}
	return db, true
}

// delCommand: DEL key [key ...] (and UNLINK: freeing is already cheap, nothing to defer).
// Atomic across shards: every shard involved is locked, in ascending order, for the whole run.
// A key whose time has passed is expired first, so it does not count as deleted.
func delCommand(c *client, args querybuf.Args) {
	locked := c.lockKeys(args, 1)
	var n int64
	for i := 1; i < args.Len(); i++ {
		key := args.Arg(i)
		sh := c.srv.shardOf(key)
		if _, ok := sh.LookupFlagsLocked(c.db, key, keyspace.LookupNoTouch); ok && sh.DeleteLocked(c.db, key) {
			n++
		}
	}
	c.unlock(locked)
	c.w.Int(n)
}

// existsCommand: EXISTS key [key ...] — a key named twice counts twice. It does not touch the
// keys' LRU clock (Redis 7.2's LOOKUP_NOTOUCH) but counts hits and misses.
func existsCommand(c *client, args querybuf.Args) {
	locked := c.lockKeys(args, 1)
	var n int64
	for i := 1; i < args.Len(); i++ {
		key := args.Arg(i)
		if _, ok := c.lookupReadFlagsLocked(c.srv.shardOf(key), key, keyspace.LookupNoTouch); ok {
			n++
		}
	}
	c.unlock(locked)
	c.w.Int(n)
}

// touchCommand: TOUCH key [key ...] — a read lookup of each key (setting its LRU clock), the
// number of keys that exist.
func touchCommand(c *client, args querybuf.Args) {
	locked := c.lockKeys(args, 1)
	var n int64
	for i := 1; i < args.Len(); i++ {
		key := args.Arg(i)
		if _, ok := c.lookupReadLocked(c.srv.shardOf(key), key); ok {
			n++
		}
	}
	c.unlock(locked)
	c.w.Int(n)
}

// typeCommand: TYPE key — the type's name as a status reply, "none" for a missing key.
func typeCommand(c *client, args querybuf.Args) {
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, ok := c.lookupReadFlagsLocked(sh, key, keyspace.LookupNoTouch)
	if !ok {
		c.w.Simple("none")
		return
	}
	c.w.Simple(object.TypeOf(sh.Arena(), h).Name())
}

func renameCommand(c *client, args querybuf.Args)   { c.renameGeneric(args, false) }
func renamenxCommand(c *client, args querybuf.Args) { c.renameGeneric(args, true) }

// renameGeneric is Redis's renameGenericCommand: no such key (even when both names are the
// same), then the same name (OK or 0), then NX's check, then the move; the key keeps its value
// and expire. The record holds its key, so it is rebuilt under the new name, in the arena of
// the new name's shard.
func (c *client) renameGeneric(args querybuf.Args, nx bool) {
	src, dst := args.Arg(1), args.Arg(2)
	locked := c.lockTwo(src, dst)
	defer c.unlock(locked)
	ssh, dsh := c.srv.shardOf(src), c.srv.shardOf(dst)
	h, ok := ssh.LookupLocked(c.db, src)
	if !ok {
		c.w.Error(errNoSuchKey)
		return
	}
	if bytes.Equal(src, dst) {
		if nx {
			c.w.Int(0)
		} else {
			c.w.OK()
		}
		return
	}
	if _, exists := dsh.LookupLocked(c.db, dst); exists && nx {
		c.w.Int(0)
		return
	}
	nh, err := c.copyRecordLocked(ssh, h, dsh, dst)
	if err != nil {
		c.w.Error(err.Error())
		return
	}
	if _, err := dsh.ReplaceLocked(c.db, dst, nh); err != nil {
		object.Free(dsh.Arena(), nh)
		c.w.Error(err.Error())
		return
	}
	ssh.DeleteLocked(c.db, src)
	if nx {
		c.w.Int(1)
	} else {
		c.w.OK()
	}
}

// errUnknownType answers COPY and RENAME of a type they cannot rebuild yet (only strings exist).
const errUnknownType = "ERR unknown type object"

// copyRecordLocked makes, in dst's arena, a record named key with the value and expire of
// record h of src (both shards locked; they may be the same), its LRU clock set to now: what
// RENAME and COPY store. The encoding is kept where our embedding rule allows — an int stays
// int, a raw value stays raw, an embstr stays embstr even when its text is a canonical integer
// (INCRBYFLOAT's "3": Redis's dupStringObject keeps it embstr) — but an embstr value that no
// longer fits in a record with the new key goes raw (exact size).
//
// The value is copied, whatever its size. The design moves a large raw value by handle
// (alloc's Adopt) instead; object has no call for that yet.
func (c *client) copyRecordLocked(src *shard, h alloc.Handle, dst *shard, key []byte) (alloc.Handle, error) {
	a := src.Arena()
	if object.TypeOf(a, h) != object.TypeString {
		return 0, errorText(errUnknownType)
	}
	val := object.Value(a, h, c.scratch[:0])
	var when int64
	if w, has := object.Expire(a, h); has {
		when = w
	}
	kind := object.WriteSet
	switch object.EncodingOf(a, h) {
	case object.EncRaw:
		// A SET-kind write would make a short or numeric value embstr or int: keep it raw.
		if _, isInt := object.CanonicalInt(val); isInt || object.Embeds(len(key), len(val), when != 0, object.WriteSet) {
			kind = object.WriteGrow
		}
	case object.EncEmbstr:
		// A SET-kind write would make a numeric text int: a text write never does.
		kind = object.WriteText
	}
	nh, err := object.NewString(dst.Arena(), key, val, when, kind)
	if err != nil {
		return 0, err
	}
	object.SetLRU(dst.Arena(), nh, c.srv.ks.LRUClock())
	return nh, nil
}

// errorText is an error whose text is a reply.
type errorText string

func (e errorText) Error() string { return string(e) }

// copyCommand: COPY source destination [DB destination-db] [REPLACE]. Options are parsed in
// order (a bad DB is reported where it stands); then the same key in the same database is an
// error; a missing source or an existing destination without REPLACE answers 0.
func copyCommand(c *client, args querybuf.Args) {
	dstDB, replace := c.db, false
	for j := 3; j < args.Len(); j++ {
		switch opt := args.Arg(j); {
		case eqFold(opt, "replace"):
			replace = true
		case eqFold(opt, "db") && j+1 < args.Len():
			db, ok := c.dbIndexOrReply(args.Arg(j + 1))
			if !ok {
				return
			}
			dstDB = db
			j++
		default:
			c.w.Error(errSyntax)
			return
		}
	}
	src, dst := args.Arg(1), args.Arg(2)
	if dstDB == c.db && bytes.Equal(src, dst) {
		c.w.Error(errSameObject)
		return
	}
	locked := c.lockTwo(src, dst)
	defer c.unlock(locked)
	ssh, dsh := c.srv.shardOf(src), c.srv.shardOf(dst)
	h, ok := c.lookupReadLocked(ssh, src)
	if !ok {
		c.w.Int(0)
		return
	}
	if _, exists := dsh.LookupLocked(dstDB, dst); exists && !replace {
		c.w.Int(0)
		return
	}
	nh, err := c.copyRecordLocked(ssh, h, dsh, dst)
	if err != nil {
		c.w.Error(err.Error())
		return
	}
	if _, err := dsh.ReplaceLocked(dstDB, dst, nh); err != nil {
		object.Free(dsh.Arena(), nh)
		c.w.Error(err.Error())
		return
	}
	c.w.Int(1)
}

// moveCommand: MOVE key db. A key's shard is the same in every database, so the record moves
// between two tables of one shard, unchanged.
func moveCommand(c *client, args querybuf.Args) {
	dstDB, ok := c.dbIndexOrReply(args.Arg(2))
	if !ok {
		return
	}
	if dstDB == c.db {
		c.w.Error(errSameObject)
		return
	}
	key := args.Arg(1)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	if _, ok := sh.LookupLocked(c.db, key); !ok {
		c.w.Int(0)
		return
	}
	if _, exists := sh.LookupLocked(dstDB, key); exists {
		c.w.Int(0)
		return
	}
	h, _ := sh.UnlinkLocked(c.db, key)
	if err := sh.InsertLocked(dstDB, key, h); err != nil {
		if sh.InsertLocked(c.db, key, h) != nil {
			object.Free(sh.Arena(), h)
		}
		c.w.Error(err.Error())
		return
	}
	c.w.Int(1)
}

// swapdbCommand: SWAPDB index1 index2 — every shard swaps the two databases' tables under all
// locks; clients keep their selected index and so see the other data.
func swapdbCommand(c *client, args querybuf.Args) {
	a, ok := c.intArgOrReply(args.Arg(1), "ERR invalid first DB index")
	if !ok {
		return
	}
	b, ok := c.intArgOrReply(args.Arg(2), "ERR invalid second DB index")
	if !ok {
		return
	}
	if n := c.srv.ks.Databases(); a < 0 || a >= n || b < 0 || b >= n {
		c.w.Error(errDBIndex)
		return
	}
	if a != b {
		c.srv.ks.LockAll()
		c.srv.ks.SwapDBLocked(a, b)
		c.srv.ks.UnlockAll()
	}
	c.w.OK()
}

// randomkeyCommand: RANDOMKEY — a random key, expired ones removed on the way; null when the
// database is empty.
func randomkeyCommand(c *client, args querybuf.Args) {
	found := c.srv.ks.RandomKey(c.db, func(s *shard, h alloc.Handle) {
		c.w.Bulk(object.Key(s.Arena(), h))
	})
	if !found {
		c.w.Null()
	}
}

func dbsizeCommand(c *client, args querybuf.Args) {
	c.w.Int(c.srv.ks.Keys(c.db))
}

// flushOption checks FLUSHDB/FLUSHALL's optional ASYNC or SYNC.
func (c *client) flushOption(args querybuf.Args) bool {
	if args.Len() > 2 || (args.Len() == 2 && !eqFold(args.Arg(1), "async") && !eqFold(args.Arg(1), "sync")) {
		c.w.Error(errSyntax)
		return false
	}
	return true
}

func flushdbCommand(c *client, args querybuf.Args) {
	if !c.flushOption(args) {
		return
	}
	c.srv.ks.LockAll()
	c.srv.ks.FlushDBLocked(c.db)
	c.srv.ks.UnlockAll()
	c.w.OK()
}

func flushallCommand(c *client, args querybuf.Args) {
	if !c.flushOption(args) {
		return
	}
	c.srv.ks.LockAll()
	c.srv.ks.FlushAllLocked()
	c.srv.ks.UnlockAll()
	c.w.OK()
}

// objectLookup runs fn on key's record for an OBJECT subcommand: a lookup that leaves the LRU
// clock alone but counts hits and misses, as Redis's objectCommandLookup; a null when missing.
func (c *client) objectLookup(key []byte, fn func(a *alloc.Arena, h alloc.Handle)) {
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, ok := c.lookupReadFlagsLocked(sh, key, keyspace.LookupNoTouch)
	if !ok {
		c.w.Null()
		return
	}
	fn(sh.Arena(), h)
}

// objectEncodingCommand: OBJECT ENCODING key — embstr for every value embedded in its record
// (up to 128 bytes of record, Valkey 9.1's rule), raw, or int.
func objectEncodingCommand(c *client, args querybuf.Args) {
	c.objectLookup(args.Arg(2), func(a *alloc.Arena, h alloc.Handle) {
		c.w.BulkString(object.EncodingOf(a, h).Name())
	})
}

// lfuPolicy reports whether maxmemory-policy is an LFU one (Redis's MAXMEMORY_FLAG_LFU).
func (c *client) lfuPolicy() bool { return strings.HasSuffix(c.srv.cfg.MaxMemoryPolicy(), "-lfu") }

// lfuInitVal is Redis's LFU_INIT_VAL, the counter of a new key.
const lfuInitVal = 5

// objectFreqCommand: OBJECT FREQ key — an error unless maxmemory-policy is an LFU one. The
// keyspace does not keep LFU counters yet: under an LFU policy every key answers the counter of
// a new key.
func objectFreqCommand(c *client, args querybuf.Args) {
	c.objectLookup(args.Arg(2), func(a *alloc.Arena, h alloc.Handle) {
		if !c.lfuPolicy() {
			c.w.Error(errLFUNotSet)
			return
		}
		c.w.Int(lfuInitVal)
	})
}

// objectIdletimeCommand: OBJECT IDLETIME key — seconds since the key was last read or
// written, from its 24-bit LRU clock; an error under an LFU policy.
func objectIdletimeCommand(c *client, args querybuf.Args) {
	c.objectLookup(args.Arg(2), func(a *alloc.Arena, h alloc.Handle) {
		if c.lfuPolicy() {
			c.w.Error(errLFUSet)
			return
		}
		c.w.Int(c.idleSeconds(a, h))
	})
}

// lruClockMax is Redis's LRU_CLOCK_MAX: the LRU clock counts seconds in 24 bits.
const lruClockMax = 1<<24 - 1

// idleSeconds is Redis's estimateObjectIdleTime in seconds: the LRU clock wraps every 194 days.
func (c *client) idleSeconds(a *alloc.Arena, h alloc.Handle) int64 {
	now, lru := int64(c.srv.ks.LRUClock()), int64(object.LRU(a, h))
	if now >= lru {
		return now - lru
	}
	return now + lruClockMax - lru
}

// objectRefcountCommand: OBJECT REFCOUNT key — 1, or INT_MAX for what Redis keeps as a shared
// integer (0 to 9999, when maxmemory and an LRU or LFU policy do not forbid sharing).
func objectRefcountCommand(c *client, args querybuf.Args) {
	c.objectLookup(args.Arg(2), func(a *alloc.Arena, h alloc.Handle) {
		c.w.Int(c.refcount(a, h))
	})
}

// Redis's shared integers: OBJ_SHARED_INTEGERS and OBJ_SHARED_REFCOUNT.
const (
	sharedIntegers = 10000
	sharedRefcount = math.MaxInt32
)

// refcount is the reference count Redis would report for record h: shared integers are
// INT_MAX, everything else 1 (values are never shared between keys here). Redis's COPY of a
// shared integer makes an unshared one, which is not told apart.
func (c *client) refcount(a *alloc.Arena, h alloc.Handle) int64 {
	if object.EncodingOf(a, h) != object.EncInt {
		return 1
	}
	v, _ := object.IntValue(a, h)
	policy := c.srv.cfg.MaxMemoryPolicy()
	noShared := c.srv.cfg.MaxMemory() != 0 && (strings.HasSuffix(policy, "-lru") || strings.HasSuffix(policy, "-lfu"))
	if v >= 0 && v < sharedIntegers && !noShared {
		return sharedRefcount
	}
	return 1
}

func objectHelpCommand(c *client, args querybuf.Args) {
	c.helpReply("OBJECT", []string{
		"ENCODING <key>",
		"    Return the kind of internal representation used in order to store the value",
		"    associated with a <key>.",
		"FREQ <key>",
		"    Return the access frequency index of the <key>. The returned integer is",
		"    proportional to the logarithm of the recent access frequency of the key.",
		"IDLETIME <key>",
		"    Return the idle time of the <key>, that is the approximated number of",
		"    seconds elapsed since the last access to the key.",
		"REFCOUNT <key>",
		"    Return the number of references of the value associated with the specified",
		"    <key>.",
	})
}

// memoryUsageCommand: MEMORY USAGE key [SAMPLES count] — the real bytes of the record, its
// value, and its share of the table. SAMPLES may repeat (the last one counts; a string has
// nothing to sample). As Redis's dictFind, the lookup neither touches nor expires the key.
func memoryUsageCommand(c *client, args querybuf.Args) {
	for j := 3; j < args.Len(); j++ {
		if !eqFold(args.Arg(j), "samples") || j+1 >= args.Len() {
			c.w.Error(errSyntax)
			return
		}
		v, ok := parseInt(args.Arg(j + 1))
		if !ok {
			c.w.Error(errNotInteger)
			return
		}
		if v < 0 {
			c.w.Error(errSyntax)
			return
		}
		j++
	}
	key := args.Arg(2)
	sh := c.srv.shardOf(key)
	sh.Lock()
	defer sh.Unlock()
	h, ok := sh.LookupFlagsLocked(c.db, key, keyspace.LookupNoTouch|keyspace.LookupNoExpire)
	if !ok {
		c.w.Null()
		return
	}
	c.w.Int(int64(object.MemoryUsage(sh.Arena(), h) + tableShare(sh, c.db)))
}

// tableShare is one key's share of its database's table in the shard (MEMORY USAGE counts
// the table slot a key takes, as Redis counts its dictEntry).
func tableShare(sh *shard, db int) int {
	table, _ := sh.OverheadLocked(db)
	n := sh.DBSizeLocked(db)
	if n == 0 {
		return 0
	}
	return int(table / n)
}

// memoryPurgeCommand: MEMORY PURGE — return the Go runtime's free memory to the OS.
func memoryPurgeCommand(c *client, args querybuf.Args) {
	debug.FreeOSMemory()
	c.w.OK()
}
