package server

import "github.com/kvserver/kvserver/replyerr"

// The server's own error replies (HELLO, AUTH), defined once, word for word as Redis 7.2 writes
// them; the shared ones (syntax, not an integer, DB index, max clients…) are replyerr's. Write
// one with c.w.Error(err.Error()).
const (
	errNoProto         replyerr.Error = "NOPROTO unsupported protocol version"
	errProtoNotInteger replyerr.Error = "ERR Protocol version is not an integer or out of range"
	errWrongPass       replyerr.Error = "WRONGPASS invalid username-password pair or user is disabled."
	errAuthNoPass      replyerr.Error = "ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?"
	errHelloNoAuth     replyerr.Error = "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time"
)
