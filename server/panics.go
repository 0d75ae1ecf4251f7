package server

import (
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/kvserver/kvserver/command"
)

// logCommandPanic is the pipeline's OnPanic: a handler panicked, the pipeline recovered it,
// released its locks, answered the client and (for a write) poisoned the shards it held. The
// server logs it with the stack, rate-limited as every message a client can cause. INFO counts
// the panics (command_panics) and the poisoned shards (poisoned_shards).
func (s *Server) logCommandPanic(ctx *command.Ctx, r any, stack []byte) {
	var c *client
	if cc, ok := ctx.Conn.(*client); ok {
		c = cc
	}
	s.logLimited(logKindCommandPanic, zapcore.WarnLevel, "panic in a command handler, recovered", c,
		zap.String("command", ctx.Cmd.FullName), zap.Any("panic", r), zap.Bool("write", ctx.Cmd.Flags&command.Write != 0),
		zap.ByteString("stack", stack))
}
