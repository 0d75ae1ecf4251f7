package server

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
)

// client-output-buffer-limit for the normal and pubsub classes (Redis's
// checkClientOutputBufferLimits): a client whose output waits unwritten — it does not read it —
// is closed once it passes the hard limit, or stays over the soft limit for longer than its
// seconds. A client with a subscription is in the pubsub class: its queued messages are checked
// as each arrives (pubsub_client.go), its replies and messages waiting for a full socket as a
// normal client's are. Replicas do not exist yet: their class is kept for CONFIG GET and REWRITE
// only.
//
// Replies wait only while the client's socket is full: the server then reads no more of that
// client's commands (backpressure), so what waits is at most a batch of replies — one large
// reply, a GET of a big value or a KEYS, is what can pass a limit.

// outputLimit is one class's limit; zero values are no limit.
type outputLimit struct {
	hard, soft int64
	softFor    time.Duration
}

// errOutputLimit ends a client over its output buffer limit.
var errOutputLimit = errors.New("output buffer limit")

// watchOutputLimit keeps the normal and pubsub classes' limits from the configuration.
func (s *Server) watchOutputLimit() {
	apply := func(v string) {
		l := classOutputLimit(v, "normal")
		s.outputLimit.Store(&l)
		p := classOutputLimit(v, "pubsub")
		s.pubsubLimit.Store(&p)
	}
	v, _ := s.cfg.Value("client-output-buffer-limit")
	apply(v)
	s.cfg.OnChange("client-output-buffer-limit", apply)
}

// classOutputLimit reads one class from the parameter's canonical value ("normal H S T slave …
// pubsub …", bytes and seconds).
func classOutputLimit(v, class string) outputLimit {
	f := strings.Fields(v)
	for i := 0; i+3 < len(f); i += 4 {
		if f[i] != class {
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
	if c.subscribed() {
		l = c.srv.pubsubLimit.Load()
	}
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

// pubsubLimitExceeded checks a subscriber's queue of pending bytes against the pubsub class,
// as each message is queued: over the hard limit, or over the soft limit for longer than its
// seconds since *softOverSince (unix ns, 0 for none; set and cleared here). The caller holds
// the queue's lock.
func (s *Server) pubsubLimitExceeded(softOverSince *int64, pending int64) bool {
	l := s.pubsubLimit.Load()
	if l == nil || (l.hard == 0 && l.soft == 0) {
		return false
	}
	switch {
	case l.hard > 0 && pending >= l.hard:
		return true
	case l.soft > 0 && pending >= l.soft:
		now := time.Now().UnixNano()
		if *softOverSince == 0 {
			*softOverSince = now
			return false
		}
		return time.Duration(now-*softOverSince) > l.softFor
	default:
		*softOverSince = 0
		return false
	}
}
