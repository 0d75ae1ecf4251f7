package stringfamily

import "github.com/kvserver/kvserver/replyerr"

// The family's own errors, word for word as Redis 7.2 writes them (t_string.c); the shared
// ones (syntax, wrong type, not an integer or a float, overflow, invalid expire…) are
// replyerr's. The operations return them; handlers write them with ctx.W.Error(err.Error()).
const (
	errDecrOverflow  replyerr.Error = "ERR decrement would overflow"
	errNaNOrInfinity replyerr.Error = "ERR increment would produce NaN or Infinity"
	errOffsetRange   replyerr.Error = "ERR offset is out of range"
	errStringTooLong replyerr.Error = "ERR string exceeds maximum allowed size (proto-max-bulk-len)"
)
