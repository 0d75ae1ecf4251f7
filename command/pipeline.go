package command

import (
	"fmt"
	"runtime/debug"
	"sync/atomic"

	"github.com/kvserver/kvserver/evict"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/replyerr"
)

// kvserver's own errors of the pipeline, where Redis crashes and kvserver recovers. The
// checks' other errors are Redis's (replyerr).
const (
	errPanic                   = "ERR internal error in '%s': the command was aborted and its changes may be partial (see the server log)"
	errPoisoned replyerr.Error = "ERR this key's shard is unavailable after an internal error (see the server log); keys in other shards are served"
	// errShuttingDown answers a command that was waiting for a lock while the shutdown saved the
	// dataset: it did not run.
	errShuttingDown replyerr.Error = "ERR the server is shutting down: the dataset has been saved and no command runs any more"
)

// Pipeline runs every command, in Redis's processCommand + call order: arity → DEBUG's
// enable-debug-command → authentication → the ACL (acl.go) → the denyoom check → the shards of
// the keys → their locks, ascending → the handler → the hooks after a command → unlock. Handlers do not lock:
// which shards a command holds is declared by its row (Locking), so EXEC and scripts can later
// hold the union of several commands' shards. A panic in a handler is recovered here, its locks
// released, the client answered, and the shards it was writing poisoned.
type Pipeline struct {
	KS *keyspace.Keyspace
	// Evictor keeps used memory under maxmemory (nil: no limit). Before a command takes its
	// locks, while over the limit, keys are evicted; when nothing more can be, a denyoom
	// command is refused and reads go on (Redis's processCommand).
	Evictor *evict.Evictor
	// OnPanic, when set, is told of each recovered panic (after the locks are released), to log
	// it; the pipeline counts them itself (Panics).
	OnPanic func(ctx *Ctx, r any, stack []byte)
	// Observer, when set, is told of every command answered: its statistics. Set before the
	// pipeline runs commands.
	Observer Observer
	// Gate, when set, may refuse a command after the memory check and before its locks, with
	// the error reply it returns ("" lets it run): Redis's MISCONF while saves fail, LOADING
	// while the dataset loads. It is asked only while SetGated(true), so that the hot path pays
	// one atomic load for it.
	Gate  func(cmd *Command) string
	gated atomic.Bool
	// Publisher, when set, receives the keyspace notifications of the commands run (pub/sub's
	// hub; nil: none are sent). Set before the pipeline runs commands.
	Publisher Publisher

	panics atomic.Int64 // recovered handler panics

	// scriptBusy counts the scripts past busy-reply-threshold (script.go): EVAL scripts in
	// the low 32 bits, functions in the high ones. Run answers BUSY while it is not 0.
	scriptBusy atomic.Int64

	// Blocking commands (blocked.go): the connections blocked, and their deadlines.
	blockedClients atomic.Int64
	timeouts       timeoutHeap

	// The ACL step (acl.go): skipped while aclOn is false (every user allows everything).
	acl   *ACL
	aclOn atomic.Bool
}

// SetGated switches the Gate's check on or off.
func (p *Pipeline) SetGated(on bool) { p.gated.Store(on) }

// Panics counts the handler panics recovered so far.
func (p *Pipeline) Panics() int64 { return p.panics.Load() }

// Outcome is how Run ended.
type Outcome uint8

const (
	// Done: the command ran, or was refused with an error reply.
	Done Outcome = iota
	// Handoff: inline, a lock was taken by someone else; nothing ran and nothing was written.
	// The caller hands the connection to a goroutine, which runs the command again and waits
	// for the lock there (a readiness loop never waits: DESIGN §4).
	Handoff
	// Parked: the command blocked (BLPOP on an empty list): nothing was answered, and the
	// connection is registered on its keys. The caller parks it as blocked (BlockedConn) and
	// runs none of its later commands until it is served (ServeBlocked).
	Parked
)

// Run runs ctx.Cmd with ctx.Args for conn, or answers lookupErr when the lookup found no
// command (ctx.Cmd nil). inline says whether a readiness loop runs it: then the locks are only
// tried.
//
// A panic in the handler leaves Run with the command's locks held: the caller defers Recover
// around its series of Run calls — once per batch of pipelined commands rather than once per
// command, because a deferred call costs as much as the pipeline's checks together — and Recover
// releases them. Callers that run one command at a time use RunRecovered.
func (p *Pipeline) Run(ctx *Ctx, conn Conn, lookupErr string, inline bool) Outcome {
	cmd := ctx.Cmd
	switch {
	case cmd == nil:
		return p.reject(ctx, lookupErr)
	case !cmd.ArityOK(ctx.Args.Len()) || cmd.Handler == nil:
		return p.reject(ctx, replyerr.WrongArgs(cmd.FullName).Error())
	case cmd.IsDebug && !conn.DebugAllowed():
		return p.reject(ctx, replyerr.DebugNotAllowed.Error())
	case cmd.Flags&NoAuth == 0 && conn.AuthRequired():
		return p.reject(ctx, replyerr.NoAuth.Error())
	case p.aclOn.Load() && !p.aclAllows(ctx) && p.aclRefuses(ctx, aclContext(ctx), ctx.Conn):
		return p.reject(ctx, ctx.aclErr)
	case p.scriptBusy.Load() != 0 && ctx.refuseBusy():
		// Before the memory check, whose eviction would wait on the busy script's shards
		// (Redis skips eviction while busy), and before any lock (script.go).
		return p.reject(ctx, p.BusyError())
	case p.Evictor.Over() && p.Evictor.Perform() == evict.Fail && ctx.denyOOM():
		return p.reject(ctx, replyerr.OOM.Error())
	}
	if p.gated.Load() {
		if msg := p.gate(ctx); msg != "" {
			return p.reject(ctx, msg)
		}
	}
	if ctx.Tx.InMulti() {
		if out, done := p.inMulti(ctx, conn, inline); done {
			return out
		}
	}
	ctx.locked = p.shardsOf(ctx, ctx.locked[:0])
	if out, ok := p.lockForRun(ctx, inline); !ok {
		return out
	}
	return p.call(ctx, conn, inline)
}

// lockForRun takes the locks of the shards in ctx.locked, ascending (inline, a readiness loop
// only tries them), and refuses the command when one of those shards is poisoned or shut for
// the shutdown's save. It reports whether the command may run; when not, out is how it ended:
// Handoff (a lock was busy inline: nothing ran, nothing held) or Done (refused with its error,
// the locks released). Run and EXEC share it.
func (p *Pipeline) lockForRun(ctx *Ctx, inline bool) (out Outcome, ok bool) {
	if !p.lock(ctx.locked, inline) {
		ctx.locked = ctx.locked[:0]
		return Handoff, false
	}
	for _, i := range ctx.locked {
		if r := p.KS.Shard(i).Refused(); r != 0 {
			p.unlock(ctx)
			if r&keyspace.RefusePoisoned != 0 {
				return p.reject(ctx, errPoisoned.Error()), false
			}
			return p.reject(ctx, errShuttingDown.Error()), false
		}
	}
	return Done, true
}

// reject answers a command refused before its handler (Redis's rejectCommand): the error
// reply, counted by the Observer.
func (p *Pipeline) reject(ctx *Ctx, errText string) Outcome {
	if ctx.Tx.InMulti() {
		ctx.Tx.flag() // Redis's flagTransaction: EXEC will answer EXECABORT
	}
	if ctx.Cmd != nil && ctx.Cmd.txRole == txExec {
		if ctx.Tx != nil {
			ctx.Tx.Discard(p.KS)
		}
		errText = execAbortText(errText)
	}
	start := ctx.W.Len()
	ctx.W.Error(errText)
	if p.Observer != nil {
		p.Observer.Rejected(ctx, errorCode(ctx.W.Bytes()[start:]))
	}
	return Done
}

// call runs the handler and the hooks after it, then releases the locks, then tells the
// Observer (statistics need no lock, so the shards are not held for them). A panic skips the
// release: Recover does it. The handler alone is timed, as Redis's call() times c->cmd->proc.
// A command that blocked is registered on its keys before the locks are released, and is not
// counted until it is served (Redis's updateStatsOnUnblock).
func (p *Pipeline) call(ctx *Ctx, conn Conn, inline bool) Outcome {
	ctx.replyStart, ctx.inHandler = ctx.W.Len(), true
	start := Ticks()
	ctx.Cmd.Handler(ctx)
	ns := TicksToNanos(Ticks() - start)
	ctx.inHandler = false
	blocked := ctx.block.on
	if blocked {
		p.blockLocked(ctx)
	} else if ctx.rerun != nil {
		p.unregisterLocked(ctx.rerun) // served
	}
	p.afterCommand(ctx)
	p.takeReadyLocked(ctx)
	p.unlock(ctx)
	p.afterUnlock(ctx)
	p.serveReadyAfter(ctx, inline)
	if blocked {
		return Parked
	}
	if p.Observer != nil {
		var code []byte
		if b := ctx.W.Bytes(); ctx.replyStart < len(b) {
			code = errorCode(b[ctx.replyStart:])
		}
		p.Observer.Called(ctx, conn, ns, code)
	}
	return Done
}

// Recover is the pipeline's end of a handler's panic, for the caller's deferred function with
// the value recover() returned: it poisons the shards of a write, replaces the partial reply by
// an error naming the command, releases the locks, reports the panic (OnPanic) and returns
// true. It returns false, touching nothing, for a panic that did not come from a handler run by
// Run: the caller's own, which it handles as before.
func (p *Pipeline) Recover(ctx *Ctx, r any) bool {
	if !ctx.inHandler {
		return false
	}
	ctx.inHandler = false
	stack := p.recovered(ctx, r, ctx.replyStart)
	ctx.dropEvents() // a half-done command's notifications are not sent
	ctx.block.on = false
	p.unlock(ctx)
	if p.OnPanic != nil {
		p.OnPanic(ctx, r, stack)
	}
	if p.Observer != nil {
		// A failed call with its error reply; its duration is not known (Recover has no start).
		p.Observer.Called(ctx, nil, 0, errCodeERR)
	}
	return true
}

// RunRecovered is Run with its own deferred Recover, for callers that run one command at a
// time (tests; later EXEC's queued commands may share one instead).
func (p *Pipeline) RunRecovered(ctx *Ctx, conn Conn, lookupErr string, inline bool) (out Outcome) {
	defer func() {
		if r := recover(); r != nil && !p.Recover(ctx, r) {
			panic(r)
		}
	}()
	return p.Run(ctx, conn, lookupErr, inline)
}

// afterCommand is where the hooks after a command go, in Redis's call() order, as the issues
// that need them arrive: statistics (commandstats, errorstats, latency, slowlog), propagation to
// replicas and the AOF, keyspace notifications (the expiries of the command's shards join its
// events). Wake-ups of clients blocked on the keys written follow it (takeReady, under the
// locks; served after them). It stays small enough for the compiler to inline on the path of
// every command: the blocking checks are apart (takeReadyLocked, serveReadyAfter).
func (p *Pipeline) afterCommand(ctx *Ctx) { p.collectEvents(ctx) }

// takeReadyLocked takes the ready keys of ctx's shards (keys added that clients wait on), when
// a client blocks somewhere: one atomic load otherwise.
func (p *Pipeline) takeReadyLocked(ctx *Ctx) {
	if p.KS.Blocking() {
		p.takeReady(ctx)
	}
}

// afterUnlock is where the hooks that must not hold shard locks go, once a command (or EXEC's
// whole transaction) has released them: delivery of keyspace notifications to subscribers.
func (p *Pipeline) afterUnlock(ctx *Ctx) { p.deliverEvents(ctx) }

// serveReadyAfter serves, after afterUnlock, the clients blocked on the keys the command added
// (inline: a readiness loop, which only tries locks).
func (p *Pipeline) serveReadyAfter(ctx *Ctx, inline bool) {
	if len(ctx.ready) > 0 {
		p.serveReady(ctx, inline)
	}
}

// recovered handles a handler's panic with the locks still held: the shards of a write command
// are poisoned (its table or arena may be half-changed) before anyone else can take them, and
// the partial reply is dropped for an error naming the command. It returns the stack for
// OnPanic, which is called once the locks are released. In invariants builds the process
// crashes instead, at once, so that the fault is found where it happened.
func (p *Pipeline) recovered(ctx *Ctx, r any, replyStart int) []byte {
	stack := debug.Stack()
	if crashOnPanic {
		crash(ctx, r, stack)
	}
	p.panics.Add(1)
	if ctx.Cmd.Flags&Write != 0 {
		for _, i := range ctx.locked {
			p.KS.Shard(i).Poison()
		}
	}
	if ctx.W.Len() >= replyStart {
		ctx.W.Truncate(replyStart)
	}
	ctx.W.Error(fmt.Sprintf(errPanic, ctx.Cmd.FullName))
	return stack
}
