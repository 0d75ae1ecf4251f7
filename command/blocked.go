package command

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// The pipeline's part of blocking commands (DESIGN §4; Redis's blocked.c). When a handler calls
// Block, the pipeline — still holding the command's locks, so that no write slips between the
// handler's look at the keys and the registration — copies the command line into the
// connection's Blocked and registers it on the keys in their shards (keyspace.Waiter). The
// connection is then parked by its server with no goroutine and no read buffer.
//
// A write that adds a key someone waits on marks it ready in its shard; the pipeline takes the
// ready keys of the shards it held before unlocking (afterCommand) and, once unlocked
// (afterUnlock), serves their waiters in the order they blocked: each is woken (Wake), which
// re-runs its command line through Run (ServeBlocked) — the handler serves, or blocks again and
// stays where it was in the queues. A re-run's own writes (BLMOVE into a waited key) serve the
// next waiters the same way.
//
// Time-outs are kept in one heap with one timer for the earliest (timeouts.go), not a timer per
// client. A time-out, CLIENT UNBLOCK and a closing connection end a block through Unblock.

// Reasons a blocked command is woken, or'ed into Blocked.pending by whoever wakes it; the
// connection's owner reads them in ServeBlocked.
const (
	wakeReady          uint32 = 1 << iota // a key it waits on was added
	wakeTimeout                           // its deadline passed (the timer)
	wakeUnblockTimeout                    // CLIENT UNBLOCK … TIMEOUT
	wakeUnblockError                      // CLIENT UNBLOCK … ERROR
)

// errUnblocked is CLIENT UNBLOCK … ERROR's answer to the blocked client, Redis's words.
const errUnblocked replyerr.Error = "UNBLOCKED client unblocked via CLIENT UNBLOCK"

// BlockedConn is implemented by connections that can block (a socket served by a readiness
// loop); the pipeline answers Block at once on the others.
type BlockedConn interface {
	Conn
	// Blocked returns the connection's blocked-command state, made on first use and kept.
	Blocked() *Blocked
	// Wake tells the connection that its blocked command has something to do (the reasons are
	// in its Blocked). A connection parked blocked is claimed and served by the caller, on the
	// caller's goroutine: ServeBlocked with inline as given (a readiness loop only tries locks).
	// A connection someone is serving is left to them: they look at the reasons once they park
	// it.
	Wake(inline bool)
}

// Blocked is a connection's blocked command: its copied command line, database, deadline and
// registration. It belongs to the connection; the pipeline's heap and the shards' queues point
// at it while it is blocked.
type Blocked struct {
	waiter keyspace.Waiter
	// The command line, copied compactly (querybuf.Flatten): the arguments' bytes one after
	// the other and their end offsets. A re-run makes Args of them in a pooled parser.
	flat     []byte
	ends     []uint32
	cmd      *Command
	db       int
	deadline int64 // unix ms; 0: none
	conn     BlockedConn
	heapIdx  int // in the timeout heap; -1 when not there

	pending    atomic.Uint32 // wake reasons not yet served
	registered atomic.Bool   // on its keys' queues: CLIENT LIST's b flag, CLIENT UNBLOCK
	argvMem    atomic.Int64  // the copied line's bytes (CLIENT LIST argv-mem)
}

// maxKeptLine is the largest copied command line a connection keeps between blocks.
const maxKeptLine = 256

// rerunParsers hold a blocked command's line while it runs again.
var rerunParsers = sync.Pool{New: func() any { return new(querybuf.Parser) }}

// NewBlocked returns the blocked-command state of connection conn.
func NewBlocked(conn BlockedConn) *Blocked {
	b := &Blocked{conn: conn, heapIdx: -1}
	b.waiter.Owner = b
	return b
}

// IsBlocked reports whether the connection is blocked in a command (registered on its keys).
// Safe from any goroutine.
func (b *Blocked) IsBlocked() bool { return b != nil && b.registered.Load() }

// ArgvMem is the bytes of the blocked command line the connection keeps (CLIENT LIST
// argv-mem). Safe from any goroutine.
func (b *Blocked) ArgvMem() int64 {
	if b == nil {
		return 0
	}
	return b.argvMem.Load()
}

// HasPending reports whether something woke the blocked command since it was last served.
func (b *Blocked) HasPending() bool { return b.pending.Load() != 0 }

// Unblock asks for a blocked connection to be ended as CLIENT UNBLOCK does — as if timed out,
// or with the UNBLOCKED error — and reports whether it was blocked.
func (b *Blocked) Unblock(withError bool) bool {
	if !b.IsBlocked() {
		return false
	}
	if withError {
		b.pending.Or(wakeUnblockError)
	} else {
		b.pending.Or(wakeUnblockTimeout)
	}
	b.conn.Wake(false)
	return true
}

// blockLocked registers ctx's connection, whose handler just called Block, on the keys it named,
// with the command's locks still held. A re-run that blocks again keeps its registration, its
// place in the queues and its first deadline.
func (p *Pipeline) blockLocked(ctx *Ctx) {
	r := &ctx.block
	r.on = false
	if ctx.rerun != nil {
		clear(r.keys)
		r.keys = r.keys[:0]
		return // still blocked, where it was
	}
	b := ctx.blocker.Blocked()
	b.flat, b.ends = querybuf.Flatten(ctx.Args, b.flat[:0], b.ends[:0])
	b.cmd, b.db, b.deadline = ctx.Cmd, ctx.DB, r.deadline
	b.waiter.Type = r.typ
	for _, key := range r.keys {
		ctx.Shard(key).BlockLocked(&b.waiter, ctx.DB, key)
	}
	clear(r.keys)
	r.keys = r.keys[:0]
	b.argvMem.Store(int64(len(b.flat)))
	b.pending.Store(0)
	b.registered.Store(true)
	p.blockedClients.Add(1)
	if b.deadline != 0 {
		p.timeouts.add(p, b)
	}
}

// unregisterLocked takes b off its keys' queues; the caller holds the locks of all of b's
// shards.
func (p *Pipeline) unregisterLocked(b *Blocked) {
	for _, i := range b.shards(nil) {
		p.KS.Shard(i).UnblockLocked(&b.waiter)
	}
	p.forget(b)
}

// shards appends to dst the shards of b's keys, ascending, without duplicates.
func (b *Blocked) shards(dst []int) []int {
	for _, k := range b.waiter.Keys() {
		dst = append(dst, k.Shard)
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}

// forget ends b's registration once it is off the queues.
func (p *Pipeline) forget(b *Blocked) {
	b.waiter.Forget()
	p.timeouts.remove(b)
	if b.registered.Swap(false) {
		p.blockedClients.Add(-1)
	}
	b.cmd = nil
	if cap(b.flat) > maxKeptLine {
		b.flat, b.ends = nil, nil // a big line is not kept for the next block
	}
	b.argvMem.Store(0)
}

// BlockedClients is the number of connections blocked in a command (INFO blocked_clients).
func (p *Pipeline) BlockedClients() int64 { return p.blockedClients.Load() }

// Unblock ends b's block without serving it: it takes b off its keys' queues, locking their
// shards (it must not be called with shard locks held, nor on a readiness loop). The caller owns
// the connection. It reports whether b was blocked.
func (p *Pipeline) Unblock(b *Blocked) bool {
	if !b.IsBlocked() {
		return false
	}
	var idx [8]int
	shards := b.shards(idx[:0])
	p.lock(shards, false)
	for _, i := range shards {
		p.KS.Shard(i).UnblockLocked(&b.waiter)
	}
	for j := len(shards) - 1; j >= 0; j-- {
		p.KS.Shard(shards[j]).Unlock()
	}
	p.forget(b)
	b.pending.Store(0)
	return true
}

// WakeResult is how ServeBlocked ended.
type WakeResult uint8

const (
	// StillBlocked: nothing to serve yet; the connection stays blocked.
	StillBlocked WakeResult = iota
	// Served: the command answered (served, timed out, or unblocked); its reply is in ctx.W.
	Served
	// WakeHandoff: inline, a lock was busy; nothing ran. The caller serves it again on a
	// goroutine (the reasons are kept).
	WakeHandoff
)

// ServeBlocked serves what woke b, the blocked command of ctx's connection, which the caller
// owns (claimed from its parked state) with its active context: CLIENT UNBLOCK's error or
// time-out, its own deadline, or a ready key (the command line is run again through Run, with
// ctx.DB its database; it serves or stays blocked). inline: a readiness loop, which only tries
// locks.
func (p *Pipeline) ServeBlocked(ctx *Ctx, conn Conn, b *Blocked, inline bool) WakeResult {
	reasons := b.pending.Swap(0)
	if !b.IsBlocked() {
		return Served
	}
	switch {
	case reasons&(wakeUnblockError|wakeUnblockTimeout) != 0,
		reasons&wakeTimeout != 0 && b.deadline != 0 && p.KS.Now() >= b.deadline:
		if inline {
			b.pending.Or(reasons)
			return WakeHandoff
		}
		p.Unblock(b)
		if reasons&wakeUnblockError != 0 {
			ctx.W.Error(errUnblocked.Error())
		} else {
			// Redis's replyToBlockedClientTimedOut: the null array for every list, sorted-set
			// and stream command — BLMOVE and BRPOPLPUSH too, whose other nulls are bulk.
			ctx.W.NullArray()
		}
		return Served
	case reasons&wakeReady == 0:
		return StillBlocked
	}
	parser := rerunParsers.Get().(*querybuf.Parser)
	ctx.Cmd, ctx.Args, ctx.DB = b.cmd, parser.AppendFlat(b.flat, b.ends), b.db
	ctx.rerun = b
	out := p.RunRecovered(ctx, conn, "", inline)
	ctx.rerun, ctx.Args = nil, querybuf.Args{}
	parser.Recycle()
	rerunParsers.Put(parser)
	switch out {
	case Handoff:
		b.pending.Or(wakeReady)
		return WakeHandoff
	case Parked:
		if b.deadline != 0 && p.KS.Now() >= b.deadline {
			b.pending.Or(wakeTimeout) // its time passed while it ran: the owner times it out
		}
		return StillBlocked
	}
	// Served — or refused before its handler (over maxmemory, a poisoned shard), or its handler
	// panicked: its reply says so, and its registration ends here. Rare enough that a readiness
	// loop may wait for the locks this once.
	p.Unblock(b)
	return Served
}

// takeReady moves the ready keys of the shards ctx holds into ctx.ready (afterCommand: under
// the locks, when a client blocks somewhere).
func (p *Pipeline) takeReady(ctx *Ctx) {
	for _, i := range ctx.locked {
		if sh := p.KS.Shard(i); sh.HasReadyLocked() {
			ctx.ready = sh.TakeReadyLocked(ctx.ready)
		}
	}
}

// serveReady serves the waiters of ctx's ready keys, key after key, each key's waiters in the
// order they blocked, while the key holds a value of their type (Redis's
// handleClientsBlockedOnKeys). It runs with no lock held. Each waiter is woken once per ready
// key: a served one leaves the queue, one that blocks again (or whose connection is busy and
// serves itself once parked) is passed over. Inline, where a lock is busy, the rest goes to a
// goroutine.
func (p *Pipeline) serveReady(ctx *Ctx, inline bool) {
	ready := ctx.ready
	ctx.ready = nil
	var tried []*keyspace.Waiter
	for i, k := range ready {
		sh := p.KS.Shard(k.Shard)
		tried = tried[:0]
		for {
			if !inline {
				sh.Lock()
			} else if !sh.TryLock() {
				go p.serveReadyKeys(slices.Clone(ready[i:]))
				clear(tried)
				return
			}
			next := p.nextWaiterLocked(sh, k, tried)
			sh.Unlock()
			if next == nil {
				break
			}
			tried = append(tried, next)
			b := next.Owner.(*Blocked)
			b.pending.Or(wakeReady)
			b.conn.Wake(inline)
		}
	}
	clear(tried)
	clear(ready)
	if ctx.ready == nil {
		ctx.ready = ready[:0] // the slice is kept between commands
	}
}

// nextWaiterLocked returns the first waiter of key k not in tried that waits for the type of
// value k holds, or nil (k holds nothing, or nobody waits for its type). sh is k's shard, locked.
func (p *Pipeline) nextWaiterLocked(sh *keyspace.Shard, k keyspace.WaitKey, tried []*keyspace.Waiter) *keyspace.Waiter {
	key := unsafeBytes(k.Key)
	h, ok := sh.LookupFlagsLocked(k.DB, key, keyspace.LookupNoTouch)
	if !ok {
		return nil
	}
	typ := object.TypeOf(sh.Arena(), h)
	for _, w := range sh.WaitersLocked(k.DB, k.Key) {
		if w.Type == typ && !slices.Contains(tried, w) {
			return w
		}
	}
	return nil
}

// serveReadyKeys serves the waiters of keys on a goroutine of its own (an inline writer found a
// lock busy).
func (p *Pipeline) serveReadyKeys(keys []keyspace.WaitKey) {
	p.serveReady(&Ctx{KS: p.KS, ready: keys}, false)
}

// unsafeBytes views s as bytes, for a lookup that does not keep them.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
