package command

import (
	"sync/atomic"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// Handler runs one command: it parses ctx.Args, does the operation on the shards the pipeline
// holds for it, and writes the reply to ctx.W. It never locks, unlocks, counts or logs.
type Handler func(ctx *Ctx)

// Conn is what the pipeline asks of the connection a command came from.
type Conn interface {
	// AuthRequired reports whether the connection must still authenticate.
	AuthRequired() bool
	// DebugAllowed reports whether enable-debug-command lets this connection run DEBUG.
	DebugAllowed() bool
}

// KeyStats are a connection's keyspace_hits and keyspace_misses counters, written only by
// whoever serves the connection and read by INFO from other goroutines.
type KeyStats struct {
	Hits, Misses atomic.Int64
}

// Ctx is the narrow context a handler receives: its arguments, its reply writer, the shards
// the pipeline locked for it, the client's database and the server-wide settings — not the
// client with its socket, loop and mutex. One Ctx belongs to one connection and is reused
// for each of its commands; nothing in it may be kept after the handler returns.
type Ctx struct {
	Args querybuf.Args // the command line; valid until the handler returns
	W    *resp.Writer  // the connection's replies (RESP2 or RESP3: W.Proto())
	Cmd  *Command      // the row being run
	DB   int           // the connection's selected database; a handler may change it (SELECT)
	KS   *keyspace.Keyspace
	Cfg  *config.Config
	// Stats counts the connection's keyspace hits and misses (LookupRead).
	Stats *KeyStats
	// Records makes string records from arguments (db.go); nil copies.
	Records Records
	// BigArgCopies counts big values copied rather than adopted (INFO big_argument_copies),
	// when Records is nil.
	BigArgCopies *atomic.Int64
	// Conn is the connection itself, for the server's own handlers (CLIENT, HELLO, …), which
	// know its type; family handlers do not use it.
	Conn any
	// Scratch is formatting room for handlers (integers, doubles): no allocation per reply.
	Scratch [64]byte
	// NoTouch: the connection asked CLIENT NO-TOUCH, so its lookups leave the keys' LRU/LFU
	// clocks alone — except TOUCH's, which is what TOUCH is for (SetNoTouch).
	NoTouch bool
	// Tx is the connection's transaction state (MULTI's queue, WATCH's keys), nil until its
	// first MULTI or WATCH (TxOf makes it): the connection sets it before running commands.
	Tx *Tx
	// User is the connection's user, for the ACL step (nil: the command is not checked).
	User *UserRef

	locked     []int              // shard indexes held for this command, ascending, no duplicates
	replyStart int                // the reply's length before the handler wrote (Recover drops the rest)
	inHandler  bool               // a handler is running: a panic now is the pipeline's to recover
	keys       []KeyRef           // the command's keys, found for locking (appendKeyShards)
	events     notifyEvents       // keyspace notifications not yet published (notify.go)
	block      blockRequest       // what the handler asked of Block (blocking.go)
	blocker    BlockedConn        // the connection, if it can block; nil: Block answers at once
	rerun      *Blocked           // the blocked command being run again (ServeBlocked), or nil
	ready      []keyspace.WaitKey // keys the command added that clients wait on (blocked.go)
	inScript   bool               // a script's command (script.go): it never blocks
	scriptNow  int64              // inside a script, its start (unix ms): Now's frozen clock
	// scriptStartUs is a script's start in unix µs: TIME inside the script.
	scriptStartUs int64

	// The ACL step's room (acl.go): its reply when it denies, the arguments, keys and key
	// accesses of the check.
	aclErr  string
	aclArgs [][]byte
	aclRefs []KeyRef
	aclKeys []acl.KeyAccess
}

// Now is the time (unix ms) a command's relative times count from (SET … EX, EXPIRE, TTL):
// inside a script its start, as Redis 7's commandTimeSnapshot (the shards' expiry checks use
// the same frozen clock), else the keyspace's clock. Families that call ctx.KS.Now() see the
// real clock inside scripts until they call this instead.
func (ctx *Ctx) Now() int64 {
	if ctx.scriptNow != 0 {
		return ctx.scriptNow
	}
	return ctx.KS.Now()
}

// SetBlockedConn says the connection can block (nil: it cannot; Block then answers the
// timeout reply at once). The server sets it for the connections it can park blocked.
func (ctx *Ctx) SetBlockedConn(c BlockedConn) { ctx.blocker = c }

// Shard returns the shard that holds key. The pipeline has locked it for this command (in
// invariants builds, a shard it did not lock panics: a row whose key positions miss a key).
func (ctx *Ctx) Shard(key []byte) *keyspace.Shard {
	if len(ctx.locked) == 1 && !checkShards {
		// The one shard held must be the key's: no second hash of the key (GET, SET, INCR …).
		return ctx.KS.Shard(ctx.locked[0])
	}
	i := ctx.KS.ShardFor(key)
	ctx.checkLocked(i)
	return ctx.KS.Shard(i)
}

// ShardAt returns shard i, which the pipeline has locked for this command (LockAll and
// LockFunc rows).
func (ctx *Ctx) ShardAt(i int) *keyspace.Shard {
	ctx.checkLocked(i)
	return ctx.KS.Shard(i)
}

// Locked returns the indexes of the shards held for this command, ascending. The slice is the
// pipeline's: read it only while the handler runs.
func (ctx *Ctx) Locked() []int { return ctx.locked }

// SetNoTouch sets NoTouch for the command about to run: on is the connection's CLIENT NO-TOUCH,
// which TOUCH ignores, as in Redis's lookupKey.
func (ctx *Ctx) SetNoTouch(on bool) {
	ctx.NoTouch = on && ctx.Cmd != nil && ctx.Cmd.FullName != "touch"
}

// LookupRead is Redis's lookupKeyRead: a lookup of key in the selected database that counts
// a keyspace hit or miss, a miss raising the `keymiss` event. sh must be key's shard (Shard).
func (ctx *Ctx) LookupRead(sh *keyspace.Shard, key []byte) (alloc.Handle, bool) {
	return ctx.LookupReadFlags(sh, key, 0)
}

// LookupReadFlags is LookupRead with lookup flags (keyspace.LookupNoTouch …;
// keyspace.LookupNoNotify: no `keymiss`).
func (ctx *Ctx) LookupReadFlags(sh *keyspace.Shard, key []byte, flags keyspace.LookupFlags) (alloc.Handle, bool) {
	h, ok := sh.LookupFlagsLocked(ctx.DB, key, ctx.touchFlags(flags))
	ctx.countLookup(ok)
	if !ok && flags&keyspace.LookupNoNotify == 0 {
		ctx.Notify(keyspace.NotifyKeyMiss, EventKeyMiss, key)
	}
	return h, ok
}

// LookupWrite is Redis's lookupKeyWrite: a lookup of key in the selected database before
// changing it, not counted as a hit or miss. sh must be key's shard.
func (ctx *Ctx) LookupWrite(sh *keyspace.Shard, key []byte) (alloc.Handle, bool) {
	return ctx.LookupWriteDB(sh, ctx.DB, key)
}

// LookupWriteDB is LookupWrite in database db (COPY … DB, MOVE).
func (ctx *Ctx) LookupWriteDB(sh *keyspace.Shard, db int, key []byte) (alloc.Handle, bool) {
	return sh.LookupFlagsLocked(db, key, ctx.touchFlags(keyspace.LookupForWrite))
}

// WriteFlags are the lookup flags of this command's writes (keyspace.ReplaceFlagsLocked):
// LookupNoTouch for a NO-TOUCH connection, else none.
func (ctx *Ctx) WriteFlags() keyspace.LookupFlags { return ctx.touchFlags(0) }

// touchFlags adds LookupNoTouch to flags for a NO-TOUCH connection.
func (ctx *Ctx) touchFlags(flags keyspace.LookupFlags) keyspace.LookupFlags {
	if ctx.NoTouch {
		flags |= keyspace.LookupNoTouch
	}
	return flags
}

// countLookup counts a keyspace hit or miss (single writer: plain load and store).
func (ctx *Ctx) countLookup(hit bool) {
	if hit {
		ctx.Stats.Hits.Store(ctx.Stats.Hits.Load() + 1)
	} else {
		ctx.Stats.Misses.Store(ctx.Stats.Misses.Load() + 1)
	}
}
