package logging

import (
	"errors"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// at is the fixed instant of the tests' entries.
var at = time.Date(2026, time.December, 1, 2, 19, 16, 123_456_789, time.UTC)

func encode(t *testing.T, enc zapcore.Encoder, level zapcore.Level, msg string, fields ...zap.Field) string {
	t.Helper()
	buf, err := enc.EncodeEntry(zapcore.Entry{Level: level, Time: at, Message: msg}, fields)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	return buf.String()
}

func TestLegacyLine(t *testing.T) {
	enc := newLineEncoder(false, 4242)
	for _, tc := range []struct {
		level  zapcore.Level
		msg    string
		fields []zap.Field
		want   string
	}{
		{NoticeLevel, "Ready to accept connections tcp", nil,
			"4242:M 01 Dec 2026 02:19:16.123 * Ready to accept connections tcp\n"},
		{DebugLevel, "d", nil, "4242:M 01 Dec 2026 02:19:16.123 . d\n"},
		{VerboseLevel, "v", nil, "4242:M 01 Dec 2026 02:19:16.123 - v\n"},
		{WarningLevel, "w", nil, "4242:M 01 Dec 2026 02:19:16.123 # w\n"},
		{zapcore.ErrorLevel, "e", nil, "4242:M 01 Dec 2026 02:19:16.123 # e\n"},
		// Fields follow the message; a value that is not one plain word is quoted.
		{VerboseLevel, "protocol error",
			[]zap.Field{zap.Int64("id", 7), zap.String("addr", "127.0.0.1:5000"), zap.Error(errors.New("bad \"x\" here")),
				zap.Strings("addresses", []string{"127.0.0.1:6379", "[::1]:6379"}), zap.Duration("backoff", 5*time.Millisecond),
				zap.String("empty", ""), zap.Bool("ok", true), zap.Float64("f", 0.5)},
			`4242:M 01 Dec 2026 02:19:16.123 - protocol error id=7 addr=127.0.0.1:5000 error="bad \"x\" here" ` +
				`addresses=127.0.0.1:6379,[::1]:6379 backoff=5ms empty="" ok=true f=0.5` + "\n"},
		// The message is written as it is, as Redis writes it.
		{WarningLevel, "DEBUG LOG: a b=c", nil, "4242:M 01 Dec 2026 02:19:16.123 # DEBUG LOG: a b=c\n"},
	} {
		if got := encode(t, enc, tc.level, tc.msg, tc.fields...); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

func TestLogfmtLine(t *testing.T) {
	enc := newLineEncoder(true, 4242)
	for _, tc := range []struct {
		level  zapcore.Level
		msg    string
		fields []zap.Field
		want   string
	}{
		{NoticeLevel, "Ready to accept connections tcp", nil,
			`pid=4242 role=primary timestamp="01 Dec 2026 02:19:16.123" level=notice message="Ready to accept connections tcp"` + "\n"},
		{DebugLevel, "d", nil, `pid=4242 role=primary timestamp="01 Dec 2026 02:19:16.123" level=debug message="d"` + "\n"},
		{VerboseLevel, "v", []zap.Field{zap.Int("n", 3)},
			`pid=4242 role=primary timestamp="01 Dec 2026 02:19:16.123" level=info message="v" n=3` + "\n"},
		{zapcore.ErrorLevel, "e", nil, `pid=4242 role=primary timestamp="01 Dec 2026 02:19:16.123" level=warning message="e"` + "\n"},
		// Valkey's filter: '"' becomes '\'', CR and LF a space; a backslash is escaped.
		{WarningLevel, "say \"hi\"\r\nnext \\", nil,
			`pid=4242 role=primary timestamp="01 Dec 2026 02:19:16.123" level=warning message="say 'hi'  next \\"` + "\n"},
	} {
		if got := encode(t, enc, tc.level, tc.msg, tc.fields...); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// TestLineWith: the fields of logger.With come before the entry's, in a clone only.
func TestLineWith(t *testing.T) {
	enc := newLineEncoder(false, 1)
	with := enc.Clone()
	zap.String("conn", "a b").AddTo(with)
	zap.Namespace("ns").AddTo(with)
	if got, want := encode(t, with, NoticeLevel, "m", zap.Int("k", 1)), "1:M 01 Dec 2026 02:19:16.123 * m conn=\"a b\" ns.k=1\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := encode(t, enc, NoticeLevel, "m"), "1:M 01 Dec 2026 02:19:16.123 * m\n"; got != want {
		t.Errorf("original encoder changed: %q", got)
	}
}

func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		loglevel string
		want     zapcore.Level
	}{
		{"debug", DebugLevel}, {"verbose", zapcore.DebugLevel}, {"notice", zapcore.InfoLevel},
		{"warning", zapcore.WarnLevel}, {"nothing", NothingLevel}, {"", NoticeLevel},
	} {
		if got := Level(tc.loglevel); got != tc.want {
			t.Errorf("Level(%q) = %v, want %v", tc.loglevel, got, tc.want)
		}
	}
	if zapcore.FatalLevel >= NothingLevel {
		t.Errorf("nothing lets fatal through")
	}
}
