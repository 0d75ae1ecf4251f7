package serverfamily

import (
	"github.com/kvserver/kvserver/command"
)

// timeCommand: TIME — the server's clock as seconds and microseconds.
func (f family) timeCommand(ctx *command.Ctx) {
	now := f.h.Now()
	ctx.W.Array(2)
	ctx.W.BulkInt(now.Unix())
	ctx.W.BulkInt(int64(now.Nanosecond() / 1000))
}
