package serverfamily

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
func (f family) commandCommand(ctx *command.Ctx) {
	if ctx.Args.Len() > 1 {
		ctx.W.Error("unknown subcommand '" + cut(string(ctx.Args.Arg(1)), 128) + "'. Try COMMAND HELP.")
		return
	}
	command.WriteCommandInfos(ctx.W, f.h.Commands().Metas())
}

// commandCountCommand: COMMAND COUNT.
func (f family) commandCountCommand(ctx *command.Ctx) {
	ctx.W.Int(int64(f.h.Commands().Count()))
}

// commandInfoCommand: COMMAND INFO [name ...] — every command, or an entry per name: a null
// for an unknown one; "a|b" names a subcommand.
func (f family) commandInfoCommand(ctx *command.Ctx) {
	t, args := f.h.Commands(), ctx.Args
	if args.Len() == 2 {
		command.WriteCommandInfos(ctx.W, t.Metas())
		return
	}
	ctx.W.Array(args.Len() - 2)
	for i := 2; i < args.Len(); i++ {
		if cmd := t.ByFullName(string(args.Arg(i))); cmd != nil {
			command.WriteCommandInfo(ctx.W, cmd.Meta)
		} else {
			command.WriteCommandInfo(ctx.W, nil)
		}
	}
}

// commandDocsCommand: COMMAND DOCS [name ...] — a map from full name to documentation for
// every command, or for the named ones that exist (unknown names are left out).
func (f family) commandDocsCommand(ctx *command.Ctx) {
	t, args := f.h.Commands(), ctx.Args
	if args.Len() == 2 {
		command.WriteCommandDocsMap(ctx.W, t.Metas())
		return
	}
	var found []*command.Meta
	for i := 2; i < args.Len(); i++ {
		if cmd := t.ByFullName(string(args.Arg(i))); cmd != nil {
			found = append(found, cmd.Meta)
		}
	}
	command.WriteCommandDocsMap(ctx.W, found)
}

// commandListCommand: COMMAND LIST [FILTERBY MODULE name|ACLCAT category|PATTERN pattern] —
// the full names of the commands and their subcommands.
func (f family) commandListCommand(ctx *command.Ctx) {
	filter, ok := command.ParseListFilter(ctx.Args, 2)
	if !ok {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	command.WriteCommandList(ctx.W, f.h.Commands().Metas(), filter)
}

// commandGetKeysCommand: COMMAND GETKEYS command [arg ...] — the keys of a full command line.
func (f family) commandGetKeysCommand(ctx *command.Ctx) {
	command.WriteCommandGetKeys(ctx.W, getKeysTarget(f.h.Commands(), ctx.Args), ctx.Args, 2, false)
}

// commandGetKeysAndFlagsCommand: COMMAND GETKEYSANDFLAGS command [arg ...] — the keys of a
// full command line, each with its key spec's flags.
func (f family) commandGetKeysAndFlagsCommand(ctx *command.Ctx) {
	command.WriteCommandGetKeys(ctx.W, getKeysTarget(f.h.Commands(), ctx.Args), ctx.Args, 2, true)
}

func commandHelpCommand(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "COMMAND", []string{
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

// cut is s cut at n bytes (Redis's %.128s).
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
