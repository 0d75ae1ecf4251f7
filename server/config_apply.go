package server

import (
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/kvserver/kvserver/logging"
)

// What CONFIG SET changes take effect through. hz is read by the cron at each tick, maxclients
// by the accept loop at each connection, proto-max-bulk-len and client-query-buffer-limit by a
// client's parser when it becomes active (new clients, and parked ones when they wake), and
// requirepass by the authentication checks; the listeners below handle the rest.

// ZapLevel is the zap level of a Redis loglevel (logging.Level): debug is below zap's debug,
// verbose is zap's debug, notice is info, warning is warn, and nothing is above every level.
func ZapLevel(loglevel string) zapcore.Level { return logging.Level(loglevel) }

// watchConfig registers the listeners that apply a changed parameter.
func (s *Server) watchConfig(level *zap.AtomicLevel) {
	if level != nil {
		s.cfg.OnChange("loglevel", func(v string) { level.SetLevel(ZapLevel(v)) })
	}
	// The protocol limits every client's parser applies (cached: read per request otherwise).
	for _, name := range []string{"proto-max-bulk-len", "client-query-buffer-limit"} {
		s.cfg.OnChange(name, func(string) { s.refreshParserLimits() })
	}
	// dir: the working directory, where snapshots and relative paths go (Redis chdirs when
	// dir is set). The config package has checked that the directory exists.
	s.cfg.OnChange("dir", func(v string) {
		if err := os.Chdir(v); err != nil {
			s.log.Warn("cannot change directory", zap.String("dir", v), zap.Error(err))
		}
	})
}
