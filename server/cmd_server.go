package server

import (
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/querybuf"
)

// serverCommands are the @server family (less CONFIG and INFO, which have files of their own).
func serverCommands() []*command {
	return []*command{
		{Name: "time", Arity: 1, Flags: cmdLoading | cmdStale | cmdFast, Proc: timeCommand},
		{Name: "shutdown", Arity: -1, Flags: cmdAdmin | cmdNoScript | cmdLoading | cmdStale | cmdNoMulti | cmdSentinel | cmdAllowBusy, Proc: shutdownCommand},
		{Name: "command", Arity: -1, Flags: cmdLoading | cmdStale | cmdSentinel, Cats: catConnection, Proc: commandCommand, Subcommands: []*command{
			{Name: "count", Arity: 2, Flags: cmdLoading | cmdStale | cmdSentinel, Cats: catConnection, Proc: commandCountCommand},
			{Name: "info", Arity: -2, Flags: cmdLoading | cmdStale | cmdSentinel, Cats: catConnection, Proc: commandInfoCommand},
			{Name: "list", Arity: -2, Flags: cmdLoading | cmdStale | cmdSentinel, Cats: catConnection, Proc: commandListCommand},
			{Name: "docs", Arity: -2, Flags: cmdLoading | cmdStale | cmdSentinel, Cats: catConnection, Proc: commandDocsCommand},
			{Name: "getkeys", Arity: -4, Flags: cmdLoading | cmdStale | cmdSentinel, Cats: catConnection, Proc: commandGetKeysCommand},
			{Name: "help", Arity: 2, Flags: cmdLoading | cmdStale | cmdSentinel, Cats: catConnection, Proc: commandHelpCommand},
		}},
		{Name: "function", Arity: -2, Cats: catScripting, Subcommands: []*command{
			{Name: "flush", Arity: -2, Flags: cmdNoScript | cmdWrite, Cats: catScripting, Proc: functionFlushCommand},
		}},
		{Name: "script", Arity: -2, Cats: catScripting, Subcommands: []*command{
			{Name: "flush", Arity: -2, Flags: cmdNoScript, Cats: catScripting, Proc: scriptFlushCommand},
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
	case args.Len() == 3 && !eqFold(args.Arg(2), "sync") && !eqFold(args.Arg(2), "async"):
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
	now := time.Now()
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
		case eqFold(a, "nosave"):
			nosave = true
		case eqFold(a, "save"):
			save = true
		case eqFold(a, "now"), eqFold(a, "force"):
			other = true
		case eqFold(a, "abort"):
			abort = true
		default:
			c.w.Error(errSyntax)
			return
		}
	}
	// ABORT takes no other flag, and SAVE and NOSAVE exclude each other.
	if abort && (save || nosave || other) || save && nosave {
		c.w.Error(errSyntax)
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

// commandCommand: COMMAND with no subcommand lists every command's info.
func commandCommand(c *client, args querybuf.Args) {
	if args.Len() > 1 {
		c.w.Error("unknown subcommand '" + truncate(string(args.Arg(1)), 128) + "'. Try COMMAND HELP.")
		return
	}
	c.w.Array(len(c.srv.cmds.sorted))
	for _, cmd := range c.srv.cmds.sorted {
		c.writeCommandInfo(cmd)
	}
}

func commandCountCommand(c *client, args querybuf.Args) {
	c.w.Int(int64(len(c.srv.cmds.sorted)))
}

// commandInfoCommand: COMMAND INFO [name ...] — a null for an unknown name; "a|b" names a
// subcommand.
func commandInfoCommand(c *client, args querybuf.Args) {
	if args.Len() == 2 {
		commandCommand(c, querybuf.Args{})
		return
	}
	c.w.Array(args.Len() - 2)
	for i := 2; i < args.Len(); i++ {
		if cmd := c.srv.cmds.byFullName(string(args.Arg(i))); cmd != nil {
			c.writeCommandInfo(cmd)
		} else {
			c.w.NullArray()
		}
	}
}

// byFullName finds a command or "container|sub" in any case.
func (t *commandTable) byFullName(name string) *command {
	name = strings.ToLower(name)
	parent, sub, isSub := strings.Cut(name, "|")
	cmd := t.byName[parent]
	if cmd == nil || !isSub {
		return cmd
	}
	return cmd.subs[sub]
}

// writeCommandInfo writes one COMMAND INFO entry in Redis 7's ten-field shape. Tips and key
// specs are empty: clients that use them (cluster routing) do not apply to a single node.
func (c *client) writeCommandInfo(cmd *command) {
	c.w.Array(10)
	c.w.BulkString(cmd.fullName)
	c.w.Int(int64(cmd.Arity))
	n := 0
	for _, f := range cmdFlagNames {
		if cmd.Flags&f.flag != 0 {
			n++
		}
	}
	c.w.Set(n)
	for _, f := range cmdFlagNames {
		if cmd.Flags&f.flag != 0 {
			c.w.Simple(f.name)
		}
	}
	c.w.Int(int64(cmd.First))
	c.w.Int(int64(cmd.Last))
	c.w.Int(int64(cmd.Step))
	c.w.Set(len(cmd.cats))
	for _, cat := range cmd.cats {
		c.w.Simple(cat)
	}
	c.w.Array(0)
	c.w.Array(0)
	c.w.Array(len(cmd.Subcommands))
	for _, sub := range cmd.Subcommands {
		c.writeCommandInfo(sub)
	}
}

// commandListCommand: COMMAND LIST — every name, subcommands as "container|sub". FILTERBY is
// not supported yet.
func commandListCommand(c *client, args querybuf.Args) {
	if args.Len() > 2 {
		c.w.Error(errSyntax)
		return
	}
	var names []string
	for _, cmd := range c.srv.cmds.sorted {
		names = append(names, cmd.fullName)
		for _, sub := range cmd.Subcommands {
			names = append(names, sub.fullName)
		}
	}
	c.w.Array(len(names))
	for _, n := range names {
		c.w.BulkString(n)
	}
}

func commandHelpCommand(c *client, args querybuf.Args) {
	c.helpReply("COMMAND", []string{
		"(no subcommand)", "    Return details about all Redis commands.",
		"COUNT", "    Return the total number of commands in this Redis server.",
		"LIST", "    Return a list of all commands in this Redis server.",
		"INFO [<command-name> ...]", "    Return details about multiple Redis commands.",
		"    If no command names are given, documentation details for all",
		"    commands are returned.",
		"DOCS [<command-name> ...]", "    Return documentation details about multiple Redis commands.",
		"    If no command names are given, documentation details for all",
		"    commands are returned.",
		"GETKEYS <full-command>", "    Return the keys from a full Redis command.",
	})
}
