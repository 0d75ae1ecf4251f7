package keyfamily

import (
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/replyerr"
)

// The family's own errors, word for word as Redis 7.2 writes them (db.c, expire.c, object.c);
// the shared ones (syntax, not an integer, no such key, DB index…) are replyerr's. Handlers
// write them with ctx.W.Error(err.Error()).
const (
	errSameObject  replyerr.Error = "ERR source and destination objects are the same"
	errUnknownType replyerr.Error = "ERR unknown type object" // COPY, RENAME of a type they cannot rebuild yet
	errFirstDB     replyerr.Error = "ERR invalid first DB index"
	errSecondDB    replyerr.Error = "ERR invalid second DB index"
	errNXAndOthers replyerr.Error = "ERR NX and XX, GT or LT options at the same time are not compatible"
	errGTAndLT     replyerr.Error = "ERR GT and LT options at the same time are not compatible"
	errLFUNotSet   replyerr.Error = "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."
	errLFUSet      replyerr.Error = "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."
)

// errUnsupportedOption is EXPIRE's unknown option, printed as C's %s prints it (up to a NUL).
func errUnsupportedOption(opt []byte) replyerr.Error {
	return replyerr.Error("ERR Unsupported option " + conv.CString(opt))
}
