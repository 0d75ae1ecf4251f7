package setfamily

import (
	"errors"

	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/setval"
)

// The family's own errors, word for word as Redis 7.2 writes them (t_set.c, object.c, db.c);
// the shared ones are replyerr's.
const (
	errMustBePositive replyerr.Error = "ERR value is out of range, must be positive"
	errCountRange     replyerr.Error = "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"
	errNumkeys        replyerr.Error = "ERR numkeys should be greater than 0"
	errNumkeysArgs    replyerr.Error = "ERR Number of keys can't be greater than number of args"
	errLimitNegative  replyerr.Error = "ERR LIMIT can't be negative"
)

// replyError is the reply for an error of the keyspace or of setval: out of memory is
// Redis's OOM error.
func replyError(err error) string {
	var re replyerr.Error
	if errors.As(err, &re) {
		return re.Error()
	}
	if errors.Is(err, setval.ErrOOM) {
		return replyerr.OOM.Error()
	}
	return replyerr.OOM.Error() // the keyspace's only error is out of memory
}
