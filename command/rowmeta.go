package command

import "github.com/kvserver/kvserver/querybuf"

// rowMeta returns the metadata COMMAND shows for a row: Redis 7.2's, with a container's
// implemented subcommands only. A row Redis has not (the test-only commands) gets what the row
// itself says.
func rowMeta(cmd *Command) *Meta {
	m := LookupMeta(cmd.FullName)
	if m == nil {
		m = &Meta{Name: cmd.FullName, Arity: cmd.Arity, FirstKey: cmd.First, LastKey: cmd.Last,
			KeyStep: cmd.Step, ACLCategories: cmd.CatNames, Docs: Docs{Group: "generic"}}
		for _, f := range FlagNames {
			if cmd.Flags&f.Flag != 0 {
				m.Flags = append(m.Flags, f.Name)
			}
		}
	}
	if len(cmd.Subcommands) == 0 {
		return m
	}
	subs := make([]*Meta, len(cmd.Subcommands))
	for i, sub := range cmd.Subcommands {
		sub.Meta = rowMeta(sub)
		subs[i] = sub.Meta
	}
	return m.WithSubcommands(subs)
}

// Metas returns the metadata of every command a client can run, by name (COMMAND, COMMAND
// INFO, DOCS, LIST). Built once, and again after a rename; do not modify it.
func (t *Table) Metas() []*Meta { return t.metas }

// buildMetas fills t.metas and each row's Meta.
func (t *Table) buildMetas() {
	t.metas = t.metas[:0]
	for _, cmd := range t.sorted {
		if cmd.Meta == nil {
			cmd.Meta = rowMeta(cmd)
		}
		t.metas = append(t.metas, cmd.Meta)
	}
}

// Resolve finds the command that args[i] (and args[i+1] for a container's subcommand) names,
// by the names commands answer to, or nil: Redis's lookupCommand for COMMAND GETKEYS.
func (t *Table) Resolve(args querybuf.Args, i int) *Command {
	cmd := lookupFold(t.byName, args.Arg(i))
	if cmd != nil && cmd.subs != nil && args.Len() > i+1 {
		cmd = lookupFold(cmd.subs, args.Arg(i+1))
	}
	return cmd
}
