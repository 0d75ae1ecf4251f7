package command

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
)

// Table maps lower-case names to rows. It is built once at start-up (New, then Rename for the
// configuration's rename-command directives) and read-only afterwards.
type Table struct {
	byName map[string]*Command
	sorted []*Command // by name, for COMMAND; renamed rows keep their place
	metas  []*Meta    // the metadata of sorted, for COMMAND (rowmeta.go)
	byID   []*Command // every row, subcommands and containers included, by ID
}

// New joins the families' rows, lower-cases the names, derives the categories and panics on
// a duplicate: the table is built once at start, and a duplicate is a programming error.
func New(families ...[]*Command) *Table {
	t := &Table{byName: make(map[string]*Command)}
	for _, rows := range families {
		for _, cmd := range rows {
			cmd.finish(nil)
			if _, dup := t.byName[cmd.Name]; dup {
				panic("command: registered twice: " + cmd.Name)
			}
			t.byName[cmd.Name] = cmd
			cmd.typedName = cmd.Name
			t.sorted = append(t.sorted, cmd)
		}
	}
	sort.Slice(t.sorted, func(i, j int) bool { return t.sorted[i].Name < t.sorted[j].Name })
	for _, cmd := range t.sorted {
		t.number(cmd)
	}
	t.buildMetas()
	return t
}

// number gives cmd and its subcommands their IDs, subcommands in name order.
func (t *Table) number(cmd *Command) {
	cmd.ID = len(t.byID)
	t.byID = append(t.byID, cmd)
	names := make([]string, 0, len(cmd.subs))
	for name := range cmd.subs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.number(cmd.subs[name])
	}
}

// ByID returns every row of the table, subcommands and containers included, indexed by ID:
// top-level commands in name order, each followed by its subcommands. Rows disabled by
// rename-command stay (their counters keep their place). The slice is the table's: do not
// modify it.
func (t *Table) ByID() []*Command { return t.byID }

// All returns the commands a client can run, sorted by their own names (COMMAND's order).
// The slice is the table's: do not modify it.
func (t *Table) All() []*Command { return t.sorted }

// Count is COMMAND COUNT: the top-level commands a client can run.
func (t *Table) Count() int { return len(t.sorted) }

// ByName finds a top-level command by the name a client types (after rename-command), in any
// case, or nil.
func (t *Table) ByName(name string) *Command { return t.byName[strings.ToLower(name)] }

// ByFullName finds a command or "container|sub" by the name a client types, in any case.
func (t *Table) ByFullName(name string) *Command {
	parent, sub, isSub := strings.Cut(strings.ToLower(name), "|")
	cmd := t.byName[parent]
	if cmd == nil || !isSub {
		return cmd
	}
	return cmd.subs[sub]
}

// Rename is the rename-command directive: the command known as oldName answers to newName from
// now on, or to nothing when newName is "". As in Redis it keeps its own name in COMMAND,
// COMMAND INFO's first field, CLIENT LIST's cmd= and the statistics (Redis's cmd->fullname does
// not change); only lookups by name see the new one. Errors are Redis's start-up reasons.
func (t *Table) Rename(oldName, newName string) error {
	oldName, newName = strings.ToLower(oldName), strings.ToLower(newName)
	cmd := t.byName[oldName]
	if cmd == nil {
		return errors.New("No such command in rename-command")
	}
	if newName != "" {
		if _, taken := t.byName[newName]; taken {
			return errors.New("Target command name already exists")
		}
	}
	delete(t.byName, oldName)
	cmd.typedName = newName
	if newName != "" {
		t.byName[newName] = cmd
		return nil
	}
	t.sorted = slices.DeleteFunc(t.sorted, func(c *Command) bool { return c == cmd })
	t.buildMetas()
	return nil
}

// maxNameLen bounds the stack buffer used to fold a name: longer names exist in no table.
const maxNameLen = 32

// lookupFold finds a row by a name in any case without allocating: the name is folded into a
// stack buffer, and a map index by string(bytes) does not allocate.
func lookupFold(m map[string]*Command, name []byte) *Command {
	if len(name) > maxNameLen {
		return nil
	}
	var buf [maxNameLen]byte
	for i, ch := range name {
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		buf[i] = ch
	}
	return m[string(buf[:len(name)])]
}

// LookupAfter is Lookup for a command line that may repeat the one before it, whose row is
// last (or nil): a pipelined batch usually sends one command many times, and comparing the
// name with last's costs a few bytes' compare where the map costs a hash. Only a top-level row
// without subcommands is taken from last; any other line is looked up.
func (t *Table) LookupAfter(args querybuf.Args, last *Command) (*Command, string) {
	if last != nil && last.subs == nil && last.parent == nil && last.typedName != "" &&
		conv.EqFold(args.Arg(0), last.typedName) {
		return last, ""
	}
	return t.Lookup(args)
}

// Lookup returns the row for a command line (resolving a subcommand), or nil and the error
// Redis gives: unknown command, or unknown subcommand of a container.
func (t *Table) Lookup(args querybuf.Args) (*Command, string) {
	cmd := lookupFold(t.byName, args.Arg(0))
	if cmd == nil {
		return nil, unknownCommandError(args)
	}
	if cmd.subs == nil || args.Len() < 2 {
		return cmd, ""
	}
	sub := lookupFold(cmd.subs, args.Arg(1))
	if sub == nil {
		return nil, fmt.Sprintf("ERR unknown subcommand '%.128s'. Try %s HELP.",
			args.Arg(1), strings.ToUpper(string(args.Arg(0))))
	}
	return sub, ""
}

// unknownCommandError is Redis's text: the name and the first arguments, quoted, 128 characters
// of them at most.
func unknownCommandError(args querybuf.Args) string {
	var b strings.Builder
	for i := 1; i < args.Len() && b.Len() < 128; i++ {
		arg := args.Arg(i)
		if room := 128 - b.Len(); len(arg) > room {
			arg = arg[:room]
		}
		fmt.Fprintf(&b, "'%s' ", arg)
	}
	return fmt.Sprintf("ERR unknown command '%.128s', with args beginning with: %s", args.Arg(0), b.String())
}
