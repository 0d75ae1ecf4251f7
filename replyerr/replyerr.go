// Package replyerr defines the error replies that more than one part of kvserver sends, once
// each, word for word as Redis 7.2 writes them (server.c's shared objects, object.c, db.c,
// t_string.c, networking.c), and the type every error reply is defined with.
//
// An Error's text is the reply without its '-' and CRLF, code first ("ERR syntax error",
// "WRONGTYPE Operation…"): a handler writes any error with one call, w.Error(err.Error()),
// through resp.Writer.Error, the funnel that also names the code for errorstats. A family's
// own texts (COPY's "ERR source and destination…") are Error constants in the family.
//
// replyerr imports nothing of the project: object, keyspace, command, the families and the
// server all use it.
package replyerr

// Error is an error whose text is the reply a client gets. Errors are compared with == or
// errors.Is.
type Error string

// Error returns the reply text.
func (e Error) Error() string { return string(e) }

// The shared error replies.
const (
	// Syntax is shared.syntaxerr: an unknown or misplaced option.
	Syntax Error = "ERR syntax error"
	// WrongType is shared.wrongtypeerr: an operation on a key of another type.
	WrongType Error = "WRONGTYPE Operation against a key holding the wrong kind of value"
	// NoSuchKey is shared.nokeyerr: RENAME, OBJECT, DEBUG OBJECT… of a missing key.
	NoSuchKey Error = "ERR no such key"
	// NotInteger is getLongLongFromObjectOrReply's: an argument string2ll refuses.
	NotInteger Error = "ERR value is not an integer or out of range"
	// IntRange is getIntFromObjectOrReply's: an integer outside a C int (SELECT, MOVE).
	IntRange Error = "ERR value is out of range, value must between -2147483648 and 2147483647"
	// NotFloat is getLongDoubleFromObjectOrReply's: an argument string2ld refuses.
	NotFloat Error = "ERR value is not a valid float"
	// Overflow is INCR's and INCRBY's result beyond int64.
	Overflow Error = "ERR increment or decrement would overflow"
	// DBIndex is a database number that does not exist (SELECT, MOVE, COPY … DB).
	DBIndex Error = "ERR DB index is out of range"
	// OOM is shared.oomerr: a command that may grow memory, refused over maxmemory — and
	// kvserver's answer when an arena cannot provide memory.
	OOM Error = "OOM command not allowed when used memory > 'maxmemory'."
	// NoAuth is shared.noautherr: a command before AUTH when a password is required.
	NoAuth Error = "NOAUTH Authentication required."
	// MaxClients is acceptCommonHandler's: a connection beyond maxclients.
	MaxClients Error = "ERR max number of clients reached"
	// DebugNotAllowed is DEBUG refused by enable-debug-command.
	DebugNotAllowed Error = "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", " +
		"you can run it from a local connection, otherwise you need to set this option in the configuration file, " +
		"and then restart the server."
)

// WrongArgs is "wrong number of arguments for '<command>' command", with the command's full
// name as Redis prints it (c->cmd->fullname: "get", "config|set").
func WrongArgs(fullName string) Error {
	return Error("ERR wrong number of arguments for '" + fullName + "' command")
}

// InvalidExpire is "invalid expire time in '<command>' command" (SET, SETEX, GETEX, EXPIRE…),
// with the command's full name.
func InvalidExpire(fullName string) Error {
	return Error("ERR invalid expire time in '" + fullName + "' command")
}
