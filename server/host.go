package server

import (
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/internal/fdlimit"
)

// serverHost is the server as the families outside this package see it
// (serverfamily.Host): its table, configuration file, statistics, clock, logger and
// descriptor limit.
type serverHost struct{ s *Server }

func (h serverHost) Commands() *command.Table { return h.s.cmds }
func (h serverHost) ConfigFile() string       { return h.s.configFile }
func (h serverHost) ResetStats()              { h.s.resetStats() }
func (h serverHost) Now() time.Time           { return h.s.now() }
func (h serverHost) Log() *zap.Logger         { return h.s.log }
func (h serverHost) ACLUserLines() []string   { return h.s.acl.reg.List() }

// MaxClientsRefusal tries to raise the descriptor limit for maxclients clients (Redis's
// updateMaxclients) and returns why it cannot serve them, or "".
func (h serverHost) MaxClientsRefusal(maxclients int64) string {
	if allowed, _, _, _ := fdlimit.Raise(maxclients); allowed < maxclients {
		return errMaxClientsOS(allowed)
	}
	return ""
}
