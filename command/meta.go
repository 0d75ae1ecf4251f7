package command

import (
	_ "embed"
	"strings"
	"sync"
)

// Meta is what Redis 7.2 says of one command through COMMAND INFO and COMMAND DOCS: the data
// of its src/commands/*.json as the server renders it. Metas are generated from a reference
// server by scripts/gencommandmeta (see redis72.json) and never typed by hand; they are shared
// and read-only.
type Meta struct {
	// Name is the full name in lower case, as COMMAND INFO's first field: "get", "config|get".
	Name string
	// Arity counts the arguments including the name; negative: at least -Arity.
	Arity int
	// Flags are COMMAND INFO's flags ("write", "denyoom", "movablekeys"…), in Redis's order.
	// Redis hides some flags from COMMAND INFO (may_replicate, sentinel, only_sentinel,
	// protected, touches_arbitrary_keys), so they are not here.
	Flags []string
	// FirstKey, LastKey and KeyStep are COMMAND INFO's legacy key range (LastKey -1: the last
	// argument); 0, 0, 0 when the first key spec is not a plain range.
	FirstKey, LastKey, KeyStep int
	// ACLCategories are the categories as Redis lists them: "@write", "@string", "@slow".
	ACLCategories []string
	// Tips are the command tips ("nondeterministic_output", "request_policy:all_shards").
	Tips []string
	// KeySpecs locate the keys in a command line (see keyspec.go).
	KeySpecs []KeySpec
	// Subcommands of a container, by name.
	Subcommands []*Meta
	// Docs is the COMMAND DOCS entry.
	Docs Docs

	noMandatoryKeys bool // Flags has "no_mandatory_keys" (COMMAND GETKEYS answers [] then)
	keyFunc         keyFunc
}

// Docs is a command's COMMAND DOCS entry, less its subcommands (Meta.Subcommands).
type Docs struct {
	Summary, Since, Group, Complexity string
	// DocFlags are "deprecated" and "syscmd".
	DocFlags        []string
	DeprecatedSince string
	ReplacedBy      string
	History         []HistoryEntry
	Arguments       []Arg
}

// HistoryEntry is one line of a command's history: the version and what changed.
type HistoryEntry struct {
	Version, Change string
}

// Arg is one argument of a command's documentation (Redis's redisCommandArg).
type Arg struct {
	Name string
	// Type is one of string, integer, double, key, pattern, unix-time, pure-token, oneof, block.
	Type string
	// DisplayText is shown instead of Name by Redis 7.2 ("display" in the JSON); "" means Name.
	DisplayText string
	// KeySpecIndex is the key spec the argument is a key of; -1 when it is not a key.
	KeySpecIndex    int
	Token           string
	Summary         string
	Since           string
	DeprecatedSince string
	// Flags are "optional", "multiple" and "multiple_token", in that order.
	Flags []string
	// Arguments of a oneof or a block.
	Arguments []Arg
}

// IsContainer reports whether the argument holds others (a oneof or a block): Redis gives
// those no display_text.
func (a *Arg) IsContainer() bool { return a.Type == "oneof" || a.Type == "block" }

// HasFlag reports whether COMMAND INFO lists the flag (Redis's name, lower case).
func (m *Meta) HasFlag(name string) bool {
	for _, f := range m.Flags {
		if f == name {
			return true
		}
	}
	return false
}

// InCategory reports whether the command is in an ACL category, named without its @ in any
// case ("read", "STRING"), as COMMAND LIST FILTERBY ACLCAT takes it.
func (m *Meta) InCategory(cat string) bool {
	for _, c := range m.ACLCategories {
		if strings.EqualFold(c[1:], cat) {
			return true
		}
	}
	return false
}

// Sub returns the subcommand with a bare name ("get" of "config|get") in lower case, or nil.
func (m *Meta) Sub(name string) *Meta {
	for _, s := range m.Subcommands {
		if s.Name[len(m.Name)+1:] == name {
			return s
		}
	}
	return nil
}

// redis72JSON is the generated metadata: see metafile.go for its format.
//
//go:embed redis72.json
var redis72JSON []byte

// metaTable is every command of Redis 7.2 by full name, parsed from redis72JSON once, on the
// first call that needs it (a few milliseconds; nothing at start-up when unused).
var metaTable = sync.OnceValue(func() *metaIndex {
	all, err := DecodeMetaFile(redis72JSON)
	if err != nil {
		panic("command: the embedded redis72.json is broken: " + err.Error())
	}
	idx := &metaIndex{byName: make(map[string]*Meta), top: all}
	var add func(m *Meta)
	add = func(m *Meta) {
		m.noMandatoryKeys = m.HasFlag("no_mandatory_keys")
		m.keyFunc = keyFuncs[m.Name]
		idx.byName[m.Name] = m
		for _, s := range m.Subcommands {
			add(s)
		}
	}
	for _, m := range all {
		add(m)
	}
	return idx
})

type metaIndex struct {
	byName map[string]*Meta
	top    []*Meta // the commands (not subcommands), by name
}

// LookupMeta returns Redis 7.2's metadata of a command by full name ("get", "CONFIG|GET"), in
// any case; nil when Redis 7.2 has no such command. (Go allows no function named Meta beside
// the type.)
func LookupMeta(fullName string) *Meta {
	if m := metaTable().byName[fullName]; m != nil {
		return m
	}
	return metaTable().byName[strings.ToLower(fullName)]
}

// AllMeta returns Redis 7.2's commands (containers with their subcommands), by name. The
// slice is shared: do not modify it.
func AllMeta() []*Meta { return metaTable().top }
