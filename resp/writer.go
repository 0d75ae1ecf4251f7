package resp

import (
	"fmt"
	"slices"
	"strconv"
)

// Writer accumulates replies for one client in a single byte slice, encoded for the client's
// protocol version (RESP2 until SetProto(3), as HELLO 3 does). It is not safe for concurrent
// use: the client's goroutine owns it.
//
// The zero Writer is ready to use and speaks RESP2.
type Writer struct {
	// buf[start:] is the encoded output. start is 0 except after a deferred length was closed
	// by moving the bytes before it (see deferred.go); Reset sets it back to 0.
	buf   []byte
	start int

	// proto is 0 (meaning 2), 2 or 3.
	proto int

	// deferred holds the absolute offset in buf of each reserved, still open deferred length
	// (-1 once closed); npending counts the open ones. See deferred.go.
	deferred []int
	npending int

	// pool supplies bigger buffers when a reply outgrows buf (pool.go); nil: append.
	pool BufferPool
}

// SetProto selects the protocol of the replies written from now on: 2 or 3. Any other value
// panics; HELLO must answer NOPROTO before calling this.
func (w *Writer) SetProto(v int) {
	if v != 2 && v != 3 {
		panic(fmt.Sprintf("resp: unsupported protocol version %d", v))
	}
	w.proto = v
}

// Proto returns the protocol version replies are encoded for: 2 or 3.
func (w *Writer) Proto() int {
	if w.proto == 3 {
		return 3
	}
	return 2
}

// resp3 reports whether replies are encoded as RESP3.
func (w *Writer) resp3() bool { return w.proto == 3 }

// Bytes returns the encoded replies written since the last Reset. The slice aliases the
// Writer's buffer: it is valid until the next call that writes, Truncate, Reset or SetBuffer.
// It must not be sent while a deferred length is open (Pending() > 0): the reserved bytes
// are not protocol yet.
func (w *Writer) Bytes() []byte { return w.buf[w.start:] }

// Len returns the number of encoded bytes, len(Bytes()).
func (w *Writer) Len() int { return len(w.buf) - w.start }

// Cap returns the capacity of the buffer, for accounting and trimming.
func (w *Writer) Cap() int { return cap(w.buf) }

// Reset empties the Writer, keeping its buffer's capacity and its protocol version. Open
// deferred lengths are dropped.
func (w *Writer) Reset() {
	w.buf = w.buf[:0]
	w.start = 0
	w.deferred = w.deferred[:0]
	w.npending = 0
}

// Truncate keeps the first n encoded bytes and drops the rest, to undo a partial reply: take
// Len() before writing it and Truncate to that value. Deferred lengths reserved in the dropped
// part are dropped with it. It panics if n is negative or greater than Len().
func (w *Writer) Truncate(n int) {
	if n < 0 || n > w.Len() {
		panic(fmt.Sprintf("resp: Truncate(%d) out of range [0, %d]", n, w.Len()))
	}
	end := w.start + n
	w.buf = w.buf[:end]
	if w.npending > 0 {
		w.dropDeferredFrom(end)
	}
}

// Grow makes room for n more bytes without another allocation. It panics if n is negative.
func (w *Writer) Grow(n int) {
	w.buf = slices.Grow(w.buf, n)
}

// Consume drops the first n encoded bytes, which the caller has sent: the rest of replies that
// did not fit a socket stays for the next write. It panics if n is negative or greater than
// Len(), or while a deferred length is open.
func (w *Writer) Consume(n int) {
	if n < 0 || n > w.Len() || w.npending > 0 {
		panic(fmt.Sprintf("resp: Consume(%d) of %d bytes with %d deferred lengths open", n, w.Len(), w.npending))
	}
	w.start += n
	if w.start == len(w.buf) {
		w.buf, w.start = w.buf[:0], 0
	}
}

// SetBuffer replaces the output buffer with b[:0] (nil is fine) and empties the Writer, as
// Reset does; the old buffer is no longer referenced. It lets the owner shrink a buffer that
// grew for one large reply, or hand the Writer a buffer from its own pool.
func (w *Writer) SetBuffer(b []byte) {
	w.buf = b[:0]
	w.start = 0
	w.deferred = w.deferred[:0]
	w.npending = 0
}

// appendHeader appends a type byte, n in decimal and CRLF: the header of integers, bulk
// strings and aggregates. (redcon's appendPrefix, which it does not export.)
func appendHeader(b []byte, c byte, n int64) []byte {
	if n >= 0 && n <= 9 {
		return append(b, c, byte('0'+n), '\r', '\n')
	}
	b = append(b, c)
	b = strconv.AppendInt(b, n, 10)
	return append(b, '\r', '\n')
}

// appendClean appends s with every CR and LF replaced by a space, so that a simple string or
// an error can never end early or inject protocol.
func appendClean[T string | []byte](b []byte, s T) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' || s[i] == '\n' {
			return appendCleanSlow(b, s, i)
		}
	}
	return append(b, s...)
}

// appendCleanSlow is appendClean from the first CR or LF, at index i, on.
func appendCleanSlow[T string | []byte](b []byte, s T, i int) []byte {
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\r' || c == '\n' {
			c = ' '
		}
		b = append(b, c)
	}
	return b
}
