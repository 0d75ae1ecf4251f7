package server

import (
	"sync"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/kvserver/kvserver/conv"
)

// logKind is a kind of message that clients can make the server write as often as they like.
// Each kind has its own token bucket, so that a client sending garbage in a loop cannot fill
// the disk, and a flood of one kind does not hide the other.
type logKind uint8

const (
	logKindProtocolError logKind = iota // a malformed request: verbose (zap's debug)
	logKindClientLimit                  // a client closed by a limit: warning
	logKindAccept                       // accept failed (out of descriptors): warning
	logKindDebugLog                     // DEBUG LOG <message>: warning
	logKindCommandPanic                 // a handler's panic, recovered by the pipeline: warning
	numLogKinds
)

// Rate of each kind: logBurst messages at once, then logRate a second. Ten a second keeps a
// log readable and bounded (under 100 MB a day per kind) while showing that something happens.
const (
	logRate  = 10
	logBurst = 10
)

// logThrottle is one token bucket. The mutex is taken only when a message of its kind is
// about to be written, which is never on a path a well-behaved client takes.
type logThrottle struct {
	mu         sync.Mutex
	tokens     float64
	last       time.Time
	suppressed int64 // messages dropped since the last one written
}

// allow takes a token if there is one, returning whether to write and how many messages were
// suppressed before this one (reset once reported).
func (t *logThrottle) allow(now time.Time) (ok bool, suppressed int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last.IsZero() {
		t.tokens = logBurst
	} else {
		t.tokens = min(logBurst, t.tokens+now.Sub(t.last).Seconds()*logRate)
	}
	t.last = now
	if t.tokens < 1 {
		t.suppressed++
		return false, 0
	}
	t.tokens--
	suppressed, t.suppressed = t.suppressed, 0
	return true, suppressed
}

// logLimited writes msg about client c (nil if none) at level if its kind's bucket allows,
// adding the number of messages of that kind suppressed since the last one written.
func (s *Server) logLimited(kind logKind, level zapcore.Level, msg string, c *client, fields ...zap.Field) {
	if !s.log.Core().Enabled(level) {
		return
	}
	ok, suppressed := s.logThrottles[kind].allow(time.Now())
	if !ok {
		return
	}
	if c != nil {
		fields = append(fields, zap.Int64("id", c.id), zap.String("addr", c.remoteAddr()))
	}
	if suppressed > 0 {
		fields = append(fields, zap.Int64("suppressed", suppressed))
	}
	if ce := s.log.Check(level, msg); ce != nil {
		ce.Write(fields...)
	}
}

// logMaxLen is Redis's LOG_MAX_LEN: serverLog formats a message into 1024 bytes, its NUL
// included, so a line holds at most 1023 bytes of message.
const logMaxLen = 1024

// debugLog writes DEBUG LOG's message as Redis does ("DEBUG LOG: <message>" at warning, the
// argument read as a C string: up to its first NUL), cut at LOG_MAX_LEN as serverLog cuts it
// (and back to a whole UTF-8 character), and rate-limited as the other messages clients cause:
// one call writes at most 1 KiB, and a flood at most logBurst + logRate lines a second.
func (s *Server) debugLog(arg []byte) {
	const prefix = "DEBUG LOG: "
	if len(arg) > logMaxLen-1-len(prefix) {
		arg = arg[:logMaxLen-1-len(prefix)]
		// Back to the start of a character cut in two.
		for i := len(arg) - 1; i >= 0 && i >= len(arg)-utf8.UTFMax; i-- {
			if utf8.RuneStart(arg[i]) {
				if !utf8.FullRune(arg[i:]) {
					arg = arg[:i]
				}
				break
			}
		}
	}
	s.logLimited(logKindDebugLog, zapcore.WarnLevel, prefix+conv.CString(arg), nil)
}
