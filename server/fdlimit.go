package server

import (
	"fmt"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/internal/fdlimit"
	"github.com/kvserver/kvserver/logging"
)

// adjustMaxClients caps maxclients at start-up to what the file descriptor limit allows,
// logging Redis's warnings, and lowers the configured value to match (CONFIG GET maxclients
// shows it, as in Redis).
func (s *Server) adjustMaxClients() error {
	requested := int64(s.cfg.MaxClients())
	allowed, raisedFrom, refusal, err := fdlimit.Raise(requested)
	if err != nil {
		return err
	}
	want := uint64(requested) + fdlimit.MinReserved
	if allowed < requested {
		s.log.Warn(fmt.Sprintf("You requested maxclients of %d requiring at least %d max file descriptors.", requested, want))
		s.log.Warn(fmt.Sprintf("Server can't set maximum open files to %d because of OS error: %s.", want, setrlimitText(refusal)))
		s.log.Warn(fmt.Sprintf("Current maximum open files is %d. maxclients has been reduced to %d to compensate for low ulimit. If you need higher maxclients increase 'ulimit -n'.",
			allowed+fdlimit.MinReserved, allowed))
		return s.cfg.Load([][]string{{"maxclients", fmt.Sprint(allowed)}})
	}
	if raisedFrom > 0 {
		s.log.Info(fmt.Sprintf("Increased maximum number of open files to %d (it was originally set to %d).", want, raisedFrom), zap.Int64("maxclients", requested))
	}
	return nil
}

// errMaxClientsOS is CONFIG SET maxclients' error past what the descriptor limit allows
// (updateMaxclients); the reason follows Redis's "CONFIG SET failed" prefix.
func errMaxClientsOS(allowed int64) string {
	return fmt.Sprintf("The operating system is not able to handle the specified number of clients, try with %d", allowed)
}

// setrlimitText is setrlimit's refusal as strerror words it.
func setrlimitText(refusal error) string {
	if refusal == nil {
		return "Operation not permitted"
	}
	return logging.Strerror(refusal)
}
