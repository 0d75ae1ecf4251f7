package server

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// COMMAND and its subcommands answer from Redis 7.2's metadata (package command, generated
// from a reference server's COMMAND INFO and COMMAND DOCS), for the commands this server
// implements: a container shows the subcommands it has. A command renamed by rename-command
// is found by its new name and keeps its own in the replies, as in Redis (cmd->fullname).

// commandCommand: COMMAND — every command's COMMAND INFO entry.
func commandCommand(c *client, args querybuf.Args) {
	if args.Len() > 1 {
		c.w.Error("unknown subcommand '" + truncate(string(args.Arg(1)), 128) + "'. Try COMMAND HELP.")
		return
	}
	command.WriteCommandInfos(&c.w, c.srv.cmds.Metas())
}

// commandCountCommand: COMMAND COUNT.
func commandCountCommand(c *client, args querybuf.Args) {
	c.w.Int(int64(c.srv.cmds.Count()))
}

// commandInfoCommand: COMMAND INFO [name ...] — every command, or an entry per name: a null
// for an unknown one; "a|b" names a subcommand.
func commandInfoCommand(c *client, args querybuf.Args) {
	if args.Len() == 2 {
		command.WriteCommandInfos(&c.w, c.srv.cmds.Metas())
		return
	}
	c.w.Array(args.Len() - 2)
	for i := 2; i < args.Len(); i++ {
		if cmd := c.srv.cmds.ByFullName(string(args.Arg(i))); cmd != nil {
			command.WriteCommandInfo(&c.w, cmd.Meta)
		} else {
			command.WriteCommandInfo(&c.w, nil)
		}
	}
}

// commandDocsCommand: COMMAND DOCS [name ...] — a map from full name to documentation for
// every command, or for the named ones that exist (unknown names are left out).
func commandDocsCommand(c *client, args querybuf.Args) {
	if args.Len() == 2 {
		command.WriteCommandDocsMap(&c.w, c.srv.cmds.Metas())
		return
	}
	var found []*command.Meta
	for i := 2; i < args.Len(); i++ {
		if cmd := c.srv.cmds.ByFullName(string(args.Arg(i))); cmd != nil {
			found = append(found, cmd.Meta)
		}
	}
	command.WriteCommandDocsMap(&c.w, found)
}

// commandListCommand: COMMAND LIST [FILTERBY MODULE name|ACLCAT category|PATTERN pattern] —
// the full names of the commands and their subcommands.
func commandListCommand(c *client, args querybuf.Args) {
	f, ok := command.ParseListFilter(args, 2)
	if !ok {
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	command.WriteCommandList(&c.w, c.srv.cmds.Metas(), f)
}

// commandGetKeysCommand: COMMAND GETKEYS command [arg ...] — the keys of a full command line.
func commandGetKeysCommand(c *client, args querybuf.Args) {
	command.WriteCommandGetKeys(&c.w, getKeysTarget(c.srv.cmds, args), args, 2, false)
}

// commandGetKeysAndFlagsCommand: COMMAND GETKEYSANDFLAGS command [arg ...] — the keys of a
// full command line, each with its key spec's flags.
func commandGetKeysAndFlagsCommand(c *client, args querybuf.Args) {
	command.WriteCommandGetKeys(&c.w, getKeysTarget(c.srv.cmds, args), args, 2, true)
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
		"GETKEYSANDFLAGS <full-command>", "    Return the keys and the access flags from a full Redis command.",
	})
}

// getKeysTarget is the metadata of the command line after COMMAND GETKEYS, resolved as Redis's
// lookupCommand does (nil when no command answers to it).
func getKeysTarget(t *command.Table, args querybuf.Args) *command.Meta {
	if cmd := t.Resolve(args, 2); cmd != nil {
		return cmd.Meta
	}
	return nil
}
