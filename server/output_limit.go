package server

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
)

// client-output-buffer-limit for the normal class (Redis's checkClientOutputBufferLimits):
// a client whose replies wait unwritten — it does not read them — is closed once they pass the
// hard limit, or stay over the soft limit for longer than its seconds. Replicas and Pub/Sub
// clients do not exist yet: their classes are kept for CONFIG GET and REWRITE only.
//
// Replies wait only while the client's socket is full: the server then reads no more of that
// client's commands (backpressure), so what waits is at most a batch of replies — one large
// reply, a GET of a big value or a KEYS, is what can pass a limit.

// outputLimit is the normal class's limit; zero values are no limit.
type outputLimit struct {
	hard, soft int64
	softFor    time.Duration
}

// errOutputLimit ends a client over its output buffer limit.
var errOutputLimit = errors.New("output buffer limit")

// watchOutputLimit keeps the normal class's limit from the configuration.
func (s *Server) watchOutputLimit() {
	apply := func(v string) {
		l := normalOutputLimit(v)
		s.outputLimit.Store(&l)
	}
	v, _ := s.cfg.Value("client-output-buffer-limit")
	apply(v)
	s.cfg.OnChange("client-output-buffer-limit", apply)
}

// normalOutputLimit reads the normal class from the parameter's canonical value ("normal H S
// T slave … pubsub …", bytes and seconds).
func normalOutputLimit(v string) outputLimit {
	f := strings.Fields(v)
	for i := 0; i+3 < len(f); i += 4 {
		if f[i] != "normal" {
			continue
		}
		hard, _ := strconv.ParseInt(f[i+1], 10, 64)
		soft, _ := strconv.ParseInt(f[i+2], 10, 64)
		secs, _ := strconv.ParseInt(f[i+3], 10, 64)
		return outputLimit{hard: hard, soft: soft, softFor: time.Duration(secs) * time.Second}
	}
	return outputLimit{}
}

// checkOutputLimit is called with pending reply bytes that the socket did not take. It
// reports whether the client is over its limit — then it is counted and logged, and the caller
// closes it — and otherwise how long it may wait for the socket before the soft limit's time
// runs out (0: no bound).
func (c *client) checkOutputLimit(pending int64) (over bool, wait time.Duration) {
	l := c.srv.outputLimit.Load()
	if l == nil || (l.hard == 0 && l.soft == 0) {
		return false, 0
	}
	now := time.Now()
	switch {
	case l.hard > 0 && pending >= l.hard:
		over = true
	case l.soft > 0 && pending >= l.soft:
		if c.softOverSince.IsZero() {
			c.softOverSince = now
		}
		left := l.softFor - now.Sub(c.softOverSince)
		if left <= 0 {
			over = true
		} else {
			wait = left
		}
	default:
		c.softOverSince = time.Time{}
	}
	if over {
		c.srv.stats.outputLimitDisconnections.Add(1)
		c.srv.logLimited(logKindClientLimit, zap.WarnLevel,
			"Client closed for overcoming of output buffer limits.", c, zap.Int64("pending", pending))
	}
	return over, wait
}
