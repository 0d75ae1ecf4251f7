package logging

import (
	"sync/atomic"

	"go.uber.org/zap/zapcore"
)

// formatCore sends each entry to the core of the format in use: one core per format, all on
// the same output and level, so that CONFIG SET log-format takes effect at the next line,
// the fields of logger.With included (every core has them).
type formatCore struct {
	format *atomic.Int32 // index in cores; shared by the cores derived by With
	cores  []zapcore.Core
}

func (c *formatCore) Enabled(l zapcore.Level) bool { return c.cores[0].Enabled(l) }

func (c *formatCore) With(fields []zapcore.Field) zapcore.Core {
	cores := make([]zapcore.Core, len(c.cores))
	for i, core := range c.cores {
		cores[i] = core.With(fields)
	}
	return &formatCore{format: c.format, cores: cores}
}

func (c *formatCore) Check(ent zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(ent.Level) {
		return ce.AddCore(ent, c)
	}
	return ce
}

func (c *formatCore) Write(ent zapcore.Entry, fields []zapcore.Field) error {
	return c.cores[c.format.Load()].Write(ent, fields)
}

// Sync flushes the output (the cores share it: one Sync is enough).
func (c *formatCore) Sync() error { return c.cores[0].Sync() }
