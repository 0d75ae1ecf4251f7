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
		{Name: "shutdown", Locking: command.LockNone, Handler: clientCommand(shutdownCommand)},
	}
}

// shutdownCommand: SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]. There is no replica to wait
// for, and ABORT never finds a shutdown in progress. While a script is busy only NOSAVE is
// accepted (the others answer BUSY, as Redis); Shutdown stops the script. The save (SAVE, or
// by default when save points exist) is made with every shard locked (ShutdownSave); when it
// fails the reply is Redis's error and the server goes on, unless FORCE. Success closes every
// connection without a reply; the process exits 0.
func shutdownCommand(c *client, args querybuf.Args) {
	abort, save, nosave, force, other := false, false, false, false, false
	for i := 1; i < args.Len(); i++ {
		switch a := args.Arg(i); {
		case conv.EqFold(a, "nosave"):
			nosave = true
		case conv.EqFold(a, "save"):
			save = true
		case conv.EqFold(a, "force"):
			force = true
		case conv.EqFold(a, "now"):
			other = true
		case conv.EqFold(a, "abort"):
			abort = true
		default:
			c.w.Error(replyerr.Syntax.Error())
			return
		}
	}
	// ABORT takes no other flag, and SAVE and NOSAVE exclude each other.
	if abort && (save || nosave || force || other) || save && nosave {
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	if abort {
		c.w.Error("ERR No shutdown in progress.")
		return
	}
	if !nosave && c.srv.scripting.scripts.Busy() {
		// Redis's shutdownCommand: while a script is busy only SHUTDOWN NOSAVE may end the
		// server (a save would wait for the script's locks).
		c.w.Error(c.srv.pipeline.BusyError())
		return
	}
	c.srv.log.Info("User requested shutdown...", zap.Int64("client", c.id))
	if c.srv.ShouldSaveOnShutdown(save, nosave) {
		if err := c.srv.ShutdownSave(); err != nil && !force {
			c.w.Error(errShutdownSave.Error())
			return
		}
	}
	c.closeAfterReply = true
	go c.srv.Shutdown() // stops running scripts too
}
