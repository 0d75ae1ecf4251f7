package listfamily

import (
	"errors"

	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// The family's own errors, word for word as Redis 7.2 writes them (t_list.c, object.c); the
// shared ones (syntax, wrong type, not an integer, no such key) are replyerr's.
const (
	errIndexRange     replyerr.Error = "ERR index out of range"
	errMustBePositive replyerr.Error = "ERR value is out of range, must be positive"
	errLongRange      replyerr.Error = "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"
	errRankZero       replyerr.Error = "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list"
	errCountNegative  replyerr.Error = "ERR COUNT can't be negative"
	errMaxlenNegative replyerr.Error = "ERR MAXLEN can't be negative"
	errNumkeys        replyerr.Error = "ERR numkeys should be greater than 0"
	errCountPositive  replyerr.Error = "ERR count should be greater than 0"
)

// replyError is the reply for an error of the keyspace or of listval: a replyerr.Error as it
// is; out of memory (listval's object.ErrOOM, the keyspace's only error) is Redis's OOM error.
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
