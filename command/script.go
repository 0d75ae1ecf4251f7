package command

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/resp"
)

// The pipeline's part of Lua scripts (EVAL, FCALL: DESIGN §4 "Scripts"; Redis's script.c). A
// script runs on its connection's goroutine (the rows are not Inline) inside its command's
// handler, with the shards of its declared keys locked by the pipeline as for any command. Each
// redis.call goes through ScriptRun.Call, which does what Redis's scriptCall does — the lookup,
// arity, noscript, read-only, MISCONF and OOM checks, in Redis's order and words — then runs the
// command's handler under the script's locks, with the hooks after a command (statistics,
// keyspace notifications, wake-ups of blocked clients), its reply written in the protocol the
// script asked for. The events and wake-ups are handed to the script's own command at the end,
// so they are delivered once the script unlocks, in order.
//
// Keys the script did not declare (non-cluster Redis allows them: BullMQ builds job keys inside
// its scripts) are never refused. A script's first run holds every shard (the family's vetting:
// family/scriptfamily/run.go); later runs of a script that touched only its declared keys'
// shards hold those shards only. When such a run touches another shard, it is locked then:
//   - a shard above every shard held is locked, waiting if needed: the locks are still taken in
//     ascending order, so this cannot deadlock;
//   - a lower one is only tried (another client may hold it and wait for one of ours); when it
//     is busy and the script has written nothing yet, the run is aborted — its reply dropped,
//     nothing changed — and run again holding every shard (NeedsRerun, Restart);
//   - when it is busy and the script has already written, the run cannot be undone, and may
//     not wait for the lock without bound (its holder may be waiting for one of the script's
//     shards: a deadlock): it keeps trying for up to undeclaredWait (the holder is most often
//     a short command), then that redis.call answers errUndeclaredBusy, the script goes on
//     (its own redis.pcall may handle it) and the server logs it. This can happen only to a
//     script whose earlier runs all kept to their declared keys, on the run that first strays
//     after a write while another client holds that shard; the run reports it
//     (ScriptRun.Undeclared) and every later run of the script holds every shard
//     (ScriptShards).
// Holding every shard a script has touched until it ends (two-phase locking) keeps it atomic:
// no other command sees it half done, and it sees no other command half done.
//
// Busy scripts: a watcher marks a run busy once it has run for busy-reply-threshold; from then
// on every command without the allow_busy flag is answered BUSY by Run before it waits on any
// lock (one atomic load on the hot path), until the run ends or SCRIPT KILL / FUNCTION KILL stop
// it. A command that was already waiting on one of the script's locks when it became busy keeps
// waiting: it passed the check before the script was busy, and runs once the script ends (Redis
// has no such case: it runs one command at a time).
//
// Time: the run's start (unix ms) is the clock of the shards it holds (keyspace's frozen clock),
// so key expiry inside a script is decided as at its start (Redis 7's script time snapshot);
// ctx.Now (SET … EX, EXPIRE, TTL) and TIME answer it too.
//
// Scripts inside MULTI: EXEC locks every shard for a queued script (ScriptShards), since it
// cannot add a shard in the middle of its transaction.

// Errors of commands called from scripts, Redis 7.2's words (script.c's scriptCall).
const (
	errScriptUnknown  replyerr.Error = "ERR Unknown Redis command called from script"
	errScriptArity    replyerr.Error = "ERR Wrong number of args calling Redis command from script"
	errScriptNoScript replyerr.Error = "ERR This Redis command is not allowed from script"
	errScriptReadOnly replyerr.Error = "ERR Write commands are not allowed from read-only scripts."
	// errUndeclaredBusy is kvserver's own: a script that has written touches a key it did not
	// declare whose shard another client holds (see above).
	errUndeclaredBusy replyerr.Error = "ERR the script touched a key it did not declare, whose shard another client holds, after it had written: declare every key the script uses (numkeys) so that it runs atomically"
	// errScriptStopped answers the redis.call of a run being stopped (killed, or aborted to be
	// run again); the engine unwinds the script and the client gets the kill error, or nothing
	// (the run is replaced).
	errScriptStopped replyerr.Error = "ERR the script is being stopped"
)

// The BUSY, SCRIPT KILL and FUNCTION KILL replies, Redis's words.
const (
	// ErrBusyScript answers other clients while an EVAL script is busy.
	ErrBusyScript replyerr.Error = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."
	// ErrBusyFunction answers other clients while a function (FCALL) is busy.
	ErrBusyFunction replyerr.Error = "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE."
	// ErrNotBusy answers SCRIPT KILL and FUNCTION KILL when no script is busy.
	ErrNotBusy replyerr.Error = "NOTBUSY No scripts in execution right now."
	// ErrUnkillable answers SCRIPT KILL and FUNCTION KILL when the busy script has written.
	ErrUnkillable replyerr.Error = "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command."
)

// Log levels of redis.log (Redis's LL_DEBUG … LL_WARNING), as package scripting numbers them.
const (
	ScriptLogDebug = iota
	ScriptLogVerbose
	ScriptLogNotice
	ScriptLogWarning
)

// busyFunctionUnit counts busy functions in the high half of Pipeline.scriptBusy; busy EVAL
// scripts count in the low half.
const busyFunctionUnit = 1 << 32

// busyWatchPeriod is how often the watcher looks for runs past busy-reply-threshold: the
// threshold is in milliseconds and Redis checks every 100,000 Lua instructions (about a
// millisecond); 10 ms keeps the BUSY replies within a hundredth of a second of the threshold.
const busyWatchPeriod = 10 * time.Millisecond

// Scripts is the server's state of the scripts that run: the settings their runs read, and
// the runs in progress (for the busy watcher, SCRIPT KILL and FUNCTION KILL, SHUTDOWN). One per
// server; its methods are safe for concurrent use.
type Scripts struct {
	// P is the pipeline the scripts' commands run through; Table is where redis.call looks
	// them up. Set before the first run.
	P     *Pipeline
	Table *Table
	// Log receives redis.log's lines and the server's warnings about scripts (level
	// ScriptLogDebug … ScriptLogWarning); nil drops them.
	Log func(level int, msg string)

	busyMs atomic.Int64 // busy-reply-threshold, milliseconds

	// stripes hold the runs in progress, each run in the stripe it was made for, so that runs
	// on many cores do not all take one lock at their start and end.
	stripes    [runStripes]runStripe
	nextStripe atomic.Uint32 // round robin of the stripes given to new runs
	watching   atomic.Bool   // the busy watcher runs
	pool       sync.Pool     // *ScriptRun
}

// runStripes is the number of stripes of the registry of runs: more than the cores that run
// scripts at once on most machines, and few enough for the watcher and Kill to visit them all.
const runStripes = 16

// runStripe is one lock's share of the runs in progress. The fields of a run that the busy
// watcher and Kill read (started, stop, busy, regIdx) are guarded by its stripe's mu.
type runStripe struct {
	mu   sync.Mutex
	runs []*ScriptRun // a run's index is its regIdx
	_    [32]byte     // keep neighbouring stripes' locks off this cache line
}

// NewScripts returns the scripts' state for pipeline p and table t, with Redis's default
// busy-reply-threshold (5000 ms).
func NewScripts(p *Pipeline, t *Table) *Scripts {
	s := &Scripts{P: p, Table: t}
	s.busyMs.Store(5000)
	return s
}

// SetBusyThreshold sets busy-reply-threshold (lua-time-limit), in milliseconds.
func (s *Scripts) SetBusyThreshold(ms int64) { s.busyMs.Store(ms) }

// BusyThreshold is busy-reply-threshold, in milliseconds.
func (s *Scripts) BusyThreshold() int64 { return s.busyMs.Load() }

// ScriptOptions are what a run's caller knows of the script before it runs.
type ScriptOptions struct {
	// ReadOnly: EVAL_RO, EVALSHA_RO, FCALL_RO, or a script declaring no-writes — write
	// commands are refused.
	ReadOnly bool
	// AllowOOM: the script declared allow-oom (or no-writes): its denyoom commands run over
	// maxmemory. Without it a legacy script (no shebang) is refused OOM at its first denyoom
	// command while it has written nothing, as Redis's scriptVerifyOOM.
	AllowOOM bool
	// Function: an FCALL — FUNCTION KILL stops it, SCRIPT KILL does not, and BUSY names
	// FUNCTION KILL.
	Function bool
	// Name names the script in the slow-script warning: an EVAL script's SHA1 (the warning
	// says f_<sha>, Redis's name of its Lua function), or the function's name.
	Name string
	// Keys are the keys the script declares (numkeys): a redis.call on a key in any other
	// shard makes the run Undeclared, even when the run holds every shard.
	Keys [][]byte
}

// runState is a run's write and kill state, moved by compare-and-swap so that SCRIPT KILL
// never kills a run that has just written.
const (
	runClean  int32 = iota // nothing written: killable, and abortable for a re-run
	runDirty               // wrote: unkillable
	runKilled              // killed by SCRIPT KILL / FUNCTION KILL (or SHUTDOWN)
)

// ScriptRun is one run of a script: the Caller its redis.call goes through, and its locks.
// It belongs to the goroutine running the script's command; Kill and the busy watcher touch
// only its atomics, its done channel and the fields its stripe's lock guards.
type ScriptRun struct {
	s      *Scripts
	parent *Ctx // the EVAL's (or FCALL's) context: its locked shards are the script's
	child  Ctx  // the context the script's commands run with
	w      resp.Writer
	args   *querybuf.Parser
	flat   []byte   // a redis.call's arguments, one after the other (argsOf)
	ends   []uint32 // their ends in flat
	opts   ScriptOptions

	startMs    int64     // unix ms: the shards' frozen clock
	started    time.Time // for busy-reply-threshold
	oomAtStart bool      // over maxmemory when the run began (Redis's pre_command_oom_state)
	inTx       bool      // run by EXEC: EXEC holds the shards, none may be added
	undeclared bool      // touched a shard none of its declared keys is in
	declared   []int     // the declared keys' shards, ascending
	rerun      bool      // aborted: run again holding every shard

	stripe *runStripe   // where the run registers
	regIdx int          // index in stripe.runs; -1 when not registered (guarded by stripe.mu)
	busy   bool         // counted in Pipeline.scriptBusy (guarded by stripe.mu)
	state  atomic.Int32 // runClean, runDirty, runKilled
	stop   *runContext  // cancelled to stop the engine: kill or abort
}

// Begin starts a run of a script for the command ctx runs (EVAL, FCALL …), whose shards the
// pipeline holds. It returns "" and the run, or the error reply that refuses the script
// before it runs: refuseOOM asks for Redis's check of a script with declared flags that may
// write without allow-oom (Redis's evalGetCommandFlags makes such an EVAL denyoom): over
// maxmemory it is refused with the OOM error. End must follow a run that began.
func (s *Scripts) Begin(ctx *Ctx, o ScriptOptions, refuseOOM bool) (*ScriptRun, string) {
	oom := s.P.Evictor.Over()
	if refuseOOM && oom {
		return nil, replyerr.OOM.Error()
	}
	r, _ := s.pool.Get().(*ScriptRun)
	if r == nil {
		r = &ScriptRun{s: s, args: querybuf.NewParser(querybuf.DefaultLimits()), regIdx: -1}
		r.stripe = &s.stripes[s.nextStripe.Add(1)%runStripes]
	}
	r.parent, r.opts, r.oomAtStart = ctx, o, oom
	r.inTx = ctx.Tx.InMulti()
	r.undeclared, r.rerun = false, false
	r.declared = r.declared[:0]
	for _, k := range o.Keys {
		r.declared = append(r.declared, ctx.KS.ShardFor(k))
	}
	slices.Sort(r.declared)
	r.declared = slices.Compact(r.declared)
	c := &r.child
	c.W, c.KS, c.Cfg, c.Stats, c.DB = &r.w, ctx.KS, ctx.Cfg, ctx.Stats, ctx.DB
	c.BigArgCopies, c.NoTouch, c.inScript = ctx.BigArgCopies, ctx.NoTouch, true
	c.User = ctx.User
	r.start(false)
	return r, ""
}

// start begins (or, registered, begins again) the run: its clock and state, the held shards'
// frozen clock, and its registration (the busy watcher and Kill read started and stop under
// the stripe's lock).
func (r *ScriptRun) start(registered bool) {
	r.startMs = r.parent.KS.Now()
	r.child.scriptNow = r.startMs
	if !registered {
		r.state.Store(runClean)
	}
	for _, i := range r.parent.locked {
		r.parent.KS.Shard(i).FreezeClockLocked(r.startMs)
	}
	st := r.stripe
	st.mu.Lock()
	r.started = time.Now()
	r.child.scriptStartUs = r.started.UnixMicro()
	r.stop = newRunContext()
	if !registered {
		r.regIdx = len(st.runs)
		st.runs = append(st.runs, r)
	} else if r.state.Load() == runKilled {
		// Killed while it was being aborted for a re-run: the re-run stops at once, and its
		// client gets the kill error.
		r.stop.cancel()
	}
	st.mu.Unlock()
	if !registered {
		r.s.startWatcher()
	}
}

// Context is the run's context for the engine (scripting.RunOpts.Ctx): cancelled when the run
// is killed or aborted to be run again.
func (r *ScriptRun) Context() context.Context { return r.stop }

// Killed reports whether SCRIPT KILL, FUNCTION KILL or a shutdown stopped the run: the engine
// has answered the kill error.
func (r *ScriptRun) Killed() bool { return r.state.Load() == runKilled }

// Written reports whether the run has called a write command.
func (r *ScriptRun) Written() bool { return r.state.Load() == runDirty }

// Undeclared reports whether the run touched keys in shards none of its declared keys is in
// (whether it held them or not): the caller then locks every shard for the script's later runs
// (ScriptShards).
func (r *ScriptRun) Undeclared() bool { return r.undeclared }

// NeedsRerun reports whether the run was aborted before its first write, on an undeclared key
// whose shard another client held: the caller drops what the engine wrote and calls Restart,
// then runs the script again.
func (r *ScriptRun) NeedsRerun() bool { return r.rerun }

// Restart prepares an aborted run to run again holding every shard: the shards held are
// released and every shard is locked in ascending order. It returns an error reply when a
// shard refuses commands (poisoned, or shut for the shutdown's save): then the script must not
// run, and End follows.
func (r *ScriptRun) Restart() string {
	p, ctx := r.s.P, r.parent
	r.thaw()
	p.unlock(ctx)
	for i := range p.KS.NumShards() {
		ctx.locked = append(ctx.locked, i)
	}
	p.lock(ctx.locked, false)
	for _, i := range ctx.locked {
		if rf := p.KS.Shard(i).Refused(); rf != 0 {
			p.unlock(ctx)
			return refusalText(rf)
		}
	}
	r.rerun = false
	r.undeclared = true
	r.start(true)
	return ""
}

// refusalText is the error of a command on a shard that refuses commands.
func refusalText(rf keyspace.Refusal) string {
	if rf&keyspace.RefusePoisoned != 0 {
		return errPoisoned.Error()
	}
	return errShuttingDown.Error()
}

// End ends the run: the shards' clocks are thawed, the events and wake-ups of the script's
// commands are handed to its own command (the pipeline delivers them once it unlocks), and the
// run is unregistered. The run must not be used afterwards.
func (r *ScriptRun) End() {
	s := r.s
	s.unregister(r)
	r.thaw()
	c, ctx := &r.child, r.parent
	ctx.appendEvents(c)
	if len(c.ready) > 0 {
		ctx.ready = append(ctx.ready, c.ready...)
		clear(c.ready)
		c.ready = c.ready[:0]
	}
	c.dropEvents()
	r.stop.release() // unregistered: nobody cancels it any more
	r.stop = nil
	r.parent = nil
	c.Cmd, c.Args, c.locked, c.Stats = nil, querybuf.Args{}, c.locked[:0], nil // the connection's
	r.args.ResetCommands()
	// A pooled run keeps its buffers, unless a big argument or reply grew them.
	if r.args.ArgvMem() > maxKeptScriptBuf {
		r.args = querybuf.NewParser(querybuf.DefaultLimits())
	}
	if cap(r.flat) > maxKeptScriptBuf {
		r.flat = nil
	}
	if r.w.Cap() > maxKeptScriptBuf {
		r.w = resp.Writer{}
	}
	r.w.Reset()
	s.pool.Put(r)
}

// maxKeptScriptBuf bounds each buffer a pooled run keeps between runs (redis.call's arguments,
// their copy, its reply): one script's big value should not stay in every pooled run.
const maxKeptScriptBuf = 64 << 10

// thaw gives the held shards their real clock back.
func (r *ScriptRun) thaw() {
	for _, i := range r.parent.locked {
		r.parent.KS.Shard(i).ThawClockLocked()
	}
}

// Call runs one command for redis.call / redis.pcall and returns its reply in protocol proto,
// valid until the next Call (scripting.Caller). The checks are Redis's scriptCall's, in its
// order: the command exists, its arity, noscript, a write in a read-only run, a write while
// saves fail (MISCONF) or a denyoom command over maxmemory before the run's first write.
func (r *ScriptRun) Call(args [][]byte, proto int) []byte {
	w := &r.w
	w.Reset()
	w.SetProto(proto)
	if r.rerun || r.stop.cancelled() {
		w.Error(errScriptStopped.Error())
		return w.Bytes()
	}
	a := r.argsOf(args)
	c, p := &r.child, r.s.P
	cmd := r.lookup(a)
	c.Cmd, c.Args = cmd, a // a refused command counts as its row's rejected call (nil: none)
	switch {
	case cmd == nil:
		return r.refuse(errScriptUnknown)
	case !cmd.ArityOK(a.Len()) || cmd.Handler == nil:
		return r.refuse(errScriptArity)
	case cmd.Flags&NoScript != 0:
		return r.refuse(errScriptNoScript)
	case p.aclOn.Load() && p.aclRefuses(c, ACLContextLua, r.parent.Conn):
		return r.refuse(replyerr.Error("ERR ACL failure in script: " + strings.TrimPrefix(c.aclErr, "NOPERM ")))
	case r.opts.ReadOnly && cmd.Flags&(Write|MayReplicate) != 0:
		return r.refuse(errScriptReadOnly)
	case cmd.Flags&Write != 0 && p.gated.Load() && r.state.Load() == runClean && p.Gate(cmd) != "":
		// Redis's scriptVerifyWriteCommandAllow: MISCONF while saves fail, until the first write.
		return r.refuse(replyerr.Error(p.Gate(cmd)))
	case cmd.Flags&DenyOOM != 0 && !r.opts.AllowOOM && r.oomAtStart && r.state.Load() == runClean:
		return r.refuse(replyerr.OOM)
	}
	if local := scriptLocal(cmd); local != nil {
		local(c) // no keys, no hooks: PING, ECHO, SELECT
		return w.Bytes()
	}
	c.locked = p.shardsOf(c, c.locked[:0])
	for _, i := range c.locked {
		if _, ok := slices.BinarySearch(r.declared, i); !ok {
			r.undeclared = true
		}
		if _, held := slices.BinarySearch(r.parent.locked, i); !held {
			if msg := r.acquire(i); msg != "" {
				w.Error(msg)
				return w.Bytes()
			}
		}
	}
	if cmd.Flags&Write != 0 && !r.markDirty() {
		w.Error(errScriptStopped.Error())
		return w.Bytes()
	}
	ns := r.callHandler()
	if p.Observer != nil {
		var code []byte
		if b := w.Bytes(); len(b) > 0 {
			code = errorCode(b)
		}
		p.Observer.Called(c, nil, ns, code)
	}
	return w.Bytes()
}

// argsOf copies the command line into the run's own arena: handlers take querybuf.Args.
func (r *ScriptRun) argsOf(args [][]byte) querybuf.Args {
	r.flat, r.ends = r.flat[:0], r.ends[:0]
	for _, a := range args {
		r.flat = append(r.flat, a...)
		r.ends = append(r.ends, uint32(len(r.flat)))
	}
	r.args.ResetCommands()
	return r.args.AppendFlat(r.flat, r.ends)
}

// lookup finds the row of a command line as the server does (command, then subcommand), or
// nil: Redis's lookupCommand, where an unknown subcommand is an unknown command too.
func (r *ScriptRun) lookup(a querybuf.Args) *Command {
	if a.Len() == 0 {
		return nil
	}
	cmd, _ := r.s.Table.Lookup(a)
	return cmd
}

// refuse answers a redis.call refused before its handler (Redis's scriptCall error path: the
// error counted in errorstats and as the command's rejected call).
func (r *ScriptRun) refuse(err replyerr.Error) []byte {
	r.w.Error(err.Error())
	if p := r.s.P; p.Observer != nil {
		p.Observer.Rejected(&r.child, errorCode(r.w.Bytes()))
	}
	return r.w.Bytes()
}

// markDirty records the run's first write; false when the run was killed meanwhile.
func (r *ScriptRun) markDirty() bool {
	return r.state.CompareAndSwap(runClean, runDirty) || r.state.Load() == runDirty
}

// acquire locks shard i, which the run does not hold, for an undeclared key (see the package
// comment above): waiting when i is above every shard held, else only trying. It returns ""
// once the shard is held, else the redis.call's error (the run may have been aborted for a
// re-run).
func (r *ScriptRun) acquire(i int) string {
	p, ctx := r.s.P, r.parent
	if r.inTx {
		// EXEC locked every shard for a script (ScriptShards): nothing can be missing.
		return errUndeclaredBusy.Error()
	}
	sh := p.KS.Shard(i)
	if n := len(ctx.locked); n == 0 || i > ctx.locked[n-1] {
		sh.Lock()
	} else if !sh.TryLock() {
		if r.state.Load() == runClean {
			r.rerun = true
			r.stop.cancel()
			return errScriptStopped.Error()
		}
		if !tryLockFor(sh, undeclaredWait) {
			r.log(ScriptLogWarning, fmt.Sprintf("Script %s: %s", r.opts.Name, errUndeclaredBusy))
			return errUndeclaredBusy.Error()
		}
	}
	if rf := sh.Refused(); rf != 0 {
		sh.Unlock()
		return refusalText(rf)
	}
	sh.FreezeClockLocked(r.startMs)
	j, _ := slices.BinarySearch(ctx.locked, i)
	ctx.locked = slices.Insert(ctx.locked, j, i)
	r.undeclared = true
	return ""
}

// undeclaredWait bounds how long a script that has written tries to lock the shard of an
// undeclared key below those it holds. The holder is most often a command that ends within
// microseconds; if it is instead waiting for one of the script's shards (it locks in
// ascending order), the script gives up after this long, and that command goes on once the
// script ends: no deadlock, at the price of an error in a rare case.
const undeclaredWait = 10 * time.Millisecond

// tryLockFor tries to lock sh until it succeeds or d has passed, yielding between tries.
func tryLockFor(sh *keyspace.Shard, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		for range 64 {
			runtime.Gosched()
			if sh.TryLock() {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// callHandler runs the command's handler and the hooks after it under the script's locks, as
// EXEC's callQueued does: a panic is recovered — the command's shards poisoned if it writes,
// its reply the error naming it (the script goes on, as after any error reply), its events
// dropped — and reported at once (OnPanic), the script's locks still held.
func (r *ScriptRun) callHandler() (ns int64) {
	c, p := &r.child, r.s.P
	mark := c.eventsMark()
	defer func() {
		if v := recover(); v != nil {
			if !c.inHandler {
				panic(v)
			}
			c.inHandler = false
			c.truncateEvents(mark)
			stack := p.recovered(c, v, 0)
			if p.OnPanic != nil {
				p.OnPanic(c, v, stack)
			}
		}
	}()
	c.replyStart, c.inHandler = 0, true
	start := Ticks()
	c.Cmd.Handler(c)
	ns = TicksToNanos(Ticks() - start)
	c.inHandler = false
	p.afterCommand(c)
	p.takeReadyLocked(c)
	return ns
}

// scriptLocal returns the script's own handler of the connection commands a script may call
// whose server handlers act on the client itself (its socket's writer, its database): inside a
// script PING and ECHO answer the script, and SELECT changes the script's database only (the
// caller's is unchanged after the script, as in Redis 7). CLIENT HELP is refused as noscript
// (its handler is the connection's). TIME answers the script's start: Redis 7 updates its
// cached time only at the outermost call, so a script sees the time its EVAL began. nil for
// every other command.
func scriptLocal(cmd *Command) Handler {
	switch cmd.FullName {
	case "ping":
		return scriptPing
	case "echo":
		return func(ctx *Ctx) { ctx.W.Bulk(ctx.Args.Arg(1)) }
	case "select":
		return scriptSelect
	case "time":
		return scriptTime
	case "client|help":
		return func(ctx *Ctx) { ctx.W.Error(errScriptNoScript.Error()) }
	}
	return nil
}

func scriptPing(ctx *Ctx) {
	switch ctx.Args.Len() {
	case 1:
		ctx.W.Simple("PONG")
	case 2:
		ctx.W.Bulk(ctx.Args.Arg(1))
	default:
		ctx.W.Error(replyerr.WrongArgs("ping").Error())
	}
}

func scriptTime(ctx *Ctx) {
	us := ctx.scriptStartUs
	ctx.W.Array(2)
	ctx.W.BulkInt(us / 1e6)
	ctx.W.BulkInt(us % 1e6)
}

func scriptSelect(ctx *Ctx) {
	v, ok := conv.String2ll(ctx.Args.Arg(1))
	switch {
	case !ok:
		ctx.W.Error(replyerr.NotInteger.Error())
	case v < -1<<31 || v > 1<<31-1:
		ctx.W.Error(replyerr.IntRange.Error())
	case v < 0 || v >= int64(ctx.KS.Databases()):
		ctx.W.Error(replyerr.DBIndex.Error())
	default:
		ctx.DB = int(v)
		ctx.W.OK()
	}
}

// Run runs a script for the command ctx runs (EVAL, EVALSHA, FCALL …): Begin, then exec —
// which runs the engine once with r as its Caller and r.Context() as its context, writing the
// script's reply (or error) to ctx.W — again after Restart for as long as the run is aborted
// for a re-run (at most once: the re-run holds every shard), then End. A refusal at the start
// is written to ctx.W. It reports whether the script touched keys it did not declare, for the
// caller to remember (ScriptShards' lockAll).
func (s *Scripts) Run(ctx *Ctx, o ScriptOptions, refuseOOM bool, exec func(r *ScriptRun)) (undeclared bool) {
	r, msg := s.Begin(ctx, o, refuseOOM)
	if msg != "" {
		ctx.W.Error(msg)
		return false
	}
	defer r.End() // also when exec panics: the pipeline's Recover then releases the locks
	start := ctx.W.Len()
	for {
		exec(r)
		if !r.NeedsRerun() {
			break
		}
		ctx.W.Truncate(start)
		if msg := r.Restart(); msg != "" {
			ctx.W.Error(msg)
			break
		}
	}
	return r.Undeclared()
}

// ACLCheck answers redis.acl_check_cmd: whether the script's user may run the command line
// (its keys and channels included, as ACLCheckAllUserCommandPerm); an unknown command is
// Redis's error. No ACL entry is logged and nothing is counted.
func (r *ScriptRun) ACLCheck(args [][]byte) (bool, string) {
	a := r.argsOf(args)
	cmd := r.lookup(a)
	if cmd == nil {
		return false, "Invalid command passed to redis.acl_check_cmd()"
	}
	if !r.s.P.aclOn.Load() {
		return true, ""
	}
	d, _ := r.s.P.aclCheck(&r.child, cmd, a)
	return d.Reason == acl.None, ""
}

// Log is redis.log.
func (r *ScriptRun) Log(level int, msg string) { r.log(level, msg) }

func (r *ScriptRun) log(level int, msg string) {
	if r.s.Log != nil {
		r.s.Log(level, msg)
	}
}

// ScriptShards appends the shards a script's command must hold before it runs (a LockFunc
// row's Shards): every shard inside MULTI (EXEC cannot add one in the middle of its
// transaction) or when lockAll (a script known to touch keys it does not declare), else the
// shards of the declared keys — the arguments from firstKey on, numKeys of them (the caller
// has parsed numkeys; a bad one declares nothing and the handler answers the error).
func ScriptShards(ctx *Ctx, dst []int, firstKey, numKeys int, lockAll bool) []int {
	if lockAll || ctx.Tx.InMulti() {
		for i := range ctx.KS.NumShards() {
			dst = append(dst, i)
		}
		return dst
	}
	for i := firstKey; i < firstKey+numKeys && i < ctx.Args.Len(); i++ {
		dst = append(dst, ctx.KS.ShardFor(ctx.Args.Arg(i)))
	}
	return dst
}

// startWatcher starts the busy watcher if it is not running.
func (s *Scripts) startWatcher() {
	if !s.watching.Load() && s.watching.CompareAndSwap(false, true) {
		go s.watch()
	}
}

// unregister removes a run from those in progress; a busy run stops counting as busy.
func (s *Scripts) unregister(r *ScriptRun) {
	st := r.stripe
	st.mu.Lock()
	if i := r.regIdx; i >= 0 {
		last := len(st.runs) - 1
		st.runs[i] = st.runs[last]
		st.runs[i].regIdx = i
		st.runs[last] = nil
		st.runs = st.runs[:last]
		r.regIdx = -1
	}
	if r.busy {
		r.busy = false
		s.P.scriptBusy.Add(-busyUnit(r.opts.Function))
	}
	st.mu.Unlock()
}

// eachRun calls fn for every run in progress, under its stripe's lock, and returns how many
// there are.
func (s *Scripts) eachRun(fn func(r *ScriptRun)) int {
	n := 0
	for i := range s.stripes {
		st := &s.stripes[i]
		st.mu.Lock()
		for _, r := range st.runs {
			fn(r)
		}
		n += len(st.runs)
		st.mu.Unlock()
	}
	return n
}

func busyUnit(function bool) int64 {
	if function {
		return busyFunctionUnit
	}
	return 1
}

// watch is the busy watcher: while runs are in progress it marks those past
// busy-reply-threshold busy; it ends when none is left (a run starting meanwhile either is
// seen by the last check or starts it again: watching is cleared before that check).
func (s *Scripts) watch() {
	for {
		time.Sleep(busyWatchPeriod)
		if s.CheckBusy() {
			continue
		}
		s.watching.Store(false)
		if s.Running() == 0 || !s.watching.CompareAndSwap(false, true) {
			return
		}
	}
}

// CheckBusy marks busy the runs that have run longer than busy-reply-threshold (logging
// Redis's warning for each), and reports whether runs are in progress. The watcher calls it;
// tests may.
func (s *Scripts) CheckBusy() bool {
	limit := time.Duration(s.busyMs.Load()) * time.Millisecond
	var slow []string
	n := s.eachRun(func(r *ScriptRun) {
		if elapsed := time.Since(r.started); !r.busy && elapsed >= limit {
			r.busy = true
			s.P.scriptBusy.Add(busyUnit(r.opts.Function))
			kill, name := "SCRIPT KILL", "f_"+r.opts.Name // Redis names an EVAL script's function f_<sha>
			if r.opts.Function {
				kill, name = "FUNCTION KILL", r.opts.Name
			}
			slow = append(slow, fmt.Sprintf("Slow script detected: still in execution after %d milliseconds. "+
				"You can try killing the script using the %s command. Script name is: %s.",
				elapsed.Milliseconds(), kill, name))
		}
	})
	if s.Log != nil {
		for _, msg := range slow {
			s.Log(ScriptLogWarning, msg)
		}
	}
	return n > 0
}

// Kill is SCRIPT KILL (function false) and FUNCTION KILL (true): the busy runs of that kind
// that have written nothing are stopped (each answers its client the kill error). It returns
// "" (+OK) when one was, else the error reply: NOTBUSY when no script is busy, UNKILLABLE when
// the busy ones have written, the other kind's BUSY when only the other kind is busy (Redis's
// scriptKill).
func (s *Scripts) Kill(function bool) string {
	var killed, dirty, other bool
	s.eachRun(func(r *ScriptRun) {
		switch {
		case !r.busy:
		case r.opts.Function != function:
			other = true
		case r.state.CompareAndSwap(runClean, runKilled):
			r.stop.cancel()
			killed = true
		case r.state.Load() == runKilled:
			killed = true
		default:
			dirty = true
		}
	})
	switch {
	case killed:
		return ""
	case dirty:
		return ErrUnkillable.Error()
	case other && function:
		return ErrBusyScript.Error()
	case other:
		return ErrBusyFunction.Error()
	}
	return ErrNotBusy.Error()
}

// KillAll stops every run in progress, written or not (SHUTDOWN NOSAVE: the process ends and
// nothing is saved, so a half-done script changes nothing that lasts), so that their
// connections can close. It returns how many it stopped.
func (s *Scripts) KillAll() int {
	return s.eachRun(func(r *ScriptRun) {
		r.state.Store(runKilled)
		r.stop.cancel()
	})
}

// Running is the number of runs in progress.
func (s *Scripts) Running() int { return s.eachRun(func(*ScriptRun) {}) }

// Busy reports whether a script is busy (past busy-reply-threshold).
func (s *Scripts) Busy() bool { return s.P.scriptBusy.Load() != 0 }

// BusyError is the BUSY reply while scripts are busy: FUNCTION KILL's words when only
// functions are.
func (p *Pipeline) BusyError() string {
	if n := p.scriptBusy.Load(); n != 0 && n%busyFunctionUnit == 0 {
		return ErrBusyFunction.Error()
	}
	return ErrBusyScript.Error()
}

// refuseBusy reports whether a command must be answered BUSY while a script is busy: any
// command without allow_busy, except a blocked command being served again (Redis does not
// serve blocked clients while busy; here the wake-up came from another shard's writer and is
// served).
func (ctx *Ctx) refuseBusy() bool {
	return ctx.Cmd.Flags&AllowBusy == 0 && ctx.rerun == nil
}

// runContext is a run's context for the engine: a done channel closed to stop it. Runs that
// end without being stopped give theirs back to a pool (a closed one is dropped), so that a
// run allocates none.
type runContext struct {
	done   chan struct{}
	closed atomic.Bool
}

var runContexts = sync.Pool{New: func() any { return &runContext{done: make(chan struct{})} }}

func newRunContext() *runContext { return runContexts.Get().(*runContext) }

func (c *runContext) cancel() {
	if c.closed.CompareAndSwap(false, true) {
		close(c.done)
	}
}

func (c *runContext) cancelled() bool { return c.closed.Load() }

// release gives an unclosed context back to the pool.
func (c *runContext) release() {
	if c != nil && !c.closed.Load() {
		runContexts.Put(c)
	}
}

func (c *runContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *runContext) Done() <-chan struct{}       { return c.done }
func (c *runContext) Value(any) any               { return nil }
func (c *runContext) Err() error {
	if c.closed.Load() {
		return context.Canceled
	}
	return nil
}

// appendEvents moves the events src recorded after those ctx has (a script's commands' events
// to the script's own command), keys and all.
func (ctx *Ctx) appendEvents(src *Ctx) {
	from := &src.events
	if len(from.list) == 0 {
		return
	}
	ev := &ctx.events
	base := uint32(len(ev.keys))
	ev.keys = append(ev.keys, from.keys...)
	for _, e := range from.list {
		e.end += base
		ev.list = append(ev.list, e)
	}
}
