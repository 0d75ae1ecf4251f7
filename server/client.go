package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
	"github.com/kvserver/kvserver/sds"
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
	conn    net.Conn
	created int64 // unix ms
	fd      int32 // -1 if unknown

	// mu is held by the client's goroutine while it reads into its private buffer and while it
	// runs a batch; the cron TryLocks it to trim the buffers and skips a busy client.
	mu sync.Mutex
	// Guarded by mu.
	*activeState                       // nil while the client is parked with nothing half-parsed
	qb           sds.String            // private query buffer in the clients' arena: an unfinished line's bytes
	qbPeak       int                   // most bytes the private buffer held or reserved since the last cron visit
	readFn       func(fd uintptr) bool // c.readReady, made once so that no closure is allocated per read
	writeFn      func(fd uintptr) bool // c.writeReady, likewise

	// Owned by whoever runs the client: its goroutine, or nobody while it is parked.
	parkDeadline int64 // unix ms when the armed read deadline fires; 0 if none is armed
	epollArmed   bool  // the fd is registered with its readiness loop (EPOLLONESHOT)
	db           int

	// Shared with other goroutines (CLIENT LIST and KILL, INFO, the cron): atomics.
	name            atomic.Pointer[string]
	lib             atomic.Pointer[libInfo] // CLIENT SETINFO
	lastInteraction atomic.Int64            // unix ms of the last read
	lastCmd         atomic.Pointer[command]
	totCmds         atomic.Int64 // single writer: the client's goroutine
	netIn, netOut   atomic.Int64 // single writer
	sharedDB        atomic.Int32 // db, for CLIENT LIST
	sharedProto     atomic.Int32 // protocol version, for CLIENT LIST
	killed          atomic.Bool
	hits, misses    atomic.Int64  // keyspace_hits and _misses; single writer
	qbufUsed        atomic.Int64  // bytes of an unfinished command held between reads
	qbufCap         atomic.Int64  // size of the buffers holding them
	argvMem         atomic.Int64  // bytes held by the argument arena
	replyBufSize    atomic.Int64  // reply buffer held between batches
	state           atomic.Uint32 // clientActive, clientParked or clientClosed
	authenticated   atomic.Bool   // see auth.go; single writer
}

// activeState is what a client needs while it is served. Guarded by the client's mu; handlers
// reach its fields through the embedding (c.w, c.scratch).
type activeState struct {
	raw        syscall.RawConn // nil when the connection has no file descriptor (then reads are plain)
	parser     querybuf.Parser
	plain      []byte // read buffer of a connection without a raw fd
	readBuf    []byte // where the last read went: a shared buffer, the private one, a big argument
	readKind   readTarget
	readPrefix int // private-buffer bytes a shared-buffer read left room for in front (readTargetLocked)
	readN      int
	readErr    error
	parkNow    bool  // readReady found nothing to read and the client should park
	eagerPark  bool  // served by a wake worker: park as soon as there is nothing to read
	written    int   // bytes of w written by writeReady so far
	writeErr   error // writeReady's error

	w               resp.Writer
	closeAfterReply bool
	scratch         [64]byte // formatting space for handlers (integers, doubles)
	shardIdx        []int    // shard indexes of a multi-key command, reused
}

// activePoolSize bounds the server's activePool, the free list of parked clients' active
// states: bounded, because 10,000 clients parking at once must not leave 10,000 states behind
// (a sync.Pool would keep them through the next garbage collection), and per server, because a
// state carries its server's big-argument buffers. It covers the clients that wake up together
// on a busy server; beyond it a wake-up allocates, cheap next to its syscalls.
const activePoolSize = 256

// maxPooledArgvMem bounds the argument arena a recycled active state may keep.
const maxPooledArgvMem = 64 << 10

// attachActiveLocked gives the client an active state if it has none.
func (c *client) attachActiveLocked() {
	if c.activeState != nil {
		return
	}
	var a *activeState
	select {
	case a = <-c.srv.activePool:
	default:
		a = new(activeState)
	}
	a.parser.SetLimits(c.parserLimits())
	// Big arguments of a connection with an fd go to the clients' arena (and may be adopted);
	// those of one without stay on the Go heap and are copied.
	a.parser.SetBigBuffers(nil)
	if c.fd >= 0 {
		a.parser.SetBigBuffers(bigArgBuffers{c.srv})
	}
	a.raw = nil
	if sc, ok := c.conn.(syscall.Conn); ok && c.fd >= 0 {
		a.raw, _ = sc.SyscallConn()
	}
	a.w.SetProto(int(c.sharedProto.Load()))
	c.activeState = a
}

// detachActiveLocked gives the active state back when nothing is half-parsed, and reports
// whether it did.
func (c *client) detachActiveLocked() bool {
	a := c.activeState
	if a == nil {
		return true
	}
	if a.parser.PendingBytes() > 0 || a.parser.NumCommands() > 0 || a.parser.BigArgSize() > 0 || len(a.plain) > 0 {
		return false
	}
	a.parser.Reset()
	if a.parser.ArgvMem() > maxPooledArgvMem {
		a.parser = querybuf.Parser{}
	}
	a.w.SetBuffer(nil)
	a.plain, a.readBuf, a.readErr, a.raw = nil, nil, nil, nil
	a.closeAfterReply, a.parkNow, a.eagerPark = false, false, false
	a.shardIdx = a.shardIdx[:0]
	c.activeState = nil
	select {
	case c.srv.activePool <- a:
	default: // the pool is full: the collector takes it
	}
	return true
}

func newClient(s *Server, conn net.Conn, id int64) *client {
	c := &client{
		srv:     s,
		id:      id,
		conn:    conn,
		created: time.Now().UnixMilli(),
		fd:      -1,
	}
	if sc, ok := conn.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			_ = raw.Control(func(f uintptr) { c.fd = int32(f) })
		}
	}
	c.readFn = c.readReady
	c.writeFn = c.writeReady
	c.sharedProto.Store(2)
	c.state.Store(clientActive)
	c.lastInteraction.Store(c.created)
	c.initAuth()
	return c
}

// libInfo is what CLIENT SETINFO set: one pointer, so that clients that never send it pay
// for one word.
type libInfo struct{ name, ver string }

// remoteAddr and localAddr are the connection's addresses as CLIENT LIST prints them (made on
// demand: a parked client keeps no strings).
func (c *client) remoteAddr() string { return c.conn.RemoteAddr().String() }
func (c *client) localAddr() string  { return c.conn.LocalAddr().String() }

// serve runs the connection until it closes. One defer recovers a panic (logged, the client
// closed; the server goes on), releases the buffers and unregisters, so every return below is
// clean.
func (c *client) serve() { c.serveOn(false) }

// serveOn is serve; onWorker says a wake worker runs it, and the client then parks as soon as
// it has nothing to read, so that the worker is free for the next woken client.
func (c *client) serveOn(onWorker bool) {
	parked := false
	defer func() {
		if r := recover(); r != nil {
			c.srv.log.Error("panic serving client, closing it",
				zap.Int64("id", c.id), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
			parked = false
		}
		if !parked {
			c.state.Store(clientClosed)
			c.releaseBuffers()
			c.srv.removeClient(c)
		}
	}()
	c.srv.goroutines.Add(1)
	defer c.srv.goroutines.Add(-1)
	c.mu.Lock()
	c.attachActiveLocked()
	c.eagerPark = onWorker
	c.mu.Unlock()
	for !c.killed.Load() {
		switch c.readAndExecute() {
		case serveClose:
			return
		case servePark:
			if c.srv.park(c) {
				parked = true
				return
			}
		}
	}
}

// serveAction is what the serve loop does after a read.
type serveAction uint8

const (
	serveContinue serveAction = iota
	serveClose
	servePark // nothing to read and idle: hand the fd to a readiness loop and end the goroutine
)

// readAndExecute waits for data holding no buffer, reads once, runs every complete command and
// writes the replies. It says whether to go on, close, or park the client.
func (c *client) readAndExecute() serveAction {
	err := c.read()
	if c.parkNow {
		c.parkNow = false
		return servePark
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	perr := c.consumeRead()
	if c.readN > 0 {
		c.netIn.Store(c.netIn.Load() + int64(c.readN))
		c.lastInteraction.Store(time.Now().UnixMilli())
	}
	if err == nil {
		err = c.readErr
	}
	if c.parser.NumCommands() > 0 {
		c.takeReplyBuffer()
		c.executeBatch()
	}
	c.publishBufferUse()
	if perr != nil {
		c.protocolError(perr)
		return serveClose
	}
	if !c.flush() || c.closeAfterReply {
		return serveClose
	}
	if err != nil {
		if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
			c.srv.log.Debug("client read error", zap.Int64("id", c.id), zap.Error(err))
		}
		return serveClose
	}
	return serveContinue
}

// executeBatch runs the parsed commands in order and then drops them.
func (c *client) executeBatch() {
	for i := 0; i < c.parser.NumCommands(); i++ {
		c.execute(c.parser.Command(i))
		if c.closeAfterReply {
			break
		}
		if c.w.Len() >= replyFlushThreshold && !c.flush() {
			c.closeAfterReply = true
			break
		}
	}
	c.parser.ResetCommands()
}

// execute looks a command up, checks its arity and authentication (processCommand's order)
// and runs it.
func (c *client) execute(args querybuf.Args) {
	c.totCmds.Store(c.totCmds.Load() + 1)
	cmd, errText := c.srv.cmds.lookup(args)
	if cmd == nil {
		c.w.Error(errText)
		return
	}
	if !cmd.arityOK(args.Len()) || cmd.Proc == nil {
		c.w.Error(fmt.Sprintf(errWrongArgs, cmd.fullName))
		return
	}
	if cmd.Flags&cmdNoAuth == 0 && c.authRequired() {
		c.w.Error(errNoAuth)
		return
	}
	c.lastCmd.Store(cmd)
	cmd.Proc(c, args)
}

// protocolError answers a malformed request as Redis does — the error, then close — or, over
// the query buffer limit, closes without a reply and counts it.
func (c *client) protocolError(err error) bool {
	var pe *querybuf.ProtocolError
	if errors.As(err, &pe) {
		c.srv.logLimited(logKindProtocolError, zap.DebugLevel, "protocol error", c, zap.Error(err))
		c.w.Error(pe.Error())
		c.flush()
		return false
	}
	if errors.Is(err, querybuf.ErrQueryBufLimit) {
		c.srv.stats.queryBufLimitDisconnections.Add(1)
		c.srv.logLimited(logKindClientLimit, zap.WarnLevel, "closing client that reached the query buffer limit", c)
		return false
	}
	c.srv.log.Debug("closing client", zap.Int64("id", c.id), zap.Error(err))
	return false
}

// flush writes the pending replies and gives the reply buffer back, so that an idle client
// holds none. It returns false if the connection failed.
func (c *client) flush() bool {
	ok := true
	if c.w.Len() > 0 {
		var n int
		var err error
		if c.raw != nil {
			n, err = c.writeRaw()
		} else {
			n, err = c.conn.Write(c.w.Bytes())
		}
		c.netOut.Store(c.netOut.Load() + int64(n))
		ok = err == nil
	}
	if buf := c.w.Bytes(); cap(buf) > 0 {
		c.w.SetBuffer(nil)
		if cap(buf) == querybuf.SharedBufferSize {
			c.srv.replyPool.Put(buf[:cap(buf)])
		}
	}
	return ok
}

// writeRaw writes the pending replies through the raw connection, waiting for the netpoller
// when the socket buffer is full (as conn.Write does), and returns the bytes written.
func (c *client) writeRaw() (int, error) {
	c.written, c.writeErr = 0, nil
	err := c.raw.Write(c.writeFn)
	if err == nil {
		err = c.writeErr
	}
	return c.written, err
}

// writeReady is the RawConn.Write callback: write what is left, and report whether the write is
// over (false on EAGAIN: wait until the socket is writable).
func (c *client) writeReady(fd uintptr) bool {
	b := c.w.Bytes()
	for c.written < len(b) {
		n, err := rawWrite(int(fd), b[c.written:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return false
		case err != nil:
			c.writeErr = err
			return true
		case n == 0:
			c.writeErr = io.ErrUnexpectedEOF // as poll.FD.Write: never loop on a write of nothing
			return true
		}
		c.written += n
	}
	return true
}

// takeReplyBuffer borrows a reply buffer for a batch.
func (c *client) takeReplyBuffer() {
	if cap(c.w.Bytes()) == 0 {
		c.w.SetBuffer(c.srv.replyPool.Get())
	}
}

// getName returns the client's name, or "".
func (c *client) getName() string {
	if p := c.name.Load(); p != nil {
		return *p
	}
	return ""
}
