package server

import (
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/logging"
)

// logKind is a kind of message that clients can make the server write as often as they like.
// Each kind has its own token bucket (logging.Throttle), so that a flood of one kind does not
// hide the other.
type logKind uint8

const (
	logKindProtocolError logKind = iota // a malformed request: verbose (zap's debug)
	logKindClientLimit                  // a client closed by a limit: warning
	logKindAccept                       // accept failed (out of descriptors): warning
	logKindDebugLog                     // DEBUG LOG <message>: warning
	logKindCommandPanic                 // a handler's panic, recovered by the pipeline: warning
	logKindAuth                         // a failed AUTH or HELLO AUTH: warning
	numLogKinds
)

// logLimited writes msg about client c (nil if none) at level if its kind's bucket allows,
// adding the number of messages of that kind suppressed since the last one written.
func (s *Server) logLimited(kind logKind, level zapcore.Level, msg string, c *client, fields ...zap.Field) {
	if !s.log.Core().Enabled(level) {
		return
	}
	ok, suppressed := s.logThrottles[kind].Allow(time.Now())
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

// debugLog writes DEBUG LOG's message as Redis does ("DEBUG LOG: <message>" at warning, the
// argument read as a C string: up to its first NUL), cut at LOG_MAX_LEN as serverLog cuts it,
// and rate-limited as the other messages clients cause: one call writes at most 1 KiB, and a
// flood at most a burst and then ten lines a second (logging.Throttle).
func (s *Server) debugLog(arg []byte) {
	const prefix = "DEBUG LOG: "
	s.logLimited(logKindDebugLog, zapcore.WarnLevel, prefix+conv.CString(logging.CutMessage(prefix, arg)), nil)
}
