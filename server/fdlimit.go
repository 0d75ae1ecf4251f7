package server

import (
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"

	"go.uber.org/zap"
)

// minReservedFDs is CONFIG_MIN_RESERVED_FDS: descriptors kept for the listeners, log, pid
// file and the like on top of one per client.
const minReservedFDs = 32

// openFilesLimit raises RLIMIT_NOFILE to what maxclients needs, as Redis's
// adjustOpenFilesLimit does, and returns the maxclients the limit allows: maxclients itself,
// or the limit less minReservedFDs when the limit cannot be raised that far. It returns an
// error when not even one client fits.
//
// Go's runtime has already raised the soft limit to the hard one at start. Raising the hard
// limit needs privileges: failing that, the hard limit is the best there is.
func openFilesLimit(maxclients int64) (allowed int64, raisedFrom uint64, err error) {
	want := uint64(maxclients) + minReservedFDs
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		// Redis assumes 1024 when it cannot tell.
		return min(maxclients, 1024-minReservedFDs), 0, nil
	}
	old := lim.Cur
	if old >= want {
		return maxclients, 0, nil
	}
	best := old
	var setErr error
	if lim.Max < want {
		// Up to the hard limit first, then try past it (allowed to root).
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: lim.Max, Max: lim.Max}); err == nil {
			best = lim.Max
		}
	}
	if setErr = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: want, Max: max(want, lim.Max)}); setErr == nil {
		best = want
	} else {
		lastSetrlimitErr.Store(setErr)
	}
	if best <= minReservedFDs {
		return 0, old, fmt.Errorf("Your current 'ulimit -n' of %d is not enough for the server to start. Please increase your open file limit to at least %d. Exiting.", old, want)
	}
	return min(maxclients, int64(best)-minReservedFDs), old, nil
}

// adjustMaxClients caps maxclients at start-up to what the file descriptor limit allows,
// logging Redis's warnings, and lowers the configured value to match (CONFIG GET maxclients
// shows it, as in Redis).
func (s *Server) adjustMaxClients() error {
	requested := int64(s.cfg.MaxClients())
	allowed, raisedFrom, err := openFilesLimit(requested)
	if err != nil {
		return err
	}
	want := uint64(requested) + minReservedFDs
	if allowed < requested {
		s.log.Warn(fmt.Sprintf("You requested maxclients of %d requiring at least %d max file descriptors.", requested, want))
		s.log.Warn(fmt.Sprintf("Server can't set maximum open files to %d because of OS error: %s.", want, strerror(lastSetrlimitErr.Load())))
		s.log.Warn(fmt.Sprintf("Current maximum open files is %d. maxclients has been reduced to %d to compensate for low ulimit. If you need higher maxclients increase 'ulimit -n'.",
			allowed+minReservedFDs, allowed))
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

// lastSetrlimitErr is the last refusal of setrlimit, for the warning.
var lastSetrlimitErr atomic.Value

// strerror is C's text of a system error: its Go text with a capital first letter.
func strerror(v any) string {
	err, ok := v.(error)
	if !ok || err == nil {
		return "Operation not permitted"
	}
	t := err.Error()
	return strings.ToUpper(t[:1]) + t[1:]
}
