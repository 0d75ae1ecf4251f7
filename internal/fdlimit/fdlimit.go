// Package fdlimit raises the process's descriptor limit for maxclients, as Redis's
// adjustOpenFilesLimit does.
package fdlimit

import (
	"fmt"
	"syscall"
)

// MinReserved is CONFIG_MIN_RESERVED_FDS: descriptors kept for the listeners, log, pid file
// and the like on top of one per client.
const MinReserved = 32

// Raise raises RLIMIT_NOFILE to what maxclients needs and returns the maxclients the limit
// allows: maxclients itself, or the limit less MinReserved when it cannot be raised that far
// (refusal is then setrlimit's error, for the warning). raisedFrom is the soft limit before,
// when it was raised. It returns an error when not even one client fits.
//
// Go's runtime has already raised the soft limit to the hard one at start. Raising the hard
// limit needs privileges: failing that, the hard limit is the best there is.
func Raise(maxclients int64) (allowed int64, raisedFrom uint64, refusal, err error) {
	want := uint64(maxclients) + MinReserved
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		// Redis assumes 1024 when it cannot tell.
		return min(maxclients, 1024-MinReserved), 0, nil, nil
	}
	old := lim.Cur
	if old >= want {
		return maxclients, 0, nil, nil
	}
	best := old
	if lim.Max < want {
		// Up to the hard limit first, then try past it (allowed to root).
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: lim.Max, Max: lim.Max}); err == nil {
			best = lim.Max
		}
	}
	if refusal = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: want, Max: max(want, lim.Max)}); refusal == nil {
		best = want
	}
	if best <= MinReserved {
		return 0, old, refusal, fmt.Errorf("Your current 'ulimit -n' of %d is not enough for the server to start. Please increase your open file limit to at least %d. Exiting.", old, want)
	}
	return min(maxclients, int64(best)-MinReserved), old, refusal, nil
}
