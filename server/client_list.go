package server

import (
	"fmt"
	"sort"
	"time"
)

// infoLine is one CLIENT LIST / CLIENT INFO line for client o, in Valkey 8.0's field order, as
// seen by client c.
func (c *client) infoLine(o *client) string {
	now := time.Now()
	var cmd string
	if last := o.lastCmd.Load(); last != nil {
		cmd = last.FullName
	} else {
		cmd = "NULL"
	}
	qbuf, qbufFree, argvMem, totMem, rbs := o.queryBufferUse()
	omem := o.pendingPushes()
	if o == c {
		qbuf, qbufFree, argvMem, totMem, rbs = c.selfBufferUse()
		totMem += omem
	}
	// Redis's letters in its order; N only when no flag is set.
	flags := ""
	sub, psub, ssub := o.subscriptionCounts()
	if sub+psub+ssub > 0 {
		flags += "P" // CLIENT_PUBSUB
	}
	tx := o.tx.Load()
	if tx.Queued() >= 0 {
		flags += "x" // CLIENT_MULTI
	}
	if b := o.blockedState(); b.IsBlocked() {
		flags += "b" // CLIENT_BLOCKED
		// Its command line, kept while it waits, as Redis's c->argv.
		argvMem += b.ArgvMem()
		totMem += b.ArgvMem()
	}
	if tx.Dirty() {
		flags += "d" // CLIENT_DIRTY_CAS
	}
	if o.conn == nil && o.peer.family == peerUnix {
		flags += "U" // CLIENT_UNIX_SOCKET
	}
	if o.switchOn(switchNoEvict) {
		flags += "e"
	}
	if o.switchOn(switchNoTouch) {
		flags += "T"
	}
	if flags == "" {
		flags = "N"
	}
	return fmt.Sprintf("id=%d addr=%s laddr=%s fd=%d name=%s age=%d idle=%d flags=%s db=%d sub=%d psub=%d ssub=%d multi=%d watch=%d qbuf=%d qbuf-free=%d argv-mem=%d multi-mem=%d rbs=%d rbp=0 obl=0 oll=0 omem=%d tot-mem=%d events=r cmd=%s user=%s redir=-1 resp=%d lib-name=%s lib-ver=%s tot-net-in=%d tot-net-out=%d tot-cmds=%d",
		o.id, o.remoteAddr(), o.localAddr(), o.fdNumber(), o.getName(),
		(now.UnixMilli()-o.created)/1000,
		(now.UnixMilli()-o.lastInteraction.Load())/1000,
		flags, o.sharedDB.Load(), sub, psub, ssub, tx.Queued(), tx.Watching(), qbuf, qbufFree, argvMem, tx.Mem(), rbs,
		omem, totMem+tx.Mem(), cmd, o.userName(), o.sharedProto.Load(),
		o.libName(), o.libVer(),
		o.netIn.Load(), o.netOut.Load(), o.totCmds.Load())
}

// queryBufferUse is what CLIENT LIST shows of another client's buffers, as published after its
// last read (publishBufferUse), with Redis's meanings (querybuf.Use): qbuf, the bytes of an
// unfinished command not yet arguments; qbuf-free, the room beside them; argv-mem, the
// unfinished command's complete arguments; tot-mem, all the buffers held (input and replies);
// rbs, the reply buffer.
func (o *client) queryBufferUse() (qbuf, qbufFree, argvMem, totMem, rbs int64) {
	qbuf = o.qbufUsed.Load()
	return qbuf, o.qbufCap.Load() - qbuf, o.argvLenSum.Load(), o.totalMemory(), o.replyBufSize.Load()
}

// totalMemory is tot-mem as published: the buffers the client holds, input and replies, and
// a subscriber's messages waiting for its socket (mem_clients_normal sums it; client eviction
// weighs it).
func (o *client) totalMemory() int64 {
	return o.qbufCap.Load() + o.argvMem.Load() + o.replyBufSize.Load() + o.pendingPushes()
}

// selfBufferUse is queryBufferUse for the client running CLIENT LIST or INFO itself, read live
// (it holds its own lock): argv-mem is then the running command's arguments, as in Redis, and
// qbuf what is held of a command after it. Redis's qbuf also counts the running command's own
// bytes, still in its query buffer; kvserver's were copied out at parse time.
func (c *client) selfBufferUse() (qbuf, qbufFree, argvMem, totMem, rbs int64) {
	u := c.bufferUse()
	rbs = int64(cap(c.w.Bytes()))
	return int64(u.Qbuf), int64(u.QbufFree), int64(c.ctx.Args.LenSum()), int64(u.Mem) + rbs, rbs
}

// fdNumber is the connection's file descriptor, or -1.
func (o *client) fdNumber() int32 {
	return o.fd
}

// clientsSorted returns the live clients by id.
func (s *Server) clientsSorted() []*client {
	cs := s.clientsSnapshot()
	sort.Slice(cs, func(i, j int) bool { return cs[i].id < cs[j].id })
	return cs
}

// killClients closes every client that match selects and returns how many.
func (s *Server) killClients(match func(*client) bool) int {
	n := 0
	for _, o := range s.clientsSnapshot() {
		if match(o) {
			o.killed.Store(true)
			if !s.closeParked(o) {
				o.shutdownSocket()
			}
			n++
		}
	}
	return n
}

func (o *client) libName() string {
	if l := o.lib.Load(); l != nil {
		return l.name
	}
	return ""
}

func (o *client) libVer() string {
	if l := o.lib.Load(); l != nil {
		return l.ver
	}
	return ""
}
