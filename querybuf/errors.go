package querybuf

import "errors"

// ProtocolError is a malformed request. Error returns Redis's text word for word; the server
// writes it as an error reply (the reply writer adds "-ERR "), then closes the client once the
// reply is flushed (Redis's CLIENT_CLOSE_AFTER_REPLY).
type ProtocolError struct {
	text string
}

// Error returns the reply text, "Protocol error: …".
func (e *ProtocolError) Error() string { return e.text }

// The protocol errors, each defined once with Redis 7.2's text.
var (
	// ErrTooBigInlineRequest: an inline line longer than InlineMaxSize has no newline.
	ErrTooBigInlineRequest = &ProtocolError{"Protocol error: too big inline request"}
	// ErrTooBigMbulkCountString: a "*<count>" line longer than InlineMaxSize has no CR.
	ErrTooBigMbulkCountString = &ProtocolError{"Protocol error: too big mbulk count string"}
	// ErrInvalidMultibulkLength: the count is not a number or is above MaxMultibulkLen.
	ErrInvalidMultibulkLength = &ProtocolError{"Protocol error: invalid multibulk length"}
	// ErrTooBigBulkCountString: a "$<len>" line longer than InlineMaxSize has no CR.
	ErrTooBigBulkCountString = &ProtocolError{"Protocol error: too big bulk count string"}
	// ErrInvalidBulkLength: the length is not a number, negative, or above proto-max-bulk-len.
	ErrInvalidBulkLength = &ProtocolError{"Protocol error: invalid bulk length"}
	// ErrUnbalancedQuotes: an inline line has an unterminated quote, or a closing quote
	// followed by something other than a space.
	ErrUnbalancedQuotes = &ProtocolError{"Protocol error: unbalanced quotes in request"}
	// ErrUnauthMultibulkLength: a client that must still authenticate announced more than
	// UnauthMaxMultibulkLen arguments.
	ErrUnauthMultibulkLength = &ProtocolError{"Protocol error: unauthenticated multibulk length"}
	// ErrUnauthBulkLength: a client that must still authenticate announced an argument longer
	// than UnauthMaxBulkLen.
	ErrUnauthBulkLength = &ProtocolError{"Protocol error: unauthenticated bulk length"}
)

// expectedDollar holds "expected '$', got 'X'" for every byte X, built once so that the error
// path allocates nothing. Redis formats it with addReplyErrorFormat, which turns CR and LF into
// spaces so that the reply stays one line: a CR or LF found there reads "got ' '". (A NUL can
// never be found there: Redis's strchr stops at it and the line never completes.)
var expectedDollar = func() (t [256]*ProtocolError) {
	for i := range t {
		c := byte(i)
		if c == '\r' || c == '\n' {
			c = ' '
		}
		t[i] = &ProtocolError{"Protocol error: expected '$', got '" + string([]byte{c}) + "'"}
	}
	return t
}()

// ExpectedDollarError returns the error for a bulk header starting with got instead of '$'.
// The same byte always yields the same value, so errors.Is works on it.
func ExpectedDollarError(got byte) *ProtocolError { return expectedDollar[got] }

// ErrQueryBufLimit means the client passed client-query-buffer-limit (see Limits). It is not a
// ProtocolError: Redis sends no reply, it logs the client, closes it at once and counts it in
// client_query_buffer_limit_disconnections. Commands completed in the same Parse call are
// dropped with it, as Redis checks the limit before it parses what it read.
var ErrQueryBufLimit = errors.New("querybuf: client reached client-query-buffer-limit")

// errBigArgAdvance is returned by BigArgAdvance when no big argument is in progress or n does
// not fit in BigArgTail: a bug in the caller, not in the client's bytes.
var errBigArgAdvance = errors.New("querybuf: BigArgAdvance past the big argument in progress")
