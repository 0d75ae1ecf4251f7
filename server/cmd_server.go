package server

import (
	"fmt"
	"github.com/kvserver/kvserver/command"
	"strings"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// serverCommands are the @server family (less CONFIG and INFO, which have files of their own).
func serverCommands() []*command.Command {
	return []*command.Command{
		{Name: "time", Handler: clientCommand(timeCommand)},
		{Name: "shutdown", Handler: clientCommand(shutdownCommand)},
		{Name: "command", Handler: clientCommand(commandCommand), Subcommands: []*command.Command{
			{Name: "count", Handler: clientCommand(commandCountCommand)},
			{Name: "info", Handler: clientCommand(commandInfoCommand)},
			{Name: "list", Handler: clientCommand(commandListCommand)},
			{Name: "docs", Handler: clientCommand(commandDocsCommand)},
			{Name: "getkeys", Handler: clientCommand(commandGetKeysCommand)},
			{Name: "getkeysandflags", Handler: clientCommand(commandGetKeysAndFlagsCommand)},
			{Name: "help", Handler: clientCommand(commandHelpCommand)},
		}},
		{Name: "function", Subcommands: []*command.Command{
			{Name: "flush", Handler: clientCommand(functionFlushCommand)},
		}},
		{Name: "script", Subcommands: []*command.Command{
			{Name: "flush", Handler: clientCommand(scriptFlushCommand)},
		}},
	}
}

// okCommand answers OK.
func okCommand(c *client, args querybuf.Args) { c.w.OK() }

// functionFlushCommand: FUNCTION FLUSH [ASYNC|SYNC] — there are no functions to flush.
func functionFlushCommand(c *client, args querybuf.Args) {
	c.flushScripts(args, "ERR FUNCTION FLUSH only supports SYNC|ASYNC option")
}

// scriptFlushCommand: SCRIPT FLUSH [ASYNC|SYNC] — there are no scripts to flush.
func scriptFlushCommand(c *client, args querybuf.Args) {
	c.flushScripts(args, "ERR SCRIPT FLUSH only support SYNC|ASYNC option")
}

func (c *client) flushScripts(args querybuf.Args, badOption string) {
	switch {
	case args.Len() > 3:
		c.subcommandSyntaxError(args)
	case args.Len() == 3 && !conv.EqFold(args.Arg(2), "sync") && !conv.EqFold(args.Arg(2), "async"):
		c.w.Error(badOption)
	default:
		c.w.OK()
	}
}

// subcommandSyntaxError is Redis's addReplySubcommandSyntaxError, for a subcommand a handler
// does not know or whose arguments it cannot take.
func (c *client) subcommandSyntaxError(args querybuf.Args) {
	c.w.Error(fmt.Sprintf("ERR unknown subcommand or wrong number of arguments for '%.128s'. Try %s HELP.",
		args.Arg(1), strings.ToUpper(string(args.Arg(0)))))
}

func timeCommand(c *client, args querybuf.Args) {
	now := c.srv.now()
	c.w.Array(2)
	c.w.BulkInt(now.Unix())
	c.w.BulkInt(int64(now.Nanosecond() / 1000))
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

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
