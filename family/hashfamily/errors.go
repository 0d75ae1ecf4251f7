package hashfamily

import "github.com/kvserver/kvserver/replyerr"

// The family's own errors, word for word as Redis 7.2 writes them (t_hash.c, object.c); the
// shared ones (syntax, wrong type, not an integer or a float, overflow) are replyerr's.
const (
	errHashNotInteger replyerr.Error = "ERR hash value is not an integer"
	errHashNotFloat   replyerr.Error = "ERR hash value is not a float"
	errNaNOrInfinity  replyerr.Error = "ERR increment would produce NaN or Infinity"
	errValueNaNOrInf  replyerr.Error = "ERR value is NaN or Infinity"
	errOutOfRange     replyerr.Error = "ERR value is out of range"
	// errCountRange is getRangeLongFromObjectOrReply's text for HRANDFIELD's count, whose
	// range is -LONG_MAX..LONG_MAX.
	errCountRange replyerr.Error = "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"
)
