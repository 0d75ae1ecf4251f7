package logging

import (
	"strings"

	"go.uber.org/zap/buffer"
	"go.uber.org/zap/zapcore"
)

// timestampLayout is Redis's log timestamp (Valkey's log-timestamp-format legacy):
// "%d %b %Y %H:%M:%S." and the milliseconds, in local time.
const timestampLayout = "02 Jan 2006 15:04:05.000"

// The role of the process. Redis writes 'M' for a master, 'S' for a replica, 'C' for a
// saving child and 'X' for Sentinel (Valkey's logfmt: primary, replica, RDB/AOF, sentinel);
// kvserver has neither replicas nor children, so it is always a master.
const (
	roleChar = 'M'
	roleName = "primary"
)

var linePool = buffer.NewPool()

// lineEncoder writes Redis's legacy line or Valkey's logfmt line (logfmt true), then the
// fields (fieldWriter). Caller, logger name and stack trace are not written.
type lineEncoder struct {
	*fieldWriter // the fields of logger.With, already rendered
	logfmt       bool
	pid          int
}

// newLineEncoder returns the encoder of the legacy (logfmt false) or logfmt line.
func newLineEncoder(logfmt bool, pid int) *lineEncoder {
	return &lineEncoder{fieldWriter: &fieldWriter{}, logfmt: logfmt, pid: pid}
}

// Clone copies the encoder with its fields.
func (e *lineEncoder) Clone() zapcore.Encoder {
	fw := &fieldWriter{buf: append([]byte(nil), e.buf...), ns: e.ns}
	return &lineEncoder{fieldWriter: fw, logfmt: e.logfmt, pid: e.pid}
}

// EncodeEntry writes one line:
//
//	legacy: 4242:M 01 Dec 2026 02:19:16.123 * message key=value
//	logfmt: pid=4242 role=primary timestamp="01 Dec 2026 02:19:16.123" level=notice message="message" key=value
func (e *lineEncoder) EncodeEntry(ent zapcore.Entry, fields []zapcore.Field) (*buffer.Buffer, error) {
	line := linePool.Get()
	if e.logfmt {
		line.AppendString("pid=")
		line.AppendInt(int64(e.pid))
		line.AppendString(" role=" + roleName + ` timestamp="`)
		line.AppendTime(ent.Time, timestampLayout)
		line.AppendString(`" level=`)
		line.AppendString(levelName(ent.Level))
		line.AppendString(` message="`)
		line.AppendString(logfmtMessage(ent.Message))
		line.AppendByte('"')
	} else {
		line.AppendInt(int64(e.pid))
		line.AppendByte(':')
		line.AppendByte(roleChar)
		line.AppendByte(' ')
		line.AppendTime(ent.Time, timestampLayout)
		line.AppendByte(' ')
		line.AppendByte(mark(ent.Level))
		line.AppendByte(' ')
		line.AppendString(ent.Message)
	}
	_, _ = line.Write(e.buf)
	if len(fields) > 0 {
		fw := fieldWriter{ns: e.ns}
		for _, f := range fields {
			f.AddTo(&fw)
		}
		_, _ = line.Write(fw.buf)
	}
	line.AppendByte('\n')
	return line, nil
}

// logfmtReplacer is Valkey's filterInvalidLogfmtChar (a double quote becomes a single one,
// CR and LF a space), and a backslash is doubled so that a logfmt parser reads the message
// back as it was (Valkey leaves it: a message ending in a backslash would escape the closing
// quote).
var logfmtReplacer = strings.NewReplacer(`"`, `'`, "\r", " ", "\n", " ", `\`, `\\`)

// logfmtMessage is the message as it goes between logfmt's quotes.
func logfmtMessage(msg string) string {
	if !strings.ContainsAny(msg, "\"\r\n\\") {
		return msg
	}
	return logfmtReplacer.Replace(msg)
}
