package server

import (
	"strings"

	commandmeta "github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/querybuf"
)

// COMMAND and its subcommands answer from Redis 7.2's metadata (package command, generated
// from a reference server's COMMAND INFO and COMMAND DOCS), for the commands this server
// implements: a container shows the subcommands it has. A command renamed by rename-command
// is found by its new name and keeps its own in the replies, as in Redis (cmd->fullname).

// commandMeta returns a row's metadata: Redis's, with a container's implemented subcommands.
// A row Redis has not (none today) gets what the row itself says.
func commandMeta(cmd *command) *commandmeta.Meta {
	m := commandmeta.LookupMeta(cmd.fullName)
	if m == nil {
		m = &commandmeta.Meta{Name: cmd.fullName, Arity: cmd.Arity, FirstKey: cmd.First, LastKey: cmd.Last,
			KeyStep: cmd.Step, ACLCategories: cmd.cats, Docs: commandmeta.Docs{Group: "generic"}}
		for _, f := range cmdFlagNames {
			if cmd.Flags&f.flag != 0 {
				m.Flags = append(m.Flags, f.name)
			}
		}
	}
	if len(cmd.Subcommands) == 0 {
		return m
	}
	subs := make([]*commandmeta.Meta, len(cmd.Subcommands))
	for i, sub := range cmd.Subcommands {
		subs[i] = commandMeta(sub)
	}
	return m.WithSubcommands(subs)
}

// metas returns the metadata of every command in the table, by name.
func (t *commandTable) metas() []*commandmeta.Meta {
	out := make([]*commandmeta.Meta, len(t.sorted))
	for i, cmd := range t.sorted {
		out[i] = commandMeta(cmd)
	}
	return out
}

// byFullName finds a command or "container|sub" in any case, by the names it answers to.
func (t *commandTable) byFullName(name string) *command {
	name = strings.ToLower(name)
	parent, sub, isSub := strings.Cut(name, "|")
	cmd := t.byName[parent]
	if cmd == nil || !isSub {
		return cmd
	}
	return cmd.subs[sub]
}

// commandCommand: COMMAND — every command's COMMAND INFO entry.
func commandCommand(c *client, args querybuf.Args) {
	if args.Len() > 1 {
		c.w.Error("unknown subcommand '" + truncate(string(args.Arg(1)), 128) + "'. Try COMMAND HELP.")
		return
	}
	commandmeta.WriteCommandInfos(&c.w, c.srv.cmds.metas())
}

// commandCountCommand: COMMAND COUNT.
func commandCountCommand(c *client, args querybuf.Args) {
	c.w.Int(int64(len(c.srv.cmds.sorted)))
}

// commandInfoCommand: COMMAND INFO [name ...] — every command, or an entry per name: a null
// for an unknown one; "a|b" names a subcommand.
func commandInfoCommand(c *client, args querybuf.Args) {
	if args.Len() == 2 {
		commandmeta.WriteCommandInfos(&c.w, c.srv.cmds.metas())
		return
	}
	c.w.Array(args.Len() - 2)
	for i := 2; i < args.Len(); i++ {
		if cmd := c.srv.cmds.byFullName(string(args.Arg(i))); cmd != nil {
			commandmeta.WriteCommandInfo(&c.w, commandMeta(cmd))
		} else {
			commandmeta.WriteCommandInfo(&c.w, nil)
		}
	}
}

// commandDocsCommand: COMMAND DOCS [name ...] — a map from full name to documentation for
// every command, or for the named ones that exist (unknown names are left out).
func commandDocsCommand(c *client, args querybuf.Args) {
	if args.Len() == 2 {
		commandmeta.WriteCommandDocsMap(&c.w, c.srv.cmds.metas())
		return
	}
	var found []*commandmeta.Meta
	for i := 2; i < args.Len(); i++ {
		if cmd := c.srv.cmds.byFullName(string(args.Arg(i))); cmd != nil {
			found = append(found, commandMeta(cmd))
		}
	}
	commandmeta.WriteCommandDocsMap(&c.w, found)
}

// commandListCommand: COMMAND LIST [FILTERBY MODULE name|ACLCAT category|PATTERN pattern] —
// the full names of the commands and their subcommands.
func commandListCommand(c *client, args querybuf.Args) {
	f, ok := commandmeta.ParseListFilter(args, 2)
	if !ok {
		c.w.Error(errSyntax)
		return
	}
	commandmeta.WriteCommandList(&c.w, c.srv.cmds.metas(), f)
}

// commandGetKeysCommand: COMMAND GETKEYS command [arg ...] — the keys of a full command line.
func commandGetKeysCommand(c *client, args querybuf.Args) {
	commandmeta.WriteCommandGetKeys(&c.w, c.srv.cmds.getKeysTarget(args), args, 2, false)
}

// commandGetKeysAndFlagsCommand: COMMAND GETKEYSANDFLAGS command [arg ...] — the keys of a
// full command line, each with its key spec's flags.
func commandGetKeysAndFlagsCommand(c *client, args querybuf.Args) {
	commandmeta.WriteCommandGetKeys(&c.w, c.srv.cmds.getKeysTarget(args), args, 2, true)
}

// getKeysTarget resolves the command line after COMMAND GETKEYS as Redis's lookupCommand: by
// the names commands answer to, a container's subcommand when there is a second argument
// (nil when it has no such subcommand).
func (t *commandTable) getKeysTarget(args querybuf.Args) *commandmeta.Meta {
	cmd := lookupFold(t.byName, args.Arg(2))
	if cmd != nil && cmd.subs != nil && args.Len() > 3 {
		cmd = lookupFold(cmd.subs, args.Arg(3))
	}
	if cmd == nil {
		return nil
	}
	return commandMeta(cmd)
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
