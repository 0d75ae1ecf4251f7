package server

import (
	"net"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/querybuf"
)

// Authentication as Redis 7.2 does it: a client starts as the default user, authenticated
// when that user has no password (nopass) and is on; AUTH or HELLO AUTH with a user's name
// and one of its passwords makes the client that user (acl.go: its ACL); RESET takes it back
// to the default user. requirepass is the default user's password (acl.go). authRequired
// (Redis's authRequired(c)) is what the checks ask: the default user needs a password and the
// client has not authenticated.

// errProtectedMode is what protected mode writes to a refused client before closing it
// (networking.c clientAcceptHandler).
const errProtectedMode = "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user. In this mode connections are only accepted from the loopback interface. If you want to connect from external computers to Redis you may adopt one of the following solutions: 1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback interface by connecting to Redis from the same host the server is running, however MAKE SURE Redis is not publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. 2) Alternatively you can just disable the protected mode by editing the Redis configuration file, and setting the protected mode option to 'no', and then restarting the server. 3) If you started the server manually just for testing, restart it with the '--protected-mode no' option. 4) Set up an authentication password for the default user. NOTE: You only need to do one of the above things in order for the server to start accepting connections from the outside.\r\n"

// defaultUser is the name of the default user.
const defaultUser = "default"

// initAuth sets a new client's authentication: the default user, authenticated unless it
// needs a password.
func (c *client) initAuth() {
	c.authenticated.Store(!c.srv.authNeeded.Load())
}

// unauthReplyLimit bounds the unwritten replies of a client that must still authenticate:
// past it the client is closed and none of them is written. Redis keeps a client's replies in
// a 16 KiB static buffer and then in a reply list, and checkClientOutputBufferLimits closes an
// unauthenticated client as soon as the list holds more than 1024 bytes (any block: 16 KiB at
// least) — so 256 pipelined `AUTH bad` (64-byte errors) are answered and 257 close the client.
const unauthReplyLimit = 16 << 10

// checkUnauthReplyLimit is called once a batch's unwritten replies exceed unauthReplyLimit: a
// client that must still authenticate is closed at once, as Redis's
// closeClientOnOutputBufferLimitReached does — the batch stops, the pending replies are
// dropped, the client closes.
func (c *client) checkUnauthReplyLimit() {
	if !c.authRequired() {
		return
	}
	c.w.Truncate(0)
	c.closeAfterReply = true
	c.srv.stats.outputLimitDisconnections.Add(1)
	c.srv.logLimited(logKindClientLimit, zap.WarnLevel,
		"client scheduled to be closed ASAP for overcoming of output buffer limits", c,
		zap.String("reason", "unauthenticated"))
}

// authRequired reports whether the client must still authenticate. An authenticated client
// pays one atomic load.
func (c *client) authRequired() bool {
	return !c.authenticated.Load() && c.srv.authNeeded.Load()
}

// parserLimits are the server's protocol limits, with Redis's tighter ones while the client
// must still authenticate.
func (c *client) parserLimits() querybuf.Limits {
	l := c.srv.parserLimits()
	l.Unauthenticated = c.authRequired()
	return l
}

// authenticate checks a user name and password as ACLAuthenticateUser: the user must exist
// and be on, and the password must be one of its own unless it is nopass (the comparison takes
// the same time for every password: acl.User.CheckPassword). On success the client is that
// user, authenticated, and its parser loses the unauthenticated limits; a failure is counted
// and logged (logAuthFailure) with cmdName, the command as typed.
func (c *client) authenticate(cmdName, user, pass []byte) bool {
	u := c.srv.acl.reg.User(string(user))
	if u == nil || !u.Enabled() || !u.CheckPassword(pass) {
		c.logAuthFailure(cmdName, user, c.tx.Load() != nil && c.tx.Load().InMulti())
		return false
	}
	c.setUser(u)
	c.authenticated.Store(true)
	if c.activeState != nil {
		c.parser.SetLimits(c.parserLimits())
	}
	return true
}

// resetAuth is RESET's part: back to the default user, authenticated only if it has no
// password.
func (c *client) resetAuth() {
	c.setUser(nil)
	c.initAuth()
	if c.activeState != nil {
		c.parser.SetLimits(c.parserLimits())
	}
}

// protectedModeDenies is clientAcceptHandler's test: protected mode is on, the default user
// has no password, and the client is not local (loopback: 127.0.0.0/8 or ::1; a connection
// with no IP address, such as a Unix socket, is local).
func protectedModeDenies(protectedMode, defaultNoPass bool, remote net.Addr) bool {
	if !protectedMode || !defaultNoPass {
		return false
	}
	tcp, ok := remote.(*net.TCPAddr)
	if !ok {
		return false
	}
	return !tcp.IP.IsLoopback()
}
