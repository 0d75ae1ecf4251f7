package server

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kvserver/kvserver/querybuf"
)

// cmdFlags are Redis's command flags (COMMAND INFO prints them by these names).
type cmdFlags uint32

const (
	cmdWrite cmdFlags = 1 << iota
	cmdReadOnly
	cmdDenyOOM
	cmdAdmin
	cmdPubSub
	cmdNoScript
	cmdBlocking
	cmdLoading
	cmdStale
	cmdSkipMonitor
	cmdSkipSlowlog
	cmdFast
	cmdNoAuth
	cmdMayReplicate
	cmdNoMandatoryKeys
	cmdAllowBusy
	cmdNoMulti
	cmdSentinel
	cmdProtected
)

// cmdFlagNames are the flags' names, in the order Redis's COMMAND INFO lists them.
var cmdFlagNames = []struct {
	flag cmdFlags
	name string
}{
	{cmdWrite, "write"}, {cmdReadOnly, "readonly"}, {cmdDenyOOM, "denyoom"},
	{cmdAdmin, "admin"}, {cmdPubSub, "pubsub"}, {cmdNoScript, "noscript"},
	{cmdBlocking, "blocking"}, {cmdLoading, "loading"}, {cmdStale, "stale"},
	{cmdSkipMonitor, "skip_monitor"}, {cmdSkipSlowlog, "skip_slowlog"}, {cmdFast, "fast"},
	{cmdNoAuth, "no_auth"}, {cmdMayReplicate, "may_replicate"}, {cmdSentinel, "sentinel"},
	{cmdNoMandatoryKeys, "no_mandatory_keys"}, {cmdNoMulti, "no_multi"}, {cmdAllowBusy, "allow_busy"}, {cmdProtected, "protected"},
}

// aclCats are ACL categories. A row names its family's category and any extra ones (such as
// dangerous); @read, @write, @fast, @slow, @admin and @dangerous follow from the flags as in
// Redis's setImplicitACLCategories.
type aclCats uint32

const (
	catKeyspace aclCats = 1 << iota
	catRead
	catWrite
	catSet
	catSortedSet
	catList
	catHash
	catString
	catBitmap
	catHyperLogLog
	catGeo
	catStream
	catPubSub
	catAdmin
	catFast
	catSlow
	catBlocking
	catDangerous
	catConnection
	catTransaction
	catScripting
)

var aclCatNames = []string{"keyspace", "read", "write", "set", "sortedset", "list", "hash",
	"string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
	"blocking", "dangerous", "connection", "transaction", "scripting"}

// command is one row of the command table: what Redis's commands/*.json say of a command, and
// its handler. Dispatch checks existence and arity before Proc runs, so Proc may index its
// arguments up to the arity freely.
type command struct {
	Name  string // lower case; a subcommand's bare name ("get" under "config")
	Arity int    // argument count including the name; negative: at least -Arity
	Flags cmdFlags
	// First, Last and Step locate the keys (Last -1: the last argument), as COMMAND INFO.
	First, Last, Step int
	Cats              aclCats                             // family and explicit categories
	Proc              func(c *client, args querybuf.Args) // nil for a container
	Subcommands       []*command

	fullName string // "config|get"
	cats     []string
	inline   bool // a readiness loop may run it (see runsInline)
	isDebug  bool // DEBUG: allowed by enable-debug-command only
	subs     map[string]*command
}

// commandTable maps lower-case names to rows.
type commandTable struct {
	byName map[string]*command
	sorted []*command // by name, for COMMAND
}

// newCommandTable joins the families' rows, lower-cases the names, derives the categories and
// panics on a duplicate: the table is built once at start, and a duplicate is a programming error.
func newCommandTable(families ...[]*command) *commandTable {
	t := &commandTable{byName: make(map[string]*command)}
	for _, rows := range families {
		for _, cmd := range rows {
			cmd.finish(nil)
			if _, dup := t.byName[cmd.Name]; dup {
				panic("server: command registered twice: " + cmd.Name)
			}
			t.byName[cmd.Name] = cmd
			t.sorted = append(t.sorted, cmd)
		}
	}
	sort.Slice(t.sorted, func(i, j int) bool { return t.sorted[i].Name < t.sorted[j].Name })
	return t
}

// rename is the rename-command directive: the command known as oldName answers to newName
// from now on, or to nothing when newName is "". As in Redis it keeps its own name in COMMAND,
// COMMAND INFO's first field, CLIENT LIST's cmd= and the statistics (Redis's cmd->fullname does
// not change); only lookups by name see the new one. Errors are Redis's start-up reasons.
func (t *commandTable) rename(oldName, newName string) error {
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
	if newName != "" {
		t.byName[newName] = cmd
		return nil
	}
	t.sorted = slices.DeleteFunc(t.sorted, func(c *command) bool { return c == cmd })
	return nil
}

func (cmd *command) finish(parent *command) {
	cmd.Name = strings.ToLower(cmd.Name)
	cmd.fullName = cmd.Name
	if parent != nil {
		cmd.fullName = parent.Name + "|" + cmd.Name
	}
	cats := cmd.Cats
	if cmd.Flags&cmdWrite != 0 {
		cats |= catWrite
	}
	if cmd.Flags&cmdReadOnly != 0 && cats&catScripting == 0 {
		cats |= catRead
	}
	if cmd.Flags&cmdAdmin != 0 {
		cats |= catAdmin | catDangerous
	}
	if cmd.Flags&cmdPubSub != 0 {
		cats |= catPubSub
	}
	if cmd.Flags&cmdFast != 0 {
		cats |= catFast
	}
	if cmd.Flags&cmdBlocking != 0 {
		cats |= catBlocking
	}
	if cats&catFast == 0 {
		cats |= catSlow
	}
	cmd.inline = runsInline(cmd.Flags, cats)
	cmd.isDebug = cmd.fullName == "debug"
	cmd.cats = cmd.cats[:0]
	for i, name := range aclCatNames {
		if cats&(1<<i) != 0 {
			cmd.cats = append(cmd.cats, "@"+name)
		}
	}
	if len(cmd.Subcommands) > 0 {
		cmd.subs = make(map[string]*command)
		for _, sub := range cmd.Subcommands {
			sub.finish(cmd)
			if _, dup := cmd.subs[sub.Name]; dup {
				panic("server: subcommand registered twice: " + sub.fullName)
			}
			cmd.subs[sub.Name] = sub
		}
	}
}

// runsInline says whether a readiness loop may run a command itself, between reading and
// writing its client's socket, rather than hand the client to a goroutine: a fast command, or a
// string command (whose cost is bounded by its own arguments, as a SET's or an MGET's). What
// may take long — admin commands, blocking ones, whole-keyspace ones such as KEYS or FLUSHALL —
// runs on a goroutine, so that it does not hold up the other clients of the loop.
func runsInline(flags cmdFlags, cats aclCats) bool {
	if flags&(cmdAdmin|cmdBlocking) != 0 {
		return false
	}
	return flags&cmdFast != 0 || cats&catString != 0
}

// maxCommandNameLen bounds the stack buffer used to fold a name: longer names exist in no table.
const maxCommandNameLen = 32

// lookupFold finds a row by a name in any case without allocating: the name is folded into a
// stack buffer, and a map index by string(bytes) does not allocate.
func lookupFold(m map[string]*command, name []byte) *command {
	if len(name) > maxCommandNameLen {
		return nil
	}
	var buf [maxCommandNameLen]byte
	for i, ch := range name {
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		buf[i] = ch
	}
	return m[string(buf[:len(name)])]
}

// lookup returns the row for a command line (resolving a subcommand), or nil and the error
// Redis gives: unknown command, or unknown subcommand of a container.
func (t *commandTable) lookup(args querybuf.Args) (*command, string) {
	cmd := lookupFold(t.byName, args.Arg(0))
	if cmd == nil {
		return nil, unknownCommandError(args)
	}
	if cmd.subs == nil || args.Len() < 2 {
		return cmd, ""
	}
	sub := lookupFold(cmd.subs, args.Arg(1))
	if sub == nil {
		return nil, fmt.Sprintf("unknown subcommand '%.128s'. Try %s HELP.",
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
	return fmt.Sprintf("unknown command '%.128s', with args beginning with: %s", args.Arg(0), b.String())
}

// arityOK reports whether n arguments suit cmd.
func (cmd *command) arityOK(n int) bool {
	if cmd.Arity >= 0 {
		return n == cmd.Arity
	}
	return n >= -cmd.Arity
}
