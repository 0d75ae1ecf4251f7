package server

import (
	"github.com/kvserver/kvserver/querybuf"
)

// cmdDoc is a command's COMMAND DOCS entry: Redis's documentation of it (from its
// src/commands/*.json), kept in commandDocs by full name.
type cmdDoc struct {
	Summary, Since, Group, Complexity string
	DocFlags                          []string // "deprecated", "syscmd"
	DeprecatedSince, ReplacedBy       string
	History                           [][2]string // version, what changed
	Args                              []cmdArg
}

// cmdArg is one argument of a command's documentation.
type cmdArg struct {
	Name, Type      string // type: string, integer, double, key, pattern, unix-time, pure-token, oneof, block
	KeySpec         int    // key_spec_index + 1; 0 when the argument is not a key
	Token           string
	Summary, Since  string
	DeprecatedSince string
	Flags           argFlags
	Display         string // display_text when it is not Name
	Args            []cmdArg
}

// argFlags are an argument's flags, in COMMAND DOCS order.
type argFlags uint8

const (
	argOptional argFlags = 1 << iota
	argMultiple
	argMultipleToken
)

var argFlagNames = [...]string{"optional", "multiple", "multiple_token"}

// commandDocsCommand: COMMAND DOCS [command-name ...] — a map from full name to documentation
// for every command, or for the named ones that exist (unknown names are left out). The shape
// is Redis 7.2's addReplyCommandDocs.
func commandDocsCommand(c *client, args querybuf.Args) {
	if args.Len() == 2 {
		c.w.Map(len(c.srv.cmds.sorted))
		for _, cmd := range c.srv.cmds.sorted {
			c.w.BulkString(cmd.fullName)
			c.writeCommandDocs(cmd)
		}
		return
	}
	var found []*command
	for i := 2; i < args.Len(); i++ {
		if cmd := c.srv.cmds.byFullName(string(args.Arg(i))); cmd != nil {
			found = append(found, cmd)
		}
	}
	c.w.Map(len(found))
	for _, cmd := range found {
		c.w.BulkString(cmd.fullName)
		c.writeCommandDocs(cmd)
	}
}

// writeCommandDocs writes one command's documentation map. A command Redis does not have gets
// its group only.
func (c *client) writeCommandDocs(cmd *command) {
	d := commandDocs[cmd.fullName]
	if d == nil {
		d = &cmdDoc{Group: "generic"}
	}
	n := 1 // group
	for _, s := range []string{d.Summary, d.Since, d.Complexity, d.DeprecatedSince, d.ReplacedBy} {
		if s != "" {
			n++
		}
	}
	for _, present := range []bool{len(d.DocFlags) > 0, len(d.History) > 0, len(d.Args) > 0, len(cmd.Subcommands) > 0} {
		if present {
			n++
		}
	}
	c.w.Map(n)
	c.docField("summary", d.Summary)
	c.docField("since", d.Since)
	c.docField("group", d.Group)
	c.docField("complexity", d.Complexity)
	if len(d.DocFlags) > 0 {
		c.w.BulkString("doc_flags")
		c.w.Set(len(d.DocFlags))
		for _, f := range d.DocFlags {
			c.w.Simple(f)
		}
	}
	c.docField("deprecated_since", d.DeprecatedSince)
	c.docField("replaced_by", d.ReplacedBy)
	if len(d.History) > 0 {
		c.w.BulkString("history")
		c.w.Array(len(d.History))
		for _, h := range d.History {
			c.w.Array(2)
			c.w.BulkString(h[0])
			c.w.BulkString(h[1])
		}
	}
	if len(d.Args) > 0 {
		c.w.BulkString("arguments")
		c.writeDocArgs(d.Args)
	}
	if len(cmd.Subcommands) > 0 {
		c.w.BulkString("subcommands")
		c.w.Map(len(cmd.Subcommands))
		for _, sub := range cmd.Subcommands {
			c.w.BulkString(sub.fullName)
			c.writeCommandDocs(sub)
		}
	}
}

func (c *client) docField(name, value string) {
	if value != "" {
		c.w.BulkString(name)
		c.w.BulkString(value)
	}
}

// writeDocArgs is addReplyCommandArgList: an array of maps. An argument that is not a oneof
// or a block carries its display_text, as in Redis 7.2.
func (c *client) writeDocArgs(args []cmdArg) {
	c.w.Array(len(args))
	for i := range args {
		a := &args[i]
		container := a.Type == "oneof" || a.Type == "block"
		n := 2
		for _, present := range []bool{!container, a.KeySpec > 0, a.Token != "", a.Summary != "", a.Since != "",
			a.DeprecatedSince != "", a.Flags != 0, container} {
			if present {
				n++
			}
		}
		c.w.Map(n)
		c.docField("name", a.Name)
		c.docField("type", a.Type)
		if !container {
			display := a.Display
			if display == "" {
				display = a.Name
			}
			c.docField("display_text", display)
		}
		if a.KeySpec > 0 {
			c.w.BulkString("key_spec_index")
			c.w.Int(int64(a.KeySpec - 1))
		}
		c.docField("token", a.Token)
		c.docField("summary", a.Summary)
		c.docField("since", a.Since)
		c.docField("deprecated_since", a.DeprecatedSince)
		if a.Flags != 0 {
			c.w.BulkString("flags")
			k := 0
			for j := range argFlagNames {
				if a.Flags&(1<<j) != 0 {
					k++
				}
			}
			c.w.Set(k)
			for j, name := range argFlagNames {
				if a.Flags&(1<<j) != 0 {
					c.w.Simple(name)
				}
			}
		}
		if container {
			c.w.BulkString("arguments")
			c.writeDocArgs(a.Args)
		}
	}
}

// commandGetKeysCommand: COMMAND GETKEYS command [arg ...] — the keys of a full command line,
// from its row's key positions (getKeysSubcommandImpl).
func commandGetKeysCommand(c *client, args querybuf.Args) {
	argv := make([][]byte, args.Len()-2)
	for i := range argv {
		argv[i] = args.Arg(i + 2)
	}
	cmd := lookupFold(c.srv.cmds.byName, argv[0])
	if cmd != nil && cmd.subs != nil && len(argv) > 1 {
		cmd = lookupFold(cmd.subs, argv[1])
	}
	switch {
	case cmd == nil:
		c.w.Error("ERR Invalid command specified")
		return
	case cmd.First == 0:
		c.w.Error("ERR The command has no key arguments")
		return
	case !cmd.arityOK(len(argv)):
		c.w.Error("ERR Invalid number of arguments specified for command")
		return
	}
	keys := commandKeys(cmd, argv)
	if len(keys) == 0 {
		if cmd.Flags&cmdNoMandatoryKeys != 0 {
			c.w.Array(0)
		} else {
			c.w.Error("ERR Invalid arguments specified for command")
		}
		return
	}
	c.w.Array(len(keys))
	for _, k := range keys {
		c.w.Bulk(k)
	}
}

// commandKeys returns the keys of argv by the row's first, last and step: a negative last
// counts from the end, and positions past the end are skipped, as getKeysUsingKeySpecs skips
// them for commands of variable arity.
func commandKeys(cmd *command, argv [][]byte) [][]byte {
	last := cmd.Last
	if last < 0 {
		last += len(argv)
	}
	step := max(cmd.Step, 1)
	var keys [][]byte
	for i := cmd.First; i <= last && i < len(argv); i += step {
		keys = append(keys, argv[i])
	}
	return keys
}
