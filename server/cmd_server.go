package server

import (
	"github.com/kvserver/kvserver/command"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// serverCommands is SHUTDOWN: the server's own life. The rest of the @server family is in
// family/serverfamily, INFO in its file, DEBUG in its.
func serverCommands() []*command.Command {
	return []*command.Command{
		{Name: "shutdown", Handler: clientCommand(shutdownCommand)},
	}
}

// shutdownCommand: SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]. There is no replica to wait
// for, and ABORT never finds a shutdown in progress. SAVE asks for a snapshot that kvserver
// cannot write yet: it fails as Redis's SHUTDOWN does when its save fails (the error, a log
// line, the server goes on) rather than exit as if the data were saved. Success closes every
// connection without a reply; the process exits 0.
func shutdownCommand(c *client, args querybuf.Args) {
	abort, save, nosave, other := false, false, false, false
	for i := 1; i < args.Len(); i++ {
		switch a := args.Arg(i); {
		case conv.EqFold(a, "nosave"):
			nosave = true
		case conv.EqFold(a, "save"):
			save = true
		case conv.EqFold(a, "now"), conv.EqFold(a, "force"):
			other = true
		case conv.EqFold(a, "abort"):
			abort = true
		default:
			c.w.Error(replyerr.Syntax.Error())
			return
		}
	}
	// ABORT takes no other flag, and SAVE and NOSAVE exclude each other.
	if abort && (save || nosave || other) || save && nosave {
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	if abort {
		c.w.Error("ERR No shutdown in progress.")
		return
	}
	if save {
		c.srv.log.Warn("SHUTDOWN SAVE refused: kvserver has no persistence yet, so nothing can be saved", zap.Int64("client", c.id))
		c.w.Error("ERR Errors trying to SHUTDOWN. Check logs.")
		return
	}
	c.srv.log.Info("User requested shutdown...", zap.Int64("client", c.id))
	c.closeAfterReply = true
	go c.srv.Shutdown()
}
