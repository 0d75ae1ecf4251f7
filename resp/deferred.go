package resp

import "fmt"

// Deferred lengths: an aggregate whose element count is known only after its elements are
// written (KEYS, SCAN, CONFIG GET), as Redis's addReplyDeferredLen / setDeferredArrayLen.
//
// Reserving writes reservedLen placeholder bytes: room for the longest header, a type byte,
// 19 digits and CRLF. Setting the length writes the real header (h bytes) at the end of that
// room, next to the first element, and closes the gap of reservedLen-h bytes by moving
// whichever side is shorter:
//   - the bytes before the header (earlier replies in the buffer, usually none) move right,
//     and Bytes starts later in the buffer (w.start grows; Reset gives the room back);
//   - or the elements after the header move left.
// So a reply that is alone in the buffer never moves, and a large one rarely does.
//
// Open reservations are tracked in w.deferred (absolute offsets in w.buf), and moved with the
// bytes, so they may be closed in any order.

// reservedLen is the room reserved for a deferred header: '*', 19 digits (the longest int), CRLF.
const reservedLen = 1 + 19 + 2

// reservedFill fills the room until the length is set; it is never sent (see Writer.Bytes).
const reservedFill = "??????????????????????"

// Deferred names an aggregate header reserved by ArrayDeferred, MapDeferred or SetDeferred,
// to be set exactly once by the matching SetArrayLen, SetMapLen or SetSetLen. It stays valid
// until then, or until the Writer is Reset or truncated before it.
type Deferred struct {
	id   int32 // index in Writer.deferred, plus one: the zero Deferred is invalid
	kind byte  // '*', '%' or '~': the kind reserved, checked when set
}

// ArrayDeferred reserves the header of an array whose length is set later by SetArrayLen.
func (w *Writer) ArrayDeferred() Deferred { return w.reserve('*') }

// MapDeferred reserves the header of a map whose length (in pairs) is set later by SetMapLen.
func (w *Writer) MapDeferred() Deferred { return w.reserve('%') }

// SetDeferred reserves the header of a set whose length is set later by SetSetLen.
func (w *Writer) SetDeferred() Deferred { return w.reserve('~') }

// SetArrayLen sets the length of an array reserved by ArrayDeferred: *n.
func (w *Writer) SetArrayLen(d Deferred, n int) {
	w.setDeferred(d, '*', '*', n)
}

// SetMapLen sets the length of a map reserved by MapDeferred to n pairs: %n in RESP3, *2n in
// RESP2.
func (w *Writer) SetMapLen(d Deferred, n int) {
	checkLen(n)
	if w.resp3() {
		w.setDeferred(d, '%', '%', n)
	} else {
		w.setDeferred(d, '%', '*', 2*n)
	}
}

// SetSetLen sets the length of a set reserved by SetDeferred: ~n in RESP3, *n in RESP2.
func (w *Writer) SetSetLen(d Deferred, n int) {
	if w.resp3() {
		w.setDeferred(d, '~', '~', n)
	} else {
		w.setDeferred(d, '~', '*', n)
	}
}

// Pending returns the number of deferred lengths reserved and not yet set; Bytes may be sent
// only when it is zero.
func (w *Writer) Pending() int { return w.npending }

// reserve appends the placeholder room and records it.
func (w *Writer) reserve(kind byte) Deferred {
	w.deferred = append(w.deferred, len(w.buf))
	w.npending++
	w.buf = append(w.buf, reservedFill...)
	return Deferred{id: int32(len(w.deferred)), kind: kind}
}

// setDeferred writes header (type byte c, count n) into d's room and closes the gap.
func (w *Writer) setDeferred(d Deferred, kind, c byte, n int) {
	checkLen(n)
	i := int(d.id) - 1
	if d.kind != kind {
		panic(fmt.Sprintf("resp: deferred %q length set as %q", d.kind, kind))
	}
	if i < 0 || i >= len(w.deferred) || w.deferred[i] < 0 {
		panic("resp: deferred length set twice, or after Reset or Truncate")
	}
	pos := w.deferred[i]
	w.deferred[i] = -1
	w.npending--

	var tmp [reservedLen]byte
	hdr := appendHeader(tmp[:0], c, int64(n))
	gap := reservedLen - len(hdr)
	tail := pos + reservedLen // the first element
	if pos-w.start <= len(w.buf)-tail {
		// Move the bytes before the room right by gap; the header ends at tail.
		copy(w.buf[w.start+gap:], w.buf[w.start:pos])
		copy(w.buf[pos+gap:], hdr)
		w.start += gap
		w.shiftDeferred(0, pos, gap)
	} else {
		// Write the header at pos and move the elements left by gap.
		copy(w.buf[pos:], hdr)
		copy(w.buf[pos+len(hdr):], w.buf[tail:])
		w.buf = w.buf[:len(w.buf)-gap]
		w.shiftDeferred(tail, len(w.buf)+gap, -gap)
	}
	if w.npending == 0 {
		w.deferred = w.deferred[:0]
	}
}

// shiftDeferred moves by delta bytes the open reservations at offsets in [lo, hi).
func (w *Writer) shiftDeferred(lo, hi, delta int) {
	if w.npending == 0 {
		return
	}
	for j, p := range w.deferred {
		if p >= lo && p < hi {
			w.deferred[j] = p + delta
		}
	}
}

// dropDeferredFrom drops the open reservations whose room does not lie wholly before end.
func (w *Writer) dropDeferredFrom(end int) {
	for j, p := range w.deferred {
		if p >= 0 && p+reservedLen > end {
			w.deferred[j] = -1
			w.npending--
		}
	}
	if w.npending == 0 {
		w.deferred = w.deferred[:0]
	}
}
