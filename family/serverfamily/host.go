package serverfamily

import (
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/command"
)

// Host is what the family asks of the server it runs in.
type Host interface {
	// Commands is the server's command table (COMMAND answers from it).
	Commands() *command.Table
	// ConfigFile is the path the server was started with, or "" (CONFIG REWRITE).
	ConfigFile() string
	// ResetStats clears the statistics INFO reports (CONFIG RESETSTAT).
	ResetStats()
	// Now is the time commands see (TIME): the test clock when there is one.
	Now() time.Time
	// ACLUserLines returns ACL LIST's lines ("user default on nopass … +@all"), which CONFIG
	// REWRITE writes when no aclfile is set.
	ACLUserLines() []string
	// Log is the server's logger.
	Log() *zap.Logger
	// MaxClientsRefusal returns Redis's reason why the descriptor limit cannot serve maxclients
	// clients after trying to raise it, or "" when it can (CONFIG SET maxclients).
	MaxClientsRefusal(maxclients int64) string
}

// localConn is a connection that knows whether it is on this machine (a Unix socket or a
// loopback address, Redis's islocalClient), for CONFIG SET of protected settings.
type localConn interface {
	IsLocal() bool
}

// isLocal reports whether the connection behind ctx is local; one that cannot say is not.
func isLocal(ctx *command.Ctx) bool {
	lc, ok := ctx.Conn.(localConn)
	return ok && lc.IsLocal()
}
