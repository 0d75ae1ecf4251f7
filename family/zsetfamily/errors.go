package zsetfamily

import (
	"errors"

	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// The family's own errors, word for word as Redis 7.2 writes them (t_zset.c, object.c); the
// shared ones (syntax, wrong type, not an integer, not a float) are replyerr's.
const (
	errXXNX           replyerr.Error = "ERR XX and NX options at the same time are not compatible"
	errGTLTNX         replyerr.Error = "ERR GT, LT, and/or NX options at the same time are not compatible"
	errIncrPair       replyerr.Error = "ERR INCR option supports a single increment-element pair"
	errNaN            replyerr.Error = "ERR resulting score is not a number (NaN)"
	errMinMaxFloat    replyerr.Error = "ERR min or max is not a float"
	errMinMaxLex      replyerr.Error = "ERR min or max not valid string range item"
	errWeightFloat    replyerr.Error = "ERR weight value is not a float"
	errLimitNegative  replyerr.Error = "ERR LIMIT can't be negative"
	errLimitRank      replyerr.Error = "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"
	errScoresLex      replyerr.Error = "ERR syntax error, WITHSCORES not supported in combination with BYLEX"
	errMustBePositive replyerr.Error = "ERR value is out of range, must be positive"
	errNumkeys        replyerr.Error = "ERR numkeys should be greater than 0"
	errCountPositive  replyerr.Error = "ERR count should be greater than 0"
	errLongRange      replyerr.Error = "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"
	errOutOfRange     replyerr.Error = "ERR value is out of range"
)

// errAtLeastOneKey is zunionInterDiffGenericCommand's numkeys below 1, naming the command.
func errAtLeastOneKey(fullName string) replyerr.Error {
	return replyerr.Error("ERR at least 1 input key is needed for '" + fullName + "' command")
}

// replyError is the reply for an error of the keyspace or of zsetval: a replyerr.Error as it
// is; anything else is out of memory (object.ErrOOM, the keyspace's only error), Redis's OOM
// error.
func replyError(err error) string {
	var re replyerr.Error
	if errors.As(err, &re) {
		return re.Error()
	}
	if errors.Is(err, object.ErrOOM) {
		return replyerr.OOM.Error()
	}
	return replyerr.OOM.Error()
}
