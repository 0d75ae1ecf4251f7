package server

// Error texts clients see, defined once, word for word as Redis 7.2 writes them. The reply
// writer adds "ERR " to a text without a code.
const (
	errSyntax          = "ERR syntax error"
	errNotInteger      = "ERR value is not an integer or out of range"
	errNotFloat        = "ERR value is not a valid float"
	errWrongType       = "WRONGTYPE Operation against a key holding the wrong kind of value"
	errOverflow        = "ERR increment or decrement would overflow"
	errNoSuchKey       = "ERR no such key"
	errDBIndex         = "ERR DB index is out of range"
	errMaxClients      = "ERR max number of clients reached"
	errOOM             = "OOM command not allowed when used memory > 'maxmemory'."
	errInvalidExpire   = "ERR invalid expire time in '%s' command"
	errWrongArgs       = "ERR wrong number of arguments for '%s' command"
	errNoProto         = "NOPROTO unsupported protocol version"
	errProtoNotInteger = "ERR Protocol version is not an integer or out of range"
	errNotAllowedMulti = "ERR Command not allowed inside a transaction"
	errDebugNotAllowed = "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", " +
		"you can run it from a local connection, otherwise you need to set this option in the configuration file, " +
		"and then restart the server."
)
