// Package resp encodes every reply kvserver sends, in RESP2 and RESP3 from the same calls.
//
// # What it owns
//
// A handler never formats protocol: it calls a Writer method for each reply (Int, BulkString,
// Map, Double, Error…) and the Writer encodes it for the client's protocol version, set by
// HELLO through SetProto. The package also owns the two texts that must match Redis byte for
// byte: error replies (Error is the one funnel that adds "ERR " and keeps CR/LF out) and
// doubles (AppendDouble, Redis 7.2's shortest round-trip form, also for code that stores a
// double's text, as sorted sets do). It knows nothing about commands.
//
// It builds on redcon's pure appenders (AppendInt, AppendBulk, AppendArray) and adds what
// redcon lacks: RESP3 types, the protocol switch, the error rules, Redis's double format,
// deferred lengths, and appenders that never allocate (redcon's AppendBulkInt and its
// newline stripping do).
//
// # RESP2 and RESP3
//
//	call                    RESP2                        RESP3
//	Simple("OK"), OK()      +OK                          +OK
//	Error("msg")            -ERR msg                     -ERR msg
//	Int(n)                  :n                           :n
//	Bulk(b), BulkString(s)  $len CRLF b                  $len CRLF b
//	BulkInt(n)              $len CRLF n                  $len CRLF n
//	Null()                  $-1 (null bulk string)       _
//	NullArray()             *-1 (null array)             _
//	Bool(b)                 :1 / :0                      #t / #f
//	Double(f)               $len CRLF text               ,text
//	BigNumber(s)            $len CRLF s                  (s
//	Verbatim("txt", s)      $len CRLF s                  =len CRLF txt:s
//	Array(n)                *n                           *n
//	Map(n)                  *2n (flat key, value…)       %n
//	Set(n)                  *n                           ~n
//	Push(n)                 *n                           >n
//	Attribute(n)            (nothing; returns false)     |n
//
// Every line ends with CRLF; an aggregate's header is followed by its elements, written by
// the caller with further calls. ArrayDeferred, MapDeferred and SetDeferred reserve a header
// whose count is set once the elements are written.
//
// # Buffers, goroutines and validity
//
// A Writer holds one growing []byte. Once it has grown, no method allocates (the tests check
// every one with testing.AllocsPerRun). A Writer is not safe for concurrent use: it belongs to
// its client's goroutine. Bytes returns a slice of the Writer's buffer, valid until the next
// call that writes, Truncate, Reset or SetBuffer: write or copy it out before writing more,
// and never while a deferred length is pending.
package resp
