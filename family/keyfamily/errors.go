package keyfamily

import (
	"github.com/kvserver/kvserver/command"
)

// replyError is an error whose text is the reply a client gets, word for word as Redis 7.2
// writes it. Operations return these; replyErr writes them.
type replyError string

func (e replyError) Error() string { return string(e) }

// The family's errors, defined once.
const (
	errSyntax      replyError = "ERR syntax error"
	errNotInteger  replyError = "ERR value is not an integer or out of range"
	errIntRange    replyError = "ERR value is out of range, value must between -2147483648 and 2147483647"
	errNoSuchKey   replyError = "ERR no such key"
	errDBIndex     replyError = "ERR DB index is out of range"
	errSameObject  replyError = "ERR source and destination objects are the same"
	errUnknownType replyError = "ERR unknown type object" // COPY, RENAME of a type they cannot rebuild yet
	errBadCursor   replyError = "ERR invalid cursor"
	errFirstDB     replyError = "ERR invalid first DB index"
	errSecondDB    replyError = "ERR invalid second DB index"
	errNXAndOthers replyError = "ERR NX and XX, GT or LT options at the same time are not compatible"
	errGTAndLT     replyError = "ERR GT and LT options at the same time are not compatible"
	errLFUNotSet   replyError = "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."
	errLFUSet      replyError = "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."
)

// errInvalidExpire is Redis's "invalid expire time in '<command>' command".
func errInvalidExpire(name string) replyError {
	return replyError("ERR invalid expire time in '" + name + "' command")
}

// errUnsupportedOption is EXPIRE's unknown option, printed as C's %s prints it (up to a NUL).
func errUnsupportedOption(opt []byte) replyError {
	return replyError("ERR Unsupported option " + cString(opt))
}

// cString is arg as C's %s prints it: up to the first NUL byte.
func cString(arg []byte) string {
	for i, ch := range arg {
		if ch == 0 {
			return string(arg[:i])
		}
	}
	return string(arg)
}

// replyErr writes err as the command's error reply: the one funnel of the family's errors. An
// error from below (the keyspace, the allocator) is written with its own text.
func replyErr(ctx *command.Ctx, err error) {
	ctx.W.Error(err.Error())
}
