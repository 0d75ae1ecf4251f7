package command

import (
	"slices"
	"strings"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/replyerr"
)

// The pipeline's part of MULTI/EXEC (Redis's processCommand queuing and execCommand): while a
// connection is in MULTI, every command that passes the checks is queued and answered QUEUED;
// EXEC takes the union of the queued commands' shards (and of the watched keys') once, in
// ascending order, checks WATCH under those locks, and runs every queued command's handler and
// hooks under them, so that no other connection sees half a transaction.

// txRole is what a command does while its connection is in MULTI.
type txRole uint8

const (
	txQueue   txRole = iota // queued, run by EXEC
	txExec                  // EXEC: runs the queue
	txRun                   // DISCARD, QUIT, RESET: run at once, even over maxmemory
	txNoMulti               // refused inside a transaction, which then aborts (no_multi, MULTI, WATCH)
)

// txRoleOf is the role of the command named name (a row's full name) with flags: Redis's
// no_multi commands (SAVE, SHUTDOWN, SYNC, PSYNC) are refused inside MULTI, and so are MULTI
// and WATCH.
func txRoleOf(name string, flags Flags) txRole {
	if flags&NoMulti != 0 {
		return txNoMulti
	}
	switch name {
	case "exec":
		return txExec
	case "discard", "quit", "reset":
		return txRun
	case "multi", "watch":
		// Redis 7.2's and Valkey 8's no-multi rule: refused, and the transaction aborts
		// (redis-server 7.0.15 answers "MULTI calls can not be nested" and "WATCH inside MULTI
		// is not allowed" and lets the EXEC run).
		return txNoMulti
	}
	return txQueue
}

// Errors of transactions, Redis's words.
const (
	errNotInTx        replyerr.Error = "ERR Command not allowed inside a transaction"
	errExecAbort      replyerr.Error = "EXECABORT Transaction discarded because of previous errors."
	execAbortBecause                 = "EXECABORT Transaction discarded because of: "
	errExecWithout    replyerr.Error = "ERR EXEC without MULTI"
	errDiscardWithout replyerr.Error = "ERR DISCARD without MULTI"
	// errTxStopped answers, in EXEC's array, the commands after one that panicked: they did not
	// run (kvserver's own; Redis would have crashed).
	errTxStopped replyerr.Error = "ERR not run: an earlier command of the transaction failed with an internal error (see the server log)"
)

// ErrExecWithoutMulti and ErrDiscardWithoutMulti are EXEC's and DISCARD's answers outside MULTI.
var (
	ErrExecWithoutMulti    = errExecWithout
	ErrDiscardWithoutMulti = errDiscardWithout
)

// execAbortText is the error EXEC answers when the pipeline refuses it (Redis's
// execCommandAbort): the refusal's text after "EXECABORT Transaction discarded because of: ",
// without the ERR code that Redis's own formatted refusals do not carry.
func execAbortText(errText string) string {
	errText = strings.TrimPrefix(errText, "-")
	errText = strings.TrimPrefix(errText, "ERR ")
	return execAbortBecause + errText
}

// denyOOM reports whether the command must be refused while over maxmemory with nothing left to
// evict: a denyoom command; inside MULTI any command but EXEC, DISCARD, QUIT and RESET (queuing
// takes memory); EXEC when a queued command is denyoom.
func (ctx *Ctx) denyOOM() bool {
	cmd := ctx.Cmd
	if cmd.Flags&DenyOOM != 0 {
		return true
	}
	tx := ctx.Tx
	if !tx.InMulti() {
		return false
	}
	switch cmd.txRole {
	case txExec:
		return tx.flags&DenyOOM != 0
	case txRun:
		return false
	}
	return true
}

// gate asks the Gate about the command, and for EXEC about each queued command too (Redis
// treats an EXEC as a write when one of its commands is).
func (p *Pipeline) gate(ctx *Ctx) string {
	if msg := p.Gate(ctx.Cmd); msg != "" {
		return msg
	}
	if tx := ctx.Tx; ctx.Cmd.txRole == txExec && tx.InMulti() {
		for _, q := range tx.queue {
			if msg := p.Gate(q.cmd); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// inMulti is Run's step for a connection in MULTI, after the checks: it queues the command, or
// refuses it, or runs EXEC; done is false for the commands that run at once (DISCARD, QUIT,
// RESET), which Run goes on with.
func (p *Pipeline) inMulti(ctx *Ctx, conn Conn, inline bool) (out Outcome, done bool) {
	switch ctx.Cmd.txRole {
	case txQueue:
		ctx.Tx.add(ctx)
		ctx.W.Simple("QUEUED")
		return Done, true
	case txNoMulti:
		return p.reject(ctx, errNotInTx.Error()), true
	case txExec:
		return p.exec(ctx, conn, inline), true
	}
	return Done, false
}

// exec runs the transaction (Redis's execCommand). An aborted transaction answers EXECABORT;
// one whose watched keys changed answers a null array; else the union of the shards is locked
// (inline only tried: Handoff, nothing done), and every queued command runs with its own
// shards as ctx's, its reply an element of EXEC's array — a runtime error (WRONGTYPE) is one
// element and the rest go on. A panic in a queued command is recovered here: its shards are
// poisoned as Run's Recover does, and the commands after it are answered errTxStopped.
func (p *Pipeline) exec(ctx *Ctx, conn Conn, inline bool) Outcome {
	tx := ctx.Tx
	execCmd, execArgs := ctx.Cmd, ctx.Args
	start := Ticks()
	if tx.aborted {
		tx.Discard(p.KS)
		return p.execDone(ctx, conn, start, func() { ctx.W.Error(errExecAbort.Error()) })
	}
	// The shards of each queued command, then their union with the watched keys'.
	tx.lockIdx, tx.lockEnd = tx.lockIdx[:0], tx.lockEnd[:0]
	for _, q := range tx.queue {
		ctx.Cmd, ctx.Args = q.cmd, q.args
		one := p.shardsOf(ctx, tx.union[:0])
		tx.lockIdx = append(tx.lockIdx, one...)
		tx.lockEnd = append(tx.lockEnd, len(tx.lockIdx))
		tx.union = one[:0]
	}
	ctx.Cmd, ctx.Args = execCmd, execArgs
	u := append(tx.union[:0], tx.lockIdx...)
	u = tx.Watch.AppendShards(u)
	slices.Sort(u)
	tx.union = slices.Compact(u)
	ctx.locked = append(ctx.locked[:0], tx.union...)
	if out, ok := p.lockForRun(ctx, inline); !ok {
		return out
	}
	if tx.Watch.Dirty() || p.KS.WatchedExpiredLocked(&tx.Watch) {
		p.unlock(ctx)
		tx.Discard(p.KS)
		return p.execDone(ctx, conn, start, ctx.W.NullArray)
	}
	p.KS.Unwatch(&tx.Watch) // as Redis, at once: the transaction's own writes need not touch them
	held := ctx.locked
	ctx.W.Array(len(tx.queue))
	noTouch := ctx.NoTouch
	var (
		failed     *queued
		panicVal   any
		panicStack []byte
	)
	for i := range tx.queue {
		q := &tx.queue[i]
		if failed != nil {
			ctx.W.Error(errTxStopped.Error())
			continue
		}
		begin := 0
		if i > 0 {
			begin = tx.lockEnd[i-1]
		}
		ctx.Cmd, ctx.Args = q.cmd, q.args
		if p.aclOn.Load() {
			// The rules may have changed since the command was queued (execCommand).
			if d, u := p.aclCheck(ctx, q.cmd, q.args); d.Reason != acl.None {
				p.aclDenied(ctx, u, d, ACLContextMulti, ctx.Conn)
				ctx.W.Error(aclExecText(d))
				continue
			}
		}
		ctx.locked = tx.lockIdx[begin:tx.lockEnd[i]]
		ctx.SetNoTouch(noTouch)
		ns, r, stack := p.callQueued(ctx)
		if stack != nil {
			failed, panicVal, panicStack = q, r, stack
			if p.Observer != nil {
				p.Observer.Called(ctx, nil, 0, errCodeERR)
			}
			continue
		}
		if p.Observer != nil {
			var code []byte
			if b := ctx.W.Bytes(); ctx.replyStart < len(b) {
				code = errorCode(b[ctx.replyStart:])
			}
			p.Observer.Called(ctx, conn, ns, code)
		}
	}
	ctx.Cmd, ctx.Args, ctx.locked = execCmd, execArgs, held
	ctx.SetNoTouch(noTouch)
	p.unlock(ctx)
	p.afterUnlock(ctx)
	p.serveReadyAfter(ctx, inline)
	if failed != nil && p.OnPanic != nil {
		ctx.Cmd, ctx.Args = failed.cmd, failed.args
		p.OnPanic(ctx, panicVal, panicStack)
		ctx.Cmd, ctx.Args = execCmd, execArgs
	}
	tx.Discard(p.KS)
	return p.execDone(ctx, conn, start, nil)
}

// execDone writes EXEC's own reply (when write is not nil) and tells the Observer of the EXEC.
func (p *Pipeline) execDone(ctx *Ctx, conn Conn, start int64, write func()) Outcome {
	replyStart := ctx.W.Len()
	if write != nil {
		write()
	}
	if p.Observer != nil {
		var code []byte
		if b := ctx.W.Bytes(); write != nil && replyStart < len(b) {
			code = errorCode(b[replyStart:])
		}
		p.Observer.Called(ctx, conn, TicksToNanos(Ticks()-start), code)
	}
	return Done
}

// callQueued runs one queued command's handler and the hooks after it, under EXEC's locks. A
// panic in the handler is recovered: the command's shards are poisoned if it writes, its reply
// replaced by the error naming it, its keyspace notifications dropped, and the panic value and
// stack returned (stack non-nil).
func (p *Pipeline) callQueued(ctx *Ctx) (ns int64, r any, stack []byte) {
	mark := ctx.eventsMark()
	defer func() {
		if v := recover(); v != nil {
			if !ctx.inHandler {
				panic(v)
			}
			ctx.inHandler = false
			ctx.truncateEvents(mark) // a half-done command's notifications are not sent
			r, stack = v, p.recovered(ctx, v, ctx.replyStart)
		}
	}()
	ctx.replyStart, ctx.inHandler = ctx.W.Len(), true
	start := Ticks()
	ctx.Cmd.Handler(ctx)
	ns = TicksToNanos(Ticks() - start)
	ctx.inHandler = false
	p.afterCommand(ctx)
	p.takeReadyLocked(ctx)
	return ns, nil, nil
}
