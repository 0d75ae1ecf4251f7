package logging

import (
	"fmt"
	"os"
	"sync/atomic"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// formats are log-format's values, in the order of formatCore's cores.
var formats = []string{"legacy", "logfmt", "json"}

// Options are the directives the logger is made from.
type Options struct {
	Level  string // loglevel: debug, verbose, notice, warning or nothing
	File   string // logfile: appended to; "" is standard output
	Format string // log-format: legacy, logfmt or json
	// Clock, when not nil, gives the time of each entry (tests); Pid, when not 0, the pid
	// written on each line.
	Clock zapcore.Clock
	Pid   int
}

// Logger is the process logger and the two settings CONFIG SET changes in it.
type Logger struct {
	*zap.Logger
	level  zap.AtomicLevel
	format atomic.Int32
	file   *os.File // nil for standard output
}

// New opens the log file (O_APPEND, created if needed) and builds the logger. Its error is
// Redis's words: "Can't open the log file: <strerror>".
func New(o Options) (*Logger, error) {
	l := &Logger{level: zap.NewAtomicLevelAt(Level(o.Level))}
	if err := l.SetFormat(o.Format); err != nil {
		return nil, err
	}
	out := zapcore.Lock(os.Stdout)
	if o.File != "" {
		f, err := os.OpenFile(o.File, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
		if err != nil {
			return nil, fmt.Errorf("Can't open the log file: %s", Strerror(err))
		}
		l.file = f
		out = zapcore.Lock(f)
	}
	pid := o.Pid
	if pid == 0 {
		pid = os.Getpid()
	}
	core := &formatCore{format: &l.format, cores: []zapcore.Core{
		zapcore.NewCore(newLineEncoder(false, pid), out, l.level),
		zapcore.NewCore(newLineEncoder(true, pid), out, l.level),
		zapcore.NewCore(zapcore.NewJSONEncoder(jsonConfig()), out, l.level),
	}}
	// No AddStacktrace: no level writes a stack trace (zap's production config adds one to
	// errors). The caller is written by json only.
	opts := []zap.Option{zap.AddCaller(), zap.ErrorOutput(zapcore.Lock(os.Stderr))}
	if o.Clock != nil {
		opts = append(opts, zap.WithClock(o.Clock))
	}
	l.Logger = zap.New(core, opts...)
	return l, nil
}

// jsonConfig is zap's production encoder configuration without the stack trace, with ISO
// 8601 times.
func jsonConfig() zapcore.EncoderConfig {
	ec := zap.NewProductionEncoderConfig()
	ec.StacktraceKey = ""
	ec.EncodeTime = zapcore.ISO8601TimeEncoder
	ec.EncodeLevel = jsonLevel
	return ec
}

// AtomicLevel is the logger's level, for CONFIG SET loglevel.
func (l *Logger) AtomicLevel() *zap.AtomicLevel { return &l.level }

// SetLevel applies a loglevel.
func (l *Logger) SetLevel(loglevel string) { l.level.SetLevel(Level(loglevel)) }

// SetFormat applies a log-format: the next line is written in it.
func (l *Logger) SetFormat(format string) error {
	for i, f := range formats {
		if f == format {
			l.format.Store(int32(i))
			return nil
		}
	}
	return fmt.Errorf("unknown log-format %q", format)
}

// Close flushes the logger and closes the log file.
func (l *Logger) Close() error {
	_ = l.Sync()
	if l.file != nil {
		return l.file.Close()
	}
	return nil
}
