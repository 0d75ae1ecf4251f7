package server

import (
	"errors"
	"github.com/kvserver/kvserver/command"
	"io"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"

	"golang.org/x/sys/unix"

	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

const (
	// readBufferSize is the read size: Redis's PROTO_IOBUF_LEN.
	readBufferSize = querybuf.SharedBufferSize
	// replyFlushThreshold flushes a long pipeline's replies part-way, so that the reply buffer
	// of a client sending 100,000 GETs in one batch does not hold them all.
	replyFlushThreshold = 64 << 10
)

// client is one connection. Fields are grouped by who owns them. What only a client being
// served needs (parser, reply writer, read state) is in activeState, which a parked client
// gives back, so that an idle connection costs only this struct.
type client struct {
	// Immutable after accept.
	srv     *Server
	id      int64
	conn    net.Conn // nil for a socket (fd ≥ 0): only connections without an fd use it
	created int64    // unix ms
	fd      int32    // -1 for a connection without one
	peer    peerAddr // the remote address of a socket

	// mu is held by whoever serves the client while it reads into its private buffer and
	// while it runs a batch; the cron TryLocks it to trim the buffers and skips a busy client.
	mu sync.Mutex
	// Guarded by mu.
	*activeState                  // nil while the client is parked with nothing half-parsed
	qb           querybuf.Private // an unfinished line's bytes, in the clients' arena (clientBuffers)

	// Owned by whoever serves the client.
	db      int32 // the selected database (int32: the struct's 256-byte budget)
	inEpoll bool  // the socket is in its loop's epoll set
	hupOnly bool  // blocked, its socket watched for hang-ups only: data came meanwhile (blocked.go)

	// Shared with other goroutines (CLIENT LIST and KILL, INFO, the cron, the loop): atomics.
	killed          atomic.Bool
	state           atomic.Uint32 // clientActive, clientParked or clientClosed
	name            atomic.Pointer[string]
	lib             atomic.Pointer[libInfo]       // CLIENT SETINFO
	writeWaiter     atomic.Pointer[chan struct{}] // set while its goroutine waits for the socket to drain
	lastInteraction atomic.Int64                  // unix ms of the last read, to a cron tick
	lastCmd         atomic.Pointer[command.Command]
	totCmds         atomic.Int64     // single writer: whoever serves the client
	netIn, netOut   atomic.Int64     // single writer
	sharedDB        atomic.Int32     // db, for CLIENT LIST
	sharedProto     atomic.Int32     // protocol version, for CLIENT LIST
	keyStats        command.KeyStats // keyspace_hits and _misses; single writer
	qbufUsed        atomic.Int64     // qbuf: an unfinished command's bytes not yet arguments (querybuf.Use)
	qbufCap         atomic.Int64     // qbuf + qbuf-free
	argvMem         atomic.Int64     // the rest of the input memory: arena, headers (qbufCap + argvMem = all)
	argvLenSum      atomic.Int64     // argv-mem: the unfinished command's complete arguments
	replyBufSize    atomic.Int64     // reply buffer held between batches
	authenticated   atomic.Bool      // see auth.go; single writer
	switches        atomic.Uint32    // CLIENT NO-TOUCH and NO-EVICT (switchNoTouch, switchNoEvict)

	// The two pointers below fill the struct's 256-byte budget: whatever a connection needs
	// beyond this goes behind one of them, or in a side table (Server.replConfs).

	// tx is the client's transaction state (MULTI's queue, WATCH's keys): tx.go.
	tx atomic.Pointer[txState]

	// subs is the client's pub/sub state (subscriptions, pushes waiting for the socket):
	// pubsub_client.go.
	subs atomic.Pointer[clientSubs]
}

// activeState is what a client needs while it is served. Guarded by the client's mu; handlers
// reach its fields through the embedding (c.w, c.scratch).
type activeState struct {
	parser     querybuf.Parser
	bufs       querybuf.Buffers // the server's clientBuffers, where parser's big arguments go
	plain      []byte           // read buffer of a connection without an fd
	readBuf    []byte           // where the last read went: a shared buffer, the private one, a big argument
	readKind   readTarget
	readPrefix int // private-buffer bytes a shared-buffer read left room for in front (readTargetLocked)
	readN      int
	readErr    error
	stepErr    error          // the read's error, kept from runReadLocked for replyLocked
	readFull   bool           // the last read filled its buffer: more may be waiting
	nextCmd    int            // the batch's next command to run (a hand-off resumes there)
	loop       *readinessLoop // the loop serving the client inline, whose buffers it uses; nil on a goroutine
	writable   chan struct{}  // waitWritable's, made on first use
	// softOverSince is when the unwritten replies went over the output soft limit (zero when
	// they are not): output_limit.go.
	softOverSince time.Time

	w               resp.Writer
	ctx             command.Ctx // the pipeline's context for this client's commands (attachActiveLocked)
	closeAfterReply bool
	// blocking: the batch stopped at a command that blocked; the commands after it wait until
	// it is served (blocked.go).
	blocking bool
	scratch  [64]byte // formatting space for handlers (integers, doubles)
}

// activePoolSize bounds the server's activePool, the free list of parked clients' active
// states: bounded, because 10,000 clients parking at once must not leave 10,000 states behind
// (a sync.Pool would keep them through the next garbage collection), and per server, because a
// state carries its server's big-argument buffers. It covers the clients that wake up together
// on a busy server; beyond it a wake-up allocates, cheap next to its syscalls.
const activePoolSize = 256

// attachActiveLocked gives the client an active state if it has none: from loop l's free list
// (nil: the server's pool), or a new one.
func (c *client) attachActiveLocked(l *readinessLoop) {
	if c.activeState != nil {
		return
	}
	var a *activeState
	if l != nil && len(l.states) > 0 {
		a = l.states[len(l.states)-1]
		l.states = l.states[:len(l.states)-1]
	} else {
		select {
		case a = <-c.srv.activePool:
		default:
			a = new(activeState)
		}
	}
	a.parser.SetLimits(c.parserLimits())
	a.w.SetBufferPool((*replyBufferPool)(c.srv))
	// Big arguments of a connection with an fd go to the clients' arena (and may be adopted);
	// those of one without stay on the Go heap and are copied.
	a.parser.SetBigBuffers(nil)
	if c.fd >= 0 {
		a.bufs = c.srv.clientBuffers()
		a.parser.SetBigBuffers(&a.bufs)
	}
	a.w.SetProto(int(c.sharedProto.Load()))
	// Field by field, so that the context keeps its lock-index buffer from client to client.
	a.ctx.W, a.ctx.KS, a.ctx.Cfg = &a.w, c.srv.ks, c.srv.cfg
	a.ctx.Stats, a.ctx.Conn, a.ctx.Records, a.ctx.BigArgCopies = &c.keyStats, c, c, &c.srv.stats.bigArgCopies
	a.ctx.Tx = c.tx.Load()
	a.ctx.User = c.userRef()
	if c.fd >= 0 {
		a.ctx.SetBlockedConn(c) // only sockets park blocked (blocked.go)
	}
	c.activeState = a
}

// detachActiveLocked gives the active state back — to loop l's free list, the server's pool,
// or the collector — when nothing is half-parsed or unwritten, and reports whether it did.
func (c *client) detachActiveLocked(l *readinessLoop) bool {
	a := c.activeState
	if a == nil {
		return true
	}
	if a.parser.MidCommand() || a.parser.PendingBytes() > 0 || a.parser.NumCommands() > 0 || a.parser.BigArgSize() > 0 || len(a.plain) > 0 || a.w.Len() > 0 {
		return false
	}
	a.parser.Recycle() // a big command's arena is not passed on
	a.w.SetBuffer(nil)
	a.plain, a.readBuf, a.readErr, a.stepErr, a.loop = nil, nil, nil, nil, nil
	a.closeAfterReply, a.nextCmd, a.blocking = false, 0, false
	a.ctx.SetBlockedConn(nil)
	a.ctx.Stats, a.ctx.Conn, a.ctx.Records, a.ctx.Cmd, a.ctx.Args = nil, nil, nil, nil, querybuf.Args{}
	a.ctx.Tx, a.ctx.User = nil, nil
	c.activeState = nil
	if l != nil && len(l.states) < freeStatesPerLoop {
		l.states = append(l.states, a)
		return true
	}
	select {
	case c.srv.activePool <- a:
	default: // the pool is full: the collector takes it
		c.srv.parks.Add(1)
	}
	return true
}

// newClient makes the client of a connection without a file descriptor (served by a goroutine
// through conn).
func newClient(s *Server, conn net.Conn, id int64) *client {
	c := &client{srv: s, id: id, conn: conn, fd: -1}
	c.init()
	return c
}

// newSocketClient makes the client of an accepted socket (served by its readiness loop).
func newSocketClient(s *Server, fd int, peer peerAddr, id int64) *client {
	c := &client{srv: s, id: id, fd: int32(fd), peer: peer}
	c.init()
	return c
}

func (c *client) init() {
	c.created = time.Now().UnixMilli()
	c.sharedProto.Store(2)
	c.state.Store(clientActive)
	c.lastInteraction.Store(c.created)
	c.initAuth()
}

// Bits of client.switches: the connection's CLIENT switches, one atomic word for both.
const (
	switchNoTouch uint32 = 1 << iota // CLIENT NO-TOUCH: its lookups leave LRU/LFU alone
	switchNoEvict                    // CLIENT NO-EVICT: exempt from client eviction (maxmemory-clients)
	switchUser                       // authenticated as a user other than default (acl.go)
)

// switchOn reports whether the CLIENT switch bit is on.
func (c *client) switchOn(bit uint32) bool { return c.switches.Load()&bit != 0 }

// setSwitch turns the CLIENT switch bit on or off.
func (c *client) setSwitch(bit uint32, on bool) {
	if on {
		c.switches.Or(bit)
	} else {
		c.switches.And(^bit)
	}
}

// libInfo is what CLIENT SETINFO set: one pointer, so that clients that never send it pay
// for one word.
type libInfo struct{ name, ver string }

// remoteAddr and localAddr are the connection's addresses as CLIENT LIST prints them (made on
// demand: a parked client keeps no strings). Both are "<unixsocket>:0" for a Unix-socket
// client, as Redis's genClientAddrString prints them.
func (c *client) remoteAddr() string {
	if c.conn != nil {
		return c.conn.RemoteAddr().String()
	}
	if c.peer.family == peerUnix {
		return c.srv.listen.unixPath + ":0"
	}
	return c.peer.String()
}

func (c *client) localAddr() string {
	if c.conn != nil {
		return c.conn.LocalAddr().String()
	}
	if c.peer.family == peerUnix {
		return c.srv.listen.unixPath + ":0"
	}
	return localSocketAddr(int(c.fd))
}

// serve runs the client on a goroutine of its own: a connection without an fd for its whole
// life, a socket handed over by its loop until it has nothing more to read (then it parks).
// One defer recovers a panic (logged, the client closed; the server goes on) and closes the
// client unless it parked, so every return below is clean.
func (c *client) serve() {
	parked := false
	defer func() {
		if r := recover(); r != nil {
			c.logPanic(r)
			parked = false
		}
		if !parked {
			c.close()
		}
	}()
	c.mu.Lock()
	c.attachActiveLocked(nil)
	c.mu.Unlock()
	// A hand-off may come with unwritten replies and commands still to run.
	action, drained := c.resume()
	switch action {
	case serveClose:
		return
	case serveBlock:
		parked = c.srv.parkBlocked(c, false)
		return
	}
	if drained && !c.killed.Load() {
		// The loop's read that brought the handed-over commands did not fill its buffer, so
		// the socket most likely holds nothing more: park at once rather than read it only to
		// find EAGAIN. Anything that came meanwhile is reported by the loop's level-triggered
		// epoll set, and served there. (An EVALSHA at -P 1 is one read, one write and this.)
		parked = c.srv.park(c)
		return
	}
	for !c.killed.Load() {
		switch c.step(false) {
		case serveClose:
			return
		case servePark:
			if c.srv.park(c) {
				parked = true
				return
			}
			return
		case serveBlock:
			parked = c.srv.parkBlocked(c, false)
			return
		}
	}
}

// logPanic logs a panic recovered while serving c, which is then closed: the server goes on.
func (c *client) logPanic(r any) {
	c.srv.log.Error("panic serving client, closing it",
		zap.Int64("id", c.id), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
}

// close closes a client its server owns (its loop or goroutine): the state says so first, so
// that a killer leaves it alone.
func (c *client) close() {
	c.state.Store(clientClosed)
	c.closeOwned()
}

// closeOwned releases a client nobody else serves: buffers, socket, registration.
func (c *client) closeOwned() {
	c.releaseSubs()
	c.endTx()
	c.releaseBlocked()
	c.releaseBuffers()
	if c.fd >= 0 {
		c.srv.forgetFD(c)
		_ = unix.Close(int(c.fd)) // also takes it out of its epoll set
	} else {
		_ = c.conn.Close()
	}
	c.srv.removeClient(c)
}

// shutdownSocket makes a client that someone else serves notice that it must close: reads
// return EOF, writes fail, its loop reports it. The fd stays open until its owner closes it, so
// it cannot be reused under the owner's feet.
func (c *client) shutdownSocket() {
	if c.fd >= 0 {
		_ = unix.Shutdown(int(c.fd), unix.SHUT_RDWR)
	} else {
		_ = c.conn.Close()
	}
}

// serveAction is what the serve loop does after a read.
type serveAction uint8

const (
	serveContinue serveAction = iota
	serveClose
	servePark    // nothing to read: the client waits in its loop (a goroutine gives it back)
	serveHandoff // inline only: the rest needs a goroutine (a slow command, a full socket)
	serveBlock   // a command blocked: the client waits in its loop, blocked (blocked.go)
	serveRetry   // a woken blocked client found a lock busy inline: a goroutine serves it
	// serveDeferred: inline, the batch ran and its replies wait for the end of the loop's round
	// (readinessLoop.writeDeferred); the client stays active meanwhile, its lock released.
	serveDeferred
)

// step reads once, runs every complete command and writes the replies. It says whether to go
// on, close, park, or (inline, on a loop) hand the client to a goroutine.
func (c *client) step(inline bool) serveAction {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stepLocked(inline)
}

// stepLocked is step with the client's lock held: one lock for the read, the batch and the
// replies.
func (c *client) stepLocked(inline bool) serveAction {
	err := c.readLocked()
	if c.readKind == readNone && err == nil && c.readErr == nil && c.fd >= 0 {
		return servePark // EAGAIN
	}
	if c.fd < 0 && c.subs.Load() != nil {
		// Pub/sub: its writer writes no message while this batch is answered (pubsub_client.go).
		if hold := c.holdPushWriter(); hold != nil {
			defer hold.Unlock()
		}
	}
	if action, done := c.runReadLocked(inline, err); done {
		return action
	}
	return c.replyLocked(inline)
}

// runReadLocked is the first half of a step, after a read that brought something (or an
// error): it parses what was read and runs the complete commands, their replies left in c.w.
// done reports that the step ended here (a hand-off, or a protocol error that closes the
// connection at once), with its action; otherwise replyLocked is the second half, at once or,
// on a readiness loop, after the loop's other ready clients have run (deferredReplies).
func (c *client) runReadLocked(inline bool, err error) (action serveAction, done bool) {
	c.countRead()
	perr := c.consumeRead()
	if c.readN > 0 {
		c.netIn.Store(c.netIn.Load() + int64(c.readN))
		c.lastInteraction.Store(c.srv.cron.nowMs.Load()) // the cron's clock: see cronState.nowMs
	}
	if err == nil {
		err = c.readErr
	}
	c.stepErr = err
	if c.parser.NumCommands() > 0 {
		c.takeReplyBuffer()
		if c.executeBatch(inline) {
			c.publishBufferUse()
			return serveHandoff, true
		}
	}
	c.publishBufferUse()
	if perr != nil {
		if !c.protocolError(perr) {
			return serveClose, true
		}
		c.closeAfterReply = true
	}
	return serveContinue, false
}

// replyLocked is the second half of a step: the replies (and pub/sub messages) written, then
// what becomes of the client — closed after an error or a QUIT, blocked, handed over with a
// full socket, or on.
func (c *client) replyLocked(inline bool) serveAction {
	err := c.stepErr
	c.stepErr = nil
	if !c.appendPushesLocked() {
		return serveClose // its pub/sub messages went over the output limit
	}
	switch c.flush(inline) {
	case flushFailed:
		return serveClose
	case flushBlocked:
		if c.blocking {
			return serveBlock // the rest is written once it is served
		}
		return serveHandoff
	}
	if c.closeAfterReply {
		return serveClose
	}
	if c.fd < 0 {
		c.startPushWriter()
	}
	if err != nil {
		if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
			c.srv.log.Debug("client read error", zap.Int64("id", c.id), zap.Error(err))
		}
		return serveClose
	}
	if c.blocking {
		return serveBlock
	}
	return serveContinue
}

// resume finishes what a loop handed over: unwritten replies, then the batch's remaining
// commands. drained reports that it did, for a socket whose last read did not fill its
// buffer (readFull): the client may park without another read.
func (c *client) resume() (action serveAction, drained bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.w.Len() == 0 && c.parser.NumCommands() == 0 {
		return serveContinue, false
	}
	action = c.resumeLocked()
	return action, action == serveContinue && c.fd >= 0 && !c.readFull && !c.closeAfterReply
}

// resumeLocked is resume's work, with the client's lock held.
func (c *client) resumeLocked() serveAction {
	if c.flush(false) != flushOK || c.closeAfterReply {
		return serveClose
	}
	if c.parser.NumCommands() > 0 {
		c.takeReplyBuffer()
		c.executeBatch(false)
		c.publishBufferUse()
	}
	if c.blocking {
		// One of them blocked: the replies before it are written, the rest wait.
		if c.flush(false) != flushOK {
			return serveClose
		}
		return serveBlock
	}
	// A protocol error after the handed-over commands (the parser keeps it): answer it now.
	if _, perr := c.parser.Parse(nil); perr != nil && c.protocolError(perr) {
		c.closeAfterReply = true
	}
	if !c.appendPushesLocked() || c.flush(false) != flushOK || c.closeAfterReply {
		return serveClose
	}
	return serveContinue
}

// executeBatch runs the parsed commands in order from nextCmd and then drops them. Inline, it
// stops before a command that must not run on a loop, or when a part-way flush would block,
// and reports true: a goroutine resumes from there. A handler's panic, recovered by the
// pipeline in runBatch's deferred function, ends that command with an error reply; the batch
// goes on with the next one.
func (c *client) executeBatch(inline bool) (handoff bool) {
	for {
		handoff, panicked := c.runBatch(inline)
		if !panicked {
			return handoff
		}
	}
}

// runBatch is executeBatch's loop under one deferred recovery (Pipeline.Recover) for the whole
// batch: a deferred call per command would cost as much as the pipeline's checks.
func (c *client) runBatch(inline bool) (handoff, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			if !c.srv.pipeline.Recover(&c.ctx, r) {
				panic(r) // not a handler's: the connection's own recovery logs it and closes the client
			}
			c.db = int32(c.ctx.DB)
			c.totCmds.Store(c.totCmds.Load() + 1)
			c.nextCmd++
			panicked = true
		}
	}()
	for c.nextCmd < c.parser.NumCommands() {
		args := c.parser.Command(c.nextCmd)
		cmd, errText := c.srv.cmds.LookupAfter(args, c.lastCmd.Load())
		if inline && cmd != nil && !cmd.Inline && (cmd.InlineIf == nil || !cmd.InlineIf(args)) && !c.ctx.Tx.RunsInline(cmd) {
			return true, false
		}
		switch c.execute(cmd, errText, args, inline) {
		case command.Handoff:
			return true, false
		case command.Parked:
			c.nextCmd++
			c.blocking = true
			if c.nextCmd < c.parser.NumCommands() {
				return false, false // the commands after it wait in the parser
			}
			c.parser.ResetCommands()
			c.parser.DropBigArena()
			c.nextCmd = 0
			return false, false
		}
		c.nextCmd++
		if c.w.Len() > unauthReplyLimit {
			c.checkUnauthReplyLimit()
		}
		if c.closeAfterReply {
			break
		}
		if c.w.Len() >= replyFlushThreshold {
			switch c.flush(inline) {
			case flushFailed:
				c.closeAfterReply = true
			case flushBlocked:
				return true, false
			}
			if c.closeAfterReply {
				break
			}
			c.takeReplyBuffer()
		}
	}
	c.parser.ResetCommands()
	c.parser.DropBigArena()
	c.nextCmd = 0
	return false, false
}

// execute runs one command through the server's pipeline (command.Pipeline.Run: arity,
// enable-debug-command, authentication, denyoom, the shards' locks, the handler, the hooks).
// Inline, a shard held elsewhere makes it report command.Handoff without running anything: the
// goroutine the client is handed to runs the command again.
func (c *client) execute(cmd *command.Command, errText string, args querybuf.Args, inline bool) command.Outcome {
	ctx := &c.ctx
	ctx.Args, ctx.Cmd, ctx.DB = args, cmd, int(c.db)
	ctx.SetNoTouch(c.switchOn(switchNoTouch))
	if cmd != nil && c.lastCmd.Load() != cmd {
		// As Redis's c->lastcmd, set at lookup: CLIENT LIST shows a running command. Stored only
		// when it changes: an atomic store is a fence, and a pipeline repeats one command.
		c.lastCmd.Store(cmd)
	}
	if c.subs.Load() != nil && c.refuseInSubscribedMode(cmd, args) {
		c.totCmds.Store(c.totCmds.Load() + 1)
		return command.Done
	}
	switch c.srv.pipeline.Run(ctx, c, errText, inline) {
	case command.Handoff:
		return command.Handoff
	case command.Parked:
		return command.Parked // counted in tot-cmds once served
	}
	c.db = int32(ctx.DB)
	c.totCmds.Store(c.totCmds.Load() + 1)
	return command.Done
}

// AuthRequired is command.Conn's: whether the client must still authenticate.
func (c *client) AuthRequired() bool { return c.authRequired() }

// DebugAllowed is command.Conn's: whether enable-debug-command lets this client run DEBUG.
func (c *client) DebugAllowed() bool { return c.srv.debugAllowed(c) }

// PeerID is slowlog.Peer's: the client's address, as CLIENT LIST's addr.
func (c *client) PeerID() string { return c.remoteAddr() }

// ClientName is slowlog.Peer's: the client's name, "" if none.
func (c *client) ClientName() string { return c.getName() }

// protocolError answers a malformed request as Redis does — the error, then close: it writes
// the error and reports true, and the caller flushes and closes — or, over the query buffer
// limit, counts it and reports false: close without a reply.
func (c *client) protocolError(err error) bool {
	var pe *querybuf.ProtocolError
	if errors.As(err, &pe) {
		c.srv.logLimited(logKindProtocolError, zap.DebugLevel, "protocol error", c, zap.Error(err))
		c.w.Error(pe.Error())
		c.srv.observe.cmdStats.CountError(resp.ErrorCode(pe.Error())) // Redis counts it too (addReplyError)
		return true
	}
	if errors.Is(err, querybuf.ErrQueryBufLimit) {
		c.srv.stats.queryBufLimitDisconnections.Add(1)
		c.srv.logLimited(logKindClientLimit, zap.WarnLevel, "closing client that reached the query buffer limit", c)
		return false
	}
	c.srv.log.Debug("closing client", zap.Int64("id", c.id), zap.Error(err))
	return false
}

// flushResult is how a flush ended.
type flushResult uint8

const (
	flushOK      flushResult = iota
	flushFailed              // the connection failed
	flushBlocked             // inline only: the socket is full; the replies are still in w
)

// flush writes the pending replies and gives the reply buffer back, so that an idle client
// holds none. On a goroutine it waits for a full socket to drain; inline it reports
// flushBlocked instead and keeps what is unwritten.
func (c *client) flush(inline bool) flushResult {
	res := flushOK
	if c.w.Len() > 0 {
		c.countWrite()
		var n int
		var err error
		if c.fd >= 0 {
			n, err = c.writeSocket(inline)
		} else {
			n, err = c.conn.Write(c.w.Bytes())
		}
		c.netOut.Store(c.netOut.Load() + int64(n))
		switch {
		case err == syscall.EAGAIN:
			c.w.Consume(n)
			return flushBlocked
		case err != nil:
			res = flushFailed
		}
	}
	if buf := c.w.Bytes(); cap(buf) > 0 {
		c.w.SetBuffer(nil)
		if cap(buf) == querybuf.SharedBufferSize {
			c.putReplyBuffer(buf[:cap(buf)])
		} else {
			c.srv.bigReplies.Put(buf[:0]) // kept if it is one of its classes
		}
	}
	return res
}

// writeSocket writes the pending replies and returns the bytes written. Inline it stops at
// EAGAIN (returned); on a goroutine it waits for the loop to report the socket writable.
func (c *client) writeSocket(inline bool) (int, error) {
	b := c.w.Bytes()
	written := 0
	for written < len(b) {
		n, err := rawWrite(int(c.fd), b[written:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			c.noteUnwritten(int64(len(b) - written))
			over, wait := c.checkOutputLimit(int64(len(b) - written))
			switch {
			case over:
				return written, errOutputLimit
			case inline:
				return written, err
			}
			if err := c.waitWritable(wait); err != nil {
				return written, err
			}
			continue
		case err != nil:
			return written, err
		case n == 0:
			return written, io.ErrUnexpectedEOF // as poll.FD.Write: never loop on a write of nothing
		}
		written += n
	}
	c.noteUnwritten(0)
	return written, nil
}

// takeReplyBuffer borrows a reply buffer for a batch.
func (c *client) takeReplyBuffer() {
	if cap(c.w.Bytes()) == 0 {
		c.w.SetBuffer(c.getReplyBuffer())
	}
}

// getReplyBuffer takes a shared reply buffer: one of the loop's free ones when the client is
// served inline and the loop has one, else one from the server's pool.
func (c *client) getReplyBuffer() []byte {
	if l := c.loop; l != nil && len(l.replyBufs) > 0 {
		b := l.replyBufs[len(l.replyBufs)-1]
		l.replyBufs[len(l.replyBufs)-1] = nil
		l.replyBufs = l.replyBufs[:len(l.replyBufs)-1]
		return b
	}
	return c.srv.replyPool.Get()
}

// putReplyBuffer gives back a buffer from getReplyBuffer: to the loop while it has fewer than
// loopReplyBuffers free, else to the server's pool.
func (c *client) putReplyBuffer(b []byte) {
	if l := c.loop; l != nil && len(l.replyBufs) < loopReplyBuffers {
		l.replyBufs = append(l.replyBufs, b)
		return
	}
	c.srv.replyPool.Put(b)
}

// getName returns the client's name, or "".
func (c *client) getName() string {
	if p := c.name.Load(); p != nil {
		return *p
	}
	return ""
}
