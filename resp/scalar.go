package resp

import (
	"strconv"

	"github.com/tidwall/redcon"
)

// Simple writes a simple string, +s (+OK). Any CR or LF in s becomes a space, so the reply
// cannot break the protocol. It is the same in RESP2 and RESP3.
func (w *Writer) Simple(s string) {
	w.buf = append(w.buf, '+')
	w.buf = appendClean(w.buf, s)
	w.buf = append(w.buf, '\r', '\n')
}

// SimpleBytes is Simple for a byte slice.
func (w *Writer) SimpleBytes(b []byte) {
	w.buf = append(w.buf, '+')
	w.buf = appendClean(w.buf, b)
	w.buf = append(w.buf, '\r', '\n')
}

// Raw appends bytes already encoded, or not RESP at all (a SYNC's RDB payload).
func (w *Writer) Raw(p []byte) {
	if cap(w.buf)-len(w.buf) < len(p) {
		w.grow(len(p))
	}
	w.buf = append(w.buf, p...)
}

// OK writes +OK.
func (w *Writer) OK() { w.buf = append(w.buf, "+OK\r\n"...) }

// Int writes an integer, :n. It is the same in RESP2 and RESP3.
func (w *Writer) Int(n int64) { w.buf = redcon.AppendInt(w.buf, n) }

// Bulk writes a bulk string, $len CRLF b CRLF, copying b. A nil b is the empty string, not a
// null: write Null for that.
func (w *Writer) Bulk(b []byte) {
	if cap(w.buf)-len(w.buf) < len(b)+bulkOverhead {
		w.grow(len(b) + bulkOverhead)
	}
	w.buf = append(appendBulkHeader(w.buf, len(b)), b...)
	w.buf = append(w.buf, '\r', '\n')
}

// BulkString is Bulk for a string.
func (w *Writer) BulkString(s string) {
	if cap(w.buf)-len(w.buf) < len(s)+bulkOverhead {
		w.grow(len(s) + bulkOverhead)
	}
	w.buf = append(appendBulkHeader(w.buf, len(s)), s...)
	w.buf = append(w.buf, '\r', '\n')
}

// appendBulkHeader appends a bulk string's header, $n CRLF. A length below 1000 (most
// values, members and fields) is written digit by digit: strconv.AppendInt, through
// redcon.AppendBulk, was an eighth of the CPU of a 10-member ZRANGE.
func appendBulkHeader(b []byte, n int) []byte {
	switch {
	case n < 10:
		return append(b, '$', byte('0'+n), '\r', '\n')
	case n < 100:
		return append(b, '$', byte('0'+n/10), byte('0'+n%10), '\r', '\n')
	case n < 1000:
		return append(b, '$', byte('0'+n/100), byte('0'+n/10%10), byte('0'+n%10), '\r', '\n')
	}
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, '\r', '\n')
}

// BulkInt writes n in decimal as a bulk string ($2 CRLF 42), as Redis's addReplyBulkLongLong.
func (w *Writer) BulkInt(n int64) {
	var tmp [20]byte // the longest int64 is -9223372036854775808: 20 bytes
	w.buf = redcon.AppendBulk(w.buf, strconv.AppendInt(tmp[:0], n, 10))
}

// Null writes the null reply: $-1 in RESP2 (the null bulk string), _ in RESP3.
func (w *Writer) Null() {
	if w.resp3() {
		w.buf = append(w.buf, "_\r\n"...)
	} else {
		w.buf = append(w.buf, "$-1\r\n"...)
	}
}

// Bool writes a boolean: #t or #f in RESP3, the integers :1 or :0 in RESP2.
func (w *Writer) Bool(b bool) {
	switch {
	case w.resp3() && b:
		w.buf = append(w.buf, "#t\r\n"...)
	case w.resp3():
		w.buf = append(w.buf, "#f\r\n"...)
	case b:
		w.buf = append(w.buf, ":1\r\n"...)
	default:
		w.buf = append(w.buf, ":0\r\n"...)
	}
}

// BigNumber writes an integer too large for Int, given in decimal: (s in RESP3, a bulk
// string in RESP2. Any CR or LF in s becomes a space.
func (w *Writer) BigNumber(s string) {
	if !w.resp3() {
		w.BulkString(s)
		return
	}
	w.buf = append(w.buf, '(')
	w.buf = appendClean(w.buf, s)
	w.buf = append(w.buf, '\r', '\n')
}

// Verbatim writes text as a verbatim string: =len CRLF fmt:text CRLF in RESP3, where fmt is
// format cut or padded with spaces to three bytes ("txt", "mkd"), as Redis's addReplyVerbatim;
// a plain bulk string of text in RESP2.
func (w *Writer) Verbatim(format, text string) {
	if !w.resp3() {
		w.BulkString(text)
		return
	}
	if cap(w.buf)-len(w.buf) < len(text)+4+bulkOverhead {
		w.grow(len(text) + 4 + bulkOverhead)
	}
	w.buf = appendHeader(w.buf, '=', int64(len(text)+4))
	for i := 0; i < 3; i++ {
		c := byte(' ')
		if i < len(format) {
			c = format[i]
		}
		w.buf = append(w.buf, c)
	}
	w.buf = append(w.buf, ':')
	w.buf = append(w.buf, text...)
	w.buf = append(w.buf, '\r', '\n')
}
