package server

import (
	"io"
	"syscall"
	"unsafe"

	"github.com/kvserver/kvserver/querybuf"
)

// readTarget says where a read went.
type readTarget uint8

const (
	readNone    readTarget = iota
	readShared             // a shared buffer from the server's pool
	readPrivate            // the client's private query buffer
	readBig                // straight into a big argument's own buffer
	readPlain              // the read buffer of a connection without a raw fd
)

// readLocked reads once: a socket without waiting (readKind stays readNone on EAGAIN), choosing the
// buffer only as it reads; a connection without an fd blocking, into its private buffer.
func (c *client) readLocked() error {
	c.readN, c.readErr, c.readKind, c.readBuf = 0, nil, readNone, nil
	if c.fd < 0 {
		return c.readPlainConnLocked()
	}
	buf, kind := c.readTargetLocked()
	for {
		n, err := rawRead(int(c.fd), buf)
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			c.giveBackLocked(buf, kind)
			return nil
		}
		if err != nil || n <= 0 {
			c.giveBackLocked(buf, kind)
			if err == nil {
				err = io.EOF
			}
			c.readErr = err
			return nil
		}
		c.readBuf, c.readKind, c.readN = buf, kind, n
		c.readFull = n == len(buf)
		return nil
	}
}

// readTargetLocked picks where the next read goes: a big argument in progress reads straight
// into its own buffer; anyone else reads into a shared buffer — after room for the bytes its
// private buffer holds, which consumeRead copies in front once data has come, so that a client
// waiting in the middle of a command keeps exactly those bytes and no room reserved for a read.
// A private buffer holding more than querybuf.MaxReadPrefix (a long inline line) is read into
// directly, with room for one read reserved exactly.
func (c *client) readTargetLocked() ([]byte, readTarget) {
	if tail := c.parser.BigArgTail(); len(tail) > 0 {
		return tail, readBig
	}
	bufs := c.srv.clientBuffers()
	c.readPrefix = c.qb.Len(bufs)
	if c.readPrefix > querybuf.MaxReadPrefix {
		c.readPrefix = 0
		return c.qb.ReadSpace(bufs, readBufferSize), readPrivate
	}
	return c.getReadBuffer()[c.readPrefix:], readShared
}

func (c *client) giveBackLocked(buf []byte, kind readTarget) {
	if kind == readShared {
		c.putReadBuffer(unsafeSliceBefore(buf, c.readPrefix))
	}
}

// getReadBuffer takes a shared read buffer: the loop's own when the client is served inline
// (no locking), else one from the server's pool.
func (c *client) getReadBuffer() []byte {
	if c.loop != nil {
		return c.loop.readBuf
	}
	return c.srv.readPool.Get()
}

// putReadBuffer gives back a buffer from getReadBuffer.
func (c *client) putReadBuffer(b []byte) {
	if c.loop == nil {
		c.srv.readPool.Put(b)
	}
}

// unsafeSliceBefore returns b extended by n bytes before its start, which must be part of the
// same array (a shared buffer that readTargetLocked sliced n bytes in).
func unsafeSliceBefore(b []byte, n int) []byte {
	if n == 0 {
		return b
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), -n)), cap(b)+n)
}

// readPlainConnLocked reads a connection without a raw fd into a private Go-heap buffer (a later TLS
// connection, an in-memory pipe in tests).
func (c *client) readPlainConnLocked() error {
	if tail := c.parser.BigArgTail(); len(tail) > 0 {
		c.readN, c.readErr = c.conn.Read(tail)
		c.readKind = readBig
		return nil
	}
	if c.plain == nil {
		c.plain = make([]byte, 0, readBufferSize)
	}
	if len(c.plain) == cap(c.plain) {
		c.plain = append(c.plain, make([]byte, len(c.plain))...)[:len(c.plain)]
	}
	c.readN, c.readErr = c.conn.Read(c.plain[len(c.plain):cap(c.plain)])
	c.readKind = readPlain
	return nil
}

// consumeRead parses what the last read brought. The arguments of complete commands, and the
// received part of an argument in progress, go into the parser's arena; only an unfinished line
// is kept, in the private buffer; a shared buffer goes back before any command runs.
func (c *client) consumeRead() error {
	n := c.readN
	if n <= 0 {
		return nil
	}
	switch c.readKind {
	case readBig:
		return c.parser.BigArgAdvance(n)
	case readShared:
		// The private buffer's bytes go in front of what was read (readTargetLocked).
		buf := unsafeSliceBefore(c.readBuf, c.readPrefix)
		err := c.qb.ParseShared(c.srv.clientBuffers(), &c.parser, buf, c.readPrefix, n)
		c.putReadBuffer(buf)
		c.readBuf = nil
		return err
	case readPrivate:
		return c.qb.ParseRead(c.srv.clientBuffers(), &c.parser, n)
	case readPlain:
		data := c.plain[:len(c.plain)+n]
		consumed, err := c.parser.Parse(data)
		c.plain = c.plain[:copy(data, data[consumed:])]
		return err
	}
	return nil
}

// releaseBuffers gives back everything the client holds, when it closes.
func (c *client) releaseBuffers() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.activeState == nil {
		c.attachActiveLocked(nil) // simplest: one path releases everything below
	}
	c.qb.Release(c.srv.clientBuffers())
	c.parser.Reset()
	c.plain = nil
	c.w.SetBuffer(nil)
	c.detachActiveLocked(nil)
}

// publishBufferUse stores the buffer figures that CLIENT LIST and INFO read (bufferUse).
func (c *client) publishBufferUse() {
	u := c.bufferUse()
	c.qbufUsed.Store(int64(u.Qbuf))
	c.qbufCap.Store(int64(u.Qbuf + u.QbufFree))
	c.argvMem.Store(int64(u.Mem - u.Qbuf - u.QbufFree))
	c.argvLenSum.Store(int64(u.ArgvMem))
	rbs := 0
	if c.activeState != nil {
		rbs = cap(c.w.Bytes())
	}
	c.replyBufSize.Store(int64(rbs))
}

// bufferUse is what the client holds for input (querybuf.Use: qbuf, qbuf-free, argv-mem and
// the memory), with the read buffer of a connection without an fd counted as its private
// buffer. The caller holds c.mu.
func (c *client) bufferUse() querybuf.Use {
	var p *querybuf.Parser
	if c.activeState != nil {
		p = &c.parser
	}
	u := c.qb.Use(c.srv.clientBuffers(), p)
	if c.activeState != nil && c.plain != nil {
		u.Qbuf += len(c.plain)
		u.QbufFree += cap(c.plain) - len(c.plain)
		u.Mem += cap(c.plain)
	}
	return u
}
