package querybuf

import "math"

// Protocol limits. Each number is Redis 7.2's, named after its Redis constant or directive.
const (
	// InlineMaxSize is PROTO_INLINE_MAX_SIZE: the longest inline request, "*<count>" line or
	// "$<len>" line that may wait for its terminator. Past it without one the client gets a
	// protocol error, so a line can never make a client hold more than this (plus one read).
	InlineMaxSize = 64 * 1024

	// BigArgThreshold is PROTO_MBULK_BIG_ARG: a bulk argument at least this long gets a buffer
	// of its own, sized when its header is parsed, that the connection may read straight into
	// and that may later be adopted as the stored value without a copy.
	BigArgThreshold = 32 * 1024

	// MaxMultibulkLen is the largest "*<count>": Redis 7.2 keeps the count in an int and
	// rejects anything above INT_MAX with "invalid multibulk length".
	MaxMultibulkLen = math.MaxInt32

	// DefaultMaxBulkLen is proto-max-bulk-len's default, 512mb.
	DefaultMaxBulkLen int64 = 512 << 20

	// DefaultQueryBufLimit is client-query-buffer-limit's default, 1gb.
	DefaultQueryBufLimit int64 = 1 << 30

	// UnauthMaxMultibulkLen is the largest "*<count>" a client that must still authenticate
	// may send (processMultibulkBuffer's "ll > 10 && authRequired(c)"): AUTH and HELLO need
	// no more, and a stranger cannot make the server reserve room for many arguments.
	UnauthMaxMultibulkLen = 10

	// UnauthMaxBulkLen is the longest "$<len>" such a client may send (Redis's 16384).
	UnauthMaxBulkLen = 16384

	// UnauthQueryBufLimit bounds the query buffer of such a client whatever
	// client-query-buffer-limit says (readQueryFromClient's 1024*1024 && authRequired(c)).
	UnauthQueryBufLimit int64 = 1 << 20
)

const (
	// maxArgvPrealloc caps the argument slots reserved from a count line, as Redis 7.2 does
	// (argv_len = min(multibulklen, 1024)): a client announcing 2^31-1 arguments costs 1,024
	// slots until it actually sends them; past that the slots grow as arguments arrive.
	maxArgvPrealloc = 1024
)

// Limits are the configurable protocol limits of a Parser. A zero field means its default.
type Limits struct {
	// MaxBulkLen is proto-max-bulk-len: a longer "$<len>" is "invalid bulk length".
	MaxBulkLen int64
	// QueryBufLimit is client-query-buffer-limit. Unlike Redis, which counts only the unparsed
	// bytes, it bounds the unparsed bytes plus everything held for the unfinished command (its
	// parsed arguments, their offsets and a reserved big-argument buffer), so that a command
	// of millions of small arguments cannot grow without bound. Past it Parse returns
	// ErrQueryBufLimit.
	QueryBufLimit int64
	// Unauthenticated is set while the client must still authenticate (requirepass is set and
	// it has not sent a good AUTH): counts above UnauthMaxMultibulkLen and lengths above
	// UnauthMaxBulkLen are protocol errors, and the query buffer limit is at most
	// UnauthQueryBufLimit.
	Unauthenticated bool
}

// DefaultLimits returns Redis's defaults: proto-max-bulk-len 512mb, client-query-buffer-limit 1gb.
func DefaultLimits() Limits {
	return Limits{MaxBulkLen: DefaultMaxBulkLen, QueryBufLimit: DefaultQueryBufLimit}
}

func (l Limits) maxBulkLen() int64 {
	if l.MaxBulkLen <= 0 {
		return DefaultMaxBulkLen
	}
	return l.MaxBulkLen
}

func (l Limits) queryBufLimit() int64 {
	limit := l.QueryBufLimit
	if limit <= 0 {
		limit = DefaultQueryBufLimit
	}
	if l.Unauthenticated {
		limit = min(limit, UnauthQueryBufLimit)
	}
	return limit
}
