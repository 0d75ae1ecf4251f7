package command

import (
	"sync/atomic"

	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
)

// Tx is a connection's transaction state: MULTI's queue and WATCH's keys (Redis's c->mstate,
// c->watched_keys and the CLIENT_MULTI, CLIENT_DIRTY_EXEC flags). It belongs to whoever serves
// the connection; the counters CLIENT LIST shows (Queued, Mem, Watch.Len, Watch.Dirty) may be
// read from any goroutine.
type Tx struct {
	// Watch is the connection's watched keys, registered in the shards' watch tables.
	Watch keyspace.Watcher

	multi   bool     // between MULTI and EXEC or DISCARD
	aborted bool     // a command was refused while queuing: EXEC answers EXECABORT
	flags   Flags    // the queued commands' flags, together (EXEC is denyoom if one is)
	queue   []queued // the commands, in order
	args    *querybuf.Parser
	argSum  int64 // multi-mem's share of the queued arguments

	queued atomic.Int32 // CLIENT LIST's multi=: -1 outside MULTI, else len(queue)
	mem    atomic.Int64 // CLIENT LIST's multi-mem=

	// EXEC's scratch, kept between transactions: the shards of each queued command, one after
	// the other (lockEnd[i] ends command i's), and their union.
	lockIdx, lockEnd, union []int
}

// queued is one command of a transaction: its row and its arguments, copied out of the
// connection's query buffer into the Tx's own arena.
type queued struct {
	cmd  *Command
	args querybuf.Args
}

// multiCmdSize is what Redis counts in multi-mem for each queued command (sizeof(multiCmd))
// and argPtrSize for each of its arguments (a robj pointer in argv).
const (
	multiCmdSize = 24
	argPtrSize   = 8
	// watchedKeySize is what Redis counts in multi-mem for each watched key (a list node and a
	// watchedKey).
	watchedKeySize = 56
)

// TxConn is implemented by connections that run transactions: NewTx gives the connection's
// Tx, made on first use and kept for the connection's life.
type TxConn interface {
	NewTx() *Tx
}

// NewTx returns an empty transaction state (not in MULTI, watching nothing).
func NewTx() *Tx {
	tx := &Tx{}
	tx.queued.Store(-1)
	return tx
}

// TxOf returns ctx's transaction state, making it (TxConn) when the connection has none yet.
func TxOf(ctx *Ctx) *Tx {
	if ctx.Tx == nil {
		if c, ok := ctx.Conn.(TxConn); ok {
			ctx.Tx = c.NewTx()
		} else {
			ctx.Tx = NewTx()
		}
	}
	return ctx.Tx
}

// InMulti reports whether the connection is between MULTI and EXEC or DISCARD.
func (tx *Tx) InMulti() bool { return tx != nil && tx.multi }

// Begin starts queuing (MULTI).
func (tx *Tx) Begin() {
	tx.multi = true
	tx.queued.Store(0)
}

// Queued is CLIENT LIST's multi=: -1 outside MULTI, else the number of commands queued. Safe
// from any goroutine.
func (tx *Tx) Queued() int {
	if tx == nil {
		return -1
	}
	return int(tx.queued.Load())
}

// Mem is CLIENT LIST's multi-mem=: the queued commands' arguments and the watched keys, as
// Redis's multiStateMemOverhead counts them. Safe from any goroutine.
func (tx *Tx) Mem() int64 {
	if tx == nil {
		return 0
	}
	return tx.mem.Load() + watchedKeySize*int64(tx.Watching())
}

// Dirty reports whether a watched key changed (CLIENT LIST's d flag). Safe from any goroutine.
func (tx *Tx) Dirty() bool { return tx != nil && tx.Watch.Dirty() }

// Watching is the number of watched keys (CLIENT LIST's watch=): 0 once one has changed, as
// Redis then unwatches them all (kvserver forgets them at EXEC, DISCARD or UNWATCH). Safe from
// any goroutine.
func (tx *Tx) Watching() int {
	if tx == nil || tx.Watch.Dirty() {
		return 0
	}
	return tx.Watch.Len()
}

// WatchLocked watches key of database db, in shard sh (locked): WATCH.
func (tx *Tx) WatchLocked(sh *keyspace.Shard, db int, key []byte) {
	sh.WatchLocked(&tx.Watch, db, key)
	tx.publishMem()
}

// Unwatch forgets the watched keys (UNWATCH).
func (tx *Tx) Unwatch(ks *keyspace.Keyspace) {
	ks.Unwatch(&tx.Watch)
	tx.publishMem()
}

// add appends the command ctx is about to run to the transaction, its arguments copied.
func (tx *Tx) add(ctx *Ctx) {
	if tx.args == nil {
		tx.args = querybuf.NewParser(querybuf.DefaultLimits())
	}
	args := tx.args.AppendCommand(ctx.Args)
	tx.queue = append(tx.queue, queued{cmd: ctx.Cmd, args: args})
	tx.flags |= ctx.Cmd.Flags
	tx.argSum += int64(args.LenSum()) + argPtrSize*int64(args.Len())
	tx.queued.Store(int32(len(tx.queue)))
	tx.publishMem()
}

// flag marks the transaction aborted by an error while queuing (Redis's flagTransaction).
func (tx *Tx) flag() {
	if tx.multi {
		tx.aborted = true
	}
}

// Discard ends the transaction: the queue is dropped and every key unwatched (DISCARD, EXEC's
// end, RESET, a closing connection — Redis's discardTransaction).
func (tx *Tx) Discard(ks *keyspace.Keyspace) {
	clear(tx.queue)
	tx.queue = tx.queue[:0]
	if tx.args != nil {
		tx.args.ResetCommands()
		if tx.args.ArgvMem() > 64<<10 {
			tx.args = nil // a big transaction's arena is not kept
		}
	}
	tx.multi, tx.aborted, tx.flags, tx.argSum = false, false, 0, 0
	tx.queued.Store(-1)
	ks.Unwatch(&tx.Watch)
	tx.publishMem()
}

// publishMem stores the queue's share of multi-mem for CLIENT LIST (Mem adds the watched keys).
func (tx *Tx) publishMem() {
	tx.mem.Store(tx.argSum + multiCmdSize*int64(len(tx.queue)))
}

// RunsInline reports whether a readiness loop may run cmd for this connection (the caller has
// found cmd not Inline by itself): inside MULTI a command that is only queued or refused does,
// and so does EXEC when every queued command does.
func (tx *Tx) RunsInline(cmd *Command) bool {
	if !tx.InMulti() {
		return false
	}
	switch cmd.txRole {
	case txQueue, txNoMulti:
		return true
	case txExec:
		for _, q := range tx.queue {
			if !q.cmd.Inline {
				return false
			}
		}
		return true
	}
	return false
}
