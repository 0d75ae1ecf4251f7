package stringfamily

import (
	"errors"
	"fmt"

	"github.com/kvserver/kvserver/command"
)

// The family's errors, each defined once with its text word for word as Redis 7.2 writes it
// (t_string.c, object.c, server.c). The operations return them; replyError writes them.
var (
	errSyntax        = errors.New("ERR syntax error")
	errWrongType     = errors.New("WRONGTYPE Operation against a key holding the wrong kind of value")
	errNotInteger    = errors.New("ERR value is not an integer or out of range")
	errNotFloat      = errors.New("ERR value is not a valid float")
	errOverflow      = errors.New("ERR increment or decrement would overflow")
	errDecrOverflow  = errors.New("ERR decrement would overflow")
	errNaNOrInfinity = errors.New("ERR increment would produce NaN or Infinity")
	errOffsetRange   = errors.New("ERR offset is out of range")
	errStringTooLong = errors.New("ERR string exceeds maximum allowed size (proto-max-bulk-len)")
	// errInvalidExpire names the command in its text: replyError formats it.
	errInvalidExpire = errors.New("ERR invalid expire time in '%s' command")
)

// replyError writes err, an error of this file or one of the keyspace's (its OOM): Redis's
// addReplyError funnel for the family. The expire error names the command as Redis does
// (c->cmd->fullname, which rename-command does not change).
func replyError(ctx *command.Ctx, err error) {
	if err == errInvalidExpire {
		ctx.W.Error(fmt.Sprintf(errInvalidExpire.Error(), ctx.Cmd.FullName))
		return
	}
	ctx.W.Error(err.Error())
}
