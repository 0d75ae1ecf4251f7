package resp

import "github.com/tidwall/redcon"

// Array writes the header of an array of n elements, *n; the caller then writes the n
// elements. It is the same in RESP2 and RESP3. It panics if n is negative (write NullArray
// for the null array).
func (w *Writer) Array(n int) {
	checkLen(n)
	w.buf = redcon.AppendArray(w.buf, n)
}

// Map writes the header of a map of n key/value pairs; the caller then writes 2n elements,
// key then value. RESP3: %n. RESP2: a flat array, *2n, as Redis's addReplyMapLen.
func (w *Writer) Map(n int) {
	checkLen(n)
	if w.resp3() {
		w.buf = appendHeader(w.buf, '%', int64(n))
	} else {
		w.buf = redcon.AppendArray(w.buf, 2*n)
	}
}

// Set writes the header of a set of n elements: ~n in RESP3, *n in RESP2.
func (w *Writer) Set(n int) {
	checkLen(n)
	if w.resp3() {
		w.buf = appendHeader(w.buf, '~', int64(n))
	} else {
		w.buf = redcon.AppendArray(w.buf, n)
	}
}

// Push writes the header of an out-of-band push message of n elements (pub/sub messages,
// client tracking invalidations): >n in RESP3, *n in RESP2, as Redis's addReplyPubsubMessage
// does for RESP2 clients.
func (w *Writer) Push(n int) {
	checkLen(n)
	if w.resp3() {
		w.buf = appendHeader(w.buf, '>', int64(n))
	} else {
		w.buf = redcon.AppendArray(w.buf, n)
	}
}

// Attribute writes the header of an attribute of n key/value pairs, |n, which describes the
// reply that follows it, and reports true: the caller then writes the 2n elements and then the
// reply. RESP2 has no attributes (Redis asserts RESP3 in addReplyAttributeLen): there it
// writes nothing and reports false, and the caller must skip the pairs.
func (w *Writer) Attribute(n int) bool {
	checkLen(n)
	if !w.resp3() {
		return false
	}
	w.buf = appendHeader(w.buf, '|', int64(n))
	return true
}

// NullArray writes the null array: *-1 in RESP2, _ in RESP3 (which has one null), as Redis's
// addReplyNullArray. Redis uses it where an array was expected (BLPOP timing out, EXEC
// aborted by WATCH).
func (w *Writer) NullArray() {
	if w.resp3() {
		w.buf = append(w.buf, "_\r\n"...)
	} else {
		w.buf = append(w.buf, "*-1\r\n"...)
	}
}

// checkLen panics on a negative aggregate length, which would be written as a null.
func checkLen(n int) {
	if n < 0 {
		panic("resp: negative aggregate length")
	}
}
