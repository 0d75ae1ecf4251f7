package server

import (
	"io"
	"syscall"
	"unsafe"

	"github.com/kvserver/kvserver/sds"
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
		return nil
	}
}

// readTargetLocked picks where the next read goes: a big argument in progress reads straight
// into its own buffer; anyone else reads into a shared buffer — after room for the bytes its
// private buffer holds, which consumeRead copies in front once data has come, so that a client
// waiting in the middle of a command keeps exactly those bytes and no room reserved for a read.
// A private buffer holding more than half a shared buffer (a long inline line) is read into
// directly, with room for one read reserved exactly (raising the peak first, so the cron does
// not trim what is about to be used).
func (c *client) readTargetLocked() ([]byte, readTarget) {
	if tail := c.parser.BigArgTail(); len(tail) > 0 {
		return tail, readBig
	}
	c.readPrefix = 0
	if !c.qb.IsNil() && c.qb.Len(c.srv.clientArena) <= maxReadPrefix {
		c.readPrefix = c.qb.Len(c.srv.clientArena)
		return c.getReadBuffer()[c.readPrefix:], readShared
	}
	if !c.qb.IsNil() {
		a := c.srv.clientArena
		if c.qb.Avail(a) < readBufferSize {
			c.srv.clientArenaMu.Lock()
			grown := c.qb.MakeRoomFor(a, readBufferSize, false)
			c.srv.clientArenaMu.Unlock()
			if !grown.IsNil() {
				c.qb = grown
			}
		}
		c.qbPeak = max(c.qbPeak, c.qb.Len(a)+readBufferSize)
		return c.qb.Spare(a), readPrivate
	}
	return c.getReadBuffer(), readShared
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

// maxReadPrefix is the most private-buffer bytes a read into a shared buffer makes room for:
// half of it, so that the read still has half a buffer.
const maxReadPrefix = readBufferSize / 2

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
		buf := c.readBuf[:cap(c.readBuf)]
		if c.readPrefix > 0 {
			// The private buffer's bytes go in front of what was read (readTargetLocked).
			buf = unsafeSliceBefore(c.readBuf, c.readPrefix)
			copy(buf, c.qb.Bytes(c.srv.clientArena))
			c.qb.SetLen(c.srv.clientArena, 0)
		}
		data := buf[:c.readPrefix+n]
		consumed, err := c.parser.Parse(data)
		if rest := data[consumed:]; len(rest) > 0 && err == nil {
			c.keepTail(rest)
		}
		c.putReadBuffer(buf)
		c.readBuf = nil
		return err
	case readPrivate:
		a := c.srv.clientArena
		c.qb.SetLen(a, c.qb.Len(a)+n)
		data := c.qb.Bytes(a)
		consumed, err := c.parser.Parse(data)
		c.qb.SetLen(a, copy(data, data[consumed:]))
		if c.qb.Len(a) == 0 && c.parser.BigArgSize() > 0 {
			// The staged start of a big argument went into its buffer, where the rest is read:
			// the private buffer would sit empty until the cron's idle check.
			c.srv.clientArenaMu.Lock()
			c.qb.Free(a)
			c.srv.clientArenaMu.Unlock()
			c.qb = sds.String{}
		}
		return err
	case readPlain:
		data := c.plain[:len(c.plain)+n]
		consumed, err := c.parser.Parse(data)
		c.plain = c.plain[:copy(data, data[consumed:])]
		return err
	}
	return nil
}

// keepTail copies an unfinished line from a shared buffer into a new private buffer of exactly
// its size (Redis's rule below 16 KiB: no greedy growth for a query buffer).
func (c *client) keepTail(rest []byte) {
	a := c.srv.clientArena
	c.srv.clientArenaMu.Lock()
	s := c.qb
	if s.IsNil() {
		s = sds.WithCapacity(a, len(rest))
	} else {
		s = s.MakeRoomFor(a, len(rest), false)
	}
	c.srv.clientArenaMu.Unlock()
	if s.IsNil() {
		return // out of memory: the next read fails the client's command, not the server
	}
	c.qb = s
	copy(s.Spare(a), rest)
	s.SetLen(a, s.Len(a)+len(rest))
	c.qbPeak = max(c.qbPeak, s.Len(a))
}

// releaseBuffers gives back everything the client holds, when it closes.
func (c *client) releaseBuffers() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.activeState == nil {
		c.attachActiveLocked(nil) // simplest: one path releases everything below
	}
	if !c.qb.IsNil() {
		c.srv.clientArenaMu.Lock()
		c.qb.Free(c.srv.clientArena)
		c.srv.clientArenaMu.Unlock()
		c.qb = sds.String{}
	}
	c.parser.Reset()
	c.plain = nil
	c.w.SetBuffer(nil)
	c.detachActiveLocked(nil)
}

// publishBufferUse stores the buffer sizes that CLIENT LIST and INFO read: qbuf is the bytes of
// an unfinished command held between reads (the private buffer's contents and a big argument's
// received part), qbuf-free the room left beside them.
func (c *client) publishBufferUse() {
	a := c.srv.clientArena
	if c.activeState == nil {
		used, size := 0, 0
		if !c.qb.IsNil() {
			used, size = c.qb.Len(a), c.qb.Cap(a)
		}
		c.qbufUsed.Store(int64(used))
		c.qbufCap.Store(int64(size))
		c.argvMem.Store(0)
		c.replyBufSize.Store(0)
		return
	}
	used, size := len(c.plain), cap(c.plain)
	if !c.qb.IsNil() {
		used, size = c.qb.Len(a), c.qb.Cap(a)
	}
	if big := c.parser.BigArgSize(); big > 0 {
		used += c.parser.BigArgGot()
		size += big
	}
	c.qbufUsed.Store(int64(used))
	c.qbufCap.Store(int64(size))
	c.argvMem.Store(int64(c.parser.ArgvMem() - c.parser.BigArgSize()))
	c.replyBufSize.Store(int64(cap(c.w.Bytes())))
}
