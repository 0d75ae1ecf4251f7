package main

import (
	"fmt"
	"slices"

	"github.com/kvserver/kvserver/command"
)

// change72 is one thing Redis 7.2's src/commands/*.json (tag 7.2.4) says of a command that a
// 7.0.15 server cannot: a new command (add), or an edit of what 7.0.15 reports (edit, which
// checks that it finds the 7.0.15 state, so that the list cannot be applied twice or to
// another version unnoticed).
type change72 struct {
	name string
	add  *command.Meta
	edit func(m *command.Meta) error
}

// What is left out on purpose: Redis 7.2 reworded almost every command's summary and renamed
// many arguments (MSET's key_value became data, CLIENT KILL's filters got names of their own,
// SORT's patterns got display texts…). Those are texts for people, hundreds of lines; the file
// keeps 7.0.15's wording of them. Everything that changes behaviour or what a client may rely
// on — commands, arity, flags, key specs, tips, arguments added, history, deprecation — is here.
var changes72 = []change72{
	// New in 7.2.0: commands of this client do not touch the LRU/LFU of the keys they read.
	{name: "client|no-touch", add: &command.Meta{Name: "client|no-touch", Arity: 3,
		Flags: []string{"noscript", "loading", "stale"}, ACLCategories: []string{"@slow", "@connection"},
		Docs: command.Docs{Summary: "Controls whether commands sent by the client affect the LRU/LFU of accessed keys.",
			Since: "7.2.0", Group: "connection", Complexity: "O(1)",
			Arguments: []command.Arg{oneof("enabled", token("on", "ON"), token("off", "OFF"))}}}},
	// New in 7.2.0: the client's library name and version (CLIENT LIST lib-name, lib-ver).
	{name: "client|setinfo", add: &command.Meta{Name: "client|setinfo", Arity: 4,
		Flags: []string{"noscript", "loading", "stale"}, ACLCategories: []string{"@slow", "@connection"},
		Tips: []string{"request_policy:all_nodes", "response_policy:all_succeeded"},
		Docs: command.Docs{Summary: "Sets information specific to the client or connection.",
			Since: "7.2.0", Group: "connection", Complexity: "O(1)",
			Arguments: []command.Arg{oneof("attr",
				command.Arg{Name: "libname", Type: "string", Token: "LIB-NAME", KeySpecIndex: -1},
				command.Arg{Name: "libver", Type: "string", Token: "LIB-VER", KeySpecIndex: -1})}}}},
	// New in 7.2.0: the shard id of the node.
	{name: "cluster|myshardid", add: &command.Meta{Name: "cluster|myshardid", Arity: 2,
		Flags: []string{"stale"}, ACLCategories: []string{"@slow"}, Tips: []string{"nondeterministic_output"},
		Docs: command.Docs{Summary: "Returns the shard ID of a node.", Since: "7.2.0", Group: "cluster", Complexity: "O(1)"}}},
	// New in 7.2.0: waits until the preceding writes are fsynced to the AOF of the master and replicas.
	{name: "waitaof", add: &command.Meta{Name: "waitaof", Arity: 4,
		Flags: []string{"noscript"}, ACLCategories: []string{"@slow", "@connection"},
		Tips: []string{"request_policy:all_shards", "response_policy:agg_min"},
		Docs: command.Docs{Summary: "Blocks until all of the preceding write commands sent by the connection are written to the append-only file of the master and/or replicas.",
			Since: "7.2.0", Group: "generic", Complexity: "O(1)",
			Arguments: []command.Arg{plain("numlocal", "integer"), plain("numreplicas", "integer"), plain("timeout", "integer")}}}},

	// 7.2.0: ZRANK and ZREVRANK take an optional WITHSCORE (arity 3 becomes -3).
	{name: "zrank", edit: withScore},
	{name: "zrevrank", edit: withScore},

	// 7.2: COMMAND GETKEYS and GETKEYSANDFLAGS take a command without arguments (arity -4
	// becomes -3) and document their arguments.
	{name: "command|getkeys", edit: getkeysArity},
	{name: "command|getkeysandflags", edit: getkeysArity},

	// 7.2: blocking commands may run in scripts (they do not block there), and so may WAIT.
	{name: "blmove", edit: dropFlag("noscript")},
	{name: "blpop", edit: dropFlag("noscript")},
	{name: "brpop", edit: dropFlag("noscript")},
	{name: "brpoplpush", edit: dropFlag("noscript")},
	{name: "bzpopmax", edit: dropFlag("noscript")},
	{name: "bzpopmin", edit: dropFlag("noscript")},
	{name: "wait", edit: dropFlag("noscript")},

	// 7.2: CLUSTER SHARDS and CLUSTER SLOTS answer while loading.
	{name: "cluster|shards", edit: addFlag("loading")},
	{name: "cluster|slots", edit: addFlag("loading")},

	// 7.2: commands that change every node's state say so to cluster clients (request and
	// response policies); MSETNX loses its multi-shard tips (it cannot span shards atomically);
	// RANDOMKEY and SCAN gain a special response policy.
	{name: "acl|deluser", edit: setTips(nil, "request_policy:all_nodes", "response_policy:all_succeeded")},
	{name: "acl|save", edit: setTips(nil, "request_policy:all_nodes", "response_policy:all_succeeded")},
	{name: "acl|setuser", edit: setTips(nil, "request_policy:all_nodes", "response_policy:all_succeeded")},
	{name: "client|setname", edit: setTips(nil, "request_policy:all_nodes", "response_policy:all_succeeded")},
	{name: "config|resetstat", edit: setTips(nil, "request_policy:all_nodes", "response_policy:all_succeeded")},
	{name: "config|rewrite", edit: setTips(nil, "request_policy:all_nodes", "response_policy:all_succeeded")},
	{name: "latency|reset", edit: setTips([]string{"request_policy:all_nodes", "response_policy:all_succeeded"},
		"request_policy:all_nodes", "response_policy:agg_sum")},
	{name: "msetnx", edit: setTips([]string{"request_policy:multi_shard", "response_policy:agg_min"})},
	{name: "randomkey", edit: setTips([]string{"request_policy:all_shards", "nondeterministic_output"},
		"request_policy:all_shards", "response_policy:special", "nondeterministic_output")},
	{name: "scan", edit: setTips([]string{"nondeterministic_output", "request_policy:special"},
		"nondeterministic_output", "request_policy:special", "response_policy:special")},

	// 7.2.0 history lines.
	{name: "acl|log", edit: addHistory("Added entry ID, timestamp created, and timestamp last updated.")},
	{name: "xinfo|consumers", edit: addHistory("Added the `inactive` field.")},
	{name: "xinfo|stream", edit: addHistory("Added the `active-time` field, and changed the meaning of `seen-time`.")},

	// 7.2 marks SETEX, PSETEX and SETNX deprecated (SET's options replace them since 2.6.12),
	// and QUIT (since 7.2.0: clients just close the connection).
	{name: "psetex", edit: deprecate("2.6.12", "`SET` with the `PX` argument")},
	{name: "setex", edit: deprecate("2.6.12", "`SET` with the `EX` argument")},
	{name: "setnx", edit: deprecate("2.6.12", "`SET` with the `NX` argument")},
	{name: "quit", edit: deprecate("7.2.0", "just closing the connection")},

	// 7.2 corrects CLIENT PAUSE's first version (2.9.50 was a development release of 3.0.0).
	{name: "client|pause", edit: func(m *command.Meta) error {
		if m.Docs.Since != "2.9.50" {
			return fmt.Errorf("since %q", m.Docs.Since)
		}
		m.Docs.Since = "3.0.0"
		return nil
	}},

	// 7.2 corrects these complexities (and drops XREAD's, which described BLOCK's cost to XADD).
	{name: "cluster|getkeysinslot", edit: complexity("O(N) where N is the number of requested keys")},
	{name: "cluster|replicas", edit: complexity("O(N) where N is the number of replicas.")},
	{name: "cluster|slaves", edit: complexity("O(N) where N is the number of replicas.")},
	{name: "geodist", edit: complexity("O(1)")},
	{name: "geohash", edit: complexity("O(1) for each member requested.")},
	{name: "geopos", edit: complexity("O(1) for each member requested.")},
	{name: "hscan", edit: complexity(scanComplexity)},
	{name: "sscan", edit: complexity(scanComplexity)},
	{name: "zscan", edit: complexity(scanComplexity)},
	{name: "psubscribe", edit: complexity("O(N) where N is the number of patterns to subscribe to.")},
	{name: "punsubscribe", edit: complexity("O(N) where N is the number of patterns to unsubscribe.")},
	{name: "sunsubscribe", edit: complexity("O(N) where N is the number of shard channels to unsubscribe.")},
	{name: "unsubscribe", edit: complexity("O(N) where N is the number of channels to unsubscribe.")},
	{name: "xread", edit: complexity("")},
	{name: "zrandmember", edit: complexity("O(N) where N is the number of members returned")},
}

const scanComplexity = "O(1) for every call. O(N) for a complete iteration, including enough command calls for the cursor to return back to 0. N is the number of elements inside the collection."

// apply72 applies changes72 to the commands of a 7.0.15 server.
func apply72(top []*command.Meta) ([]*command.Meta, error) {
	find := func(name string) *command.Meta {
		for _, m := range top {
			if m.Name == name {
				return m
			}
			for _, s := range m.Subcommands {
				if s.Name == name {
					return s
				}
			}
		}
		return nil
	}
	for _, c := range changes72 {
		m := find(c.name)
		if c.add != nil {
			if m != nil {
				return nil, fmt.Errorf("%s: the server has it already", c.name)
			}
			add := *c.add
			if container, _, isSub := cut(add.Name); isSub {
				parent := find(container)
				if parent == nil {
					return nil, fmt.Errorf("%s: no container %s", c.name, container)
				}
				parent.Subcommands = append(parent.Subcommands, &add)
			} else {
				top = append(top, &add)
			}
			continue
		}
		if m == nil {
			return nil, fmt.Errorf("%s: not on the server", c.name)
		}
		if err := c.edit(m); err != nil {
			return nil, fmt.Errorf("%s: %v: not the 7.0.15 state", c.name, err)
		}
	}
	return top, nil
}

func cut(name string) (string, string, bool) {
	for i := 0; i < len(name); i++ {
		if name[i] == '|' {
			return name[:i], name[i+1:], true
		}
	}
	return name, "", false
}

func plain(name, typ string) command.Arg { return command.Arg{Name: name, Type: typ, KeySpecIndex: -1} }

func token(name, tok string) command.Arg {
	return command.Arg{Name: name, Type: "pure-token", Token: tok, KeySpecIndex: -1}
}

func oneof(name string, args ...command.Arg) command.Arg {
	return command.Arg{Name: name, Type: "oneof", KeySpecIndex: -1, Arguments: args}
}

func withScore(m *command.Meta) error {
	if m.Arity != 3 || len(m.Docs.Arguments) != 2 {
		return fmt.Errorf("arity %d, %d arguments", m.Arity, len(m.Docs.Arguments))
	}
	m.Arity = -3
	ws := token("withscore", "WITHSCORE")
	ws.Flags = []string{"optional"}
	m.Docs.Arguments = append(m.Docs.Arguments, ws)
	m.Docs.History = append(m.Docs.History, command.HistoryEntry{Version: "7.2.0", Change: "Added the optional `WITHSCORE` argument."})
	return nil
}

func getkeysArity(m *command.Meta) error {
	if m.Arity != -4 || len(m.Docs.Arguments) != 0 {
		return fmt.Errorf("arity %d, %d arguments", m.Arity, len(m.Docs.Arguments))
	}
	m.Arity = -3
	arg := plain("arg", "string")
	arg.Flags = []string{"optional", "multiple"}
	m.Docs.Arguments = []command.Arg{plain("command", "string"), arg}
	return nil
}

func dropFlag(flag string) func(m *command.Meta) error {
	return func(m *command.Meta) error {
		i := slices.Index(m.Flags, flag)
		if i < 0 {
			return fmt.Errorf("no %s flag", flag)
		}
		m.Flags = slices.Delete(m.Flags, i, i+1)
		return nil
	}
}

func addFlag(flag string) func(m *command.Meta) error {
	return func(m *command.Meta) error {
		if slices.Contains(m.Flags, flag) {
			return fmt.Errorf("has the %s flag", flag)
		}
		m.Flags = append(m.Flags, flag)
		command.SortFlags(m.Flags)
		return nil
	}
}

// setTips replaces the tips was (7.0.15's) with tips.
func setTips(was []string, tips ...string) func(m *command.Meta) error {
	return func(m *command.Meta) error {
		if !slices.Equal(m.Tips, was) {
			return fmt.Errorf("tips %v", m.Tips)
		}
		m.Tips = tips
		if len(tips) == 0 {
			m.Tips = nil
		}
		return nil
	}
}

func addHistory(change string) func(m *command.Meta) error {
	return func(m *command.Meta) error {
		for _, h := range m.Docs.History {
			if h.Version == "7.2.0" {
				return fmt.Errorf("has a 7.2.0 history line")
			}
		}
		m.Docs.History = append(m.Docs.History, command.HistoryEntry{Version: "7.2.0", Change: change})
		return nil
	}
}

func deprecate(since, replacedBy string) func(m *command.Meta) error {
	return func(m *command.Meta) error {
		if len(m.Docs.DocFlags) > 0 || m.Docs.DeprecatedSince != "" {
			return fmt.Errorf("doc flags %v", m.Docs.DocFlags)
		}
		m.Docs.DocFlags = []string{"deprecated"}
		m.Docs.DeprecatedSince, m.Docs.ReplacedBy = since, replacedBy
		return nil
	}
}

func complexity(c string) func(m *command.Meta) error {
	return func(m *command.Meta) error {
		if m.Docs.Complexity == c {
			return fmt.Errorf("complexity is %q already", c)
		}
		m.Docs.Complexity = c
		return nil
	}
}
