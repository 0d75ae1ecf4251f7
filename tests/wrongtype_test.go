package tests

import (
	"sort"
	"strings"
	"testing"
)

// The WRONGTYPE matrix: every command the server lists (COMMAND) whose ACL categories say it
// works on one of the types kvserver has — @string, @bitmap and @hyperloglog (strings), @hash,
// @set, @list (issue 21: only once the server has RPUSH), @sortedset and @geo (issue 22: sorted
// sets, only once the server has ZADD) — is run against a key of each other type, with the minimal arguments its COMMAND DOCS
// describe (every key argument naming that key), and must answer Redis's WRONGTYPE error.
// Commands of types kvserver lacks are not listed by it, so they are skipped. The exceptions
// are Redis's own: writes that replace whatever the key holds (SET and its variants, MSET),
// SETNX and MSETNX that only test existence, and MGET, which answers nil for a key that is
// not a string. With redis-server on the PATH each case also runs there, and the two servers
// must agree on whether the answer is WRONGTYPE.

const wrongTypeErr = "WRONGTYPE Operation against a key holding the wrong kind of value"

// wrongTypeExempt are the commands Redis runs on a key of any type without a type check.
var wrongTypeExempt = map[string]bool{
	"set": true, "setex": true, "psetex": true, "mset": true, // replace the value
	"setnx": true, "msetnx": true, // existence only
	"mget": true, // nil for a non-string
}

// wrongTypeOwnError are the commands that answer a key of another type with an error of their
// own: LCS (Redis's lcsCommand).
var wrongTypeOwnError = map[string]string{
	"lcs": "ERR The specified keys must contain string values",
}

// argOverrides are the minimal arguments of commands whose COMMAND DOCS do not say enough:
// 7.0.15 describes BITOP's operation as a plain string, and the ranges of the sorted-set
// commands as strings, which Redis checks before the key's type.
var argOverrides = map[string][]string{
	"bitop":          {"AND", "k", "k"},
	"zrange":         {"k", "0", "-1"},
	"zrangestore":    {"k", "k", "0", "-1"},
	"zlexcount":      {"k", "-", "+"},
	"zrangebylex":    {"k", "-", "+"},
	"zrevrangebylex": {"k", "+", "-"},
	"zremrangebylex": {"k", "-", "+"},
}

// wrongTypeAccepts are the other types a command takes besides its own: the sorted-set
// algebra reads a set as a sorted set of score 1 (zunionInterDiffGenericCommand).
var wrongTypeAccepts = map[string]string{
	"zunion": "set", "zunionstore": "set", "zinter": "set", "zinterstore": "set",
	"zdiff": "set", "zdiffstore": "set", "zintercard": "set",
}

// typedCommand is one command of the matrix: its name, the type it works on, and its minimal
// arguments with every key named "k".
type typedCommand struct {
	name string
	typ  string // "string", "hash", "set", "list" or "zset" (a geo command works on a sorted set)
	args []string
}

// typeOfCategories is the type a command's ACL categories say it works on, "" for none or more
// than one.
func typeOfCategories(cats []string) string {
	typ := ""
	for _, c := range cats {
		var t string
		switch c {
		case "@string", "@bitmap", "@hyperloglog":
			t = "string"
		case "@hash":
			t = "hash"
		case "@set":
			t = "set"
		case "@list":
			t = "list"
		case "@sortedset", "@geo":
			t = "zset"
		case "@stream":
			return "" // a type kvserver lacks
		default:
			continue
		}
		if typ != "" && typ != t {
			return ""
		}
		typ = t
	}
	return typ
}

// replyStrings is an array reply's elements as strings (statuses and bulks).
func replyStrings(r *Reply) []string {
	out := make([]string, len(r.Elems))
	for i, e := range r.Elems {
		out[i] = e.Str
	}
	return out
}

// docField returns field name of a RESP2 map given as an array of alternating keys and values.
func docField(m *Reply, name string) *Reply {
	for i := 0; i+1 < len(m.Elems); i += 2 {
		if m.Elems[i].Str == name {
			return m.Elems[i+1]
		}
	}
	return nil
}

// minimalArgs are the arguments of a COMMAND DOCS argument list that are not optional, one of
// each "multiple", the first choice of each "oneof": keys are "k", numbers 1, patterns *.
func minimalArgs(args *Reply) []string {
	var out []string
	if args == nil {
		return nil
	}
	for _, a := range args.Elems {
		flags := docField(a, "flags")
		optional := false
		if flags != nil {
			for _, f := range flags.Elems {
				optional = optional || f.Str == "optional"
			}
		}
		if optional {
			continue
		}
		if tok := docField(a, "token"); tok != nil {
			out = append(out, tok.Str)
		}
		switch typ := docField(a, "type").Str; typ {
		case "key":
			out = append(out, "k")
		case "integer", "double", "unix-time":
			out = append(out, "1")
		case "pattern":
			out = append(out, "*")
		case "pure-token":
		case "oneof":
			out = append(out, minimalArgs(&Reply{Elems: docField(a, "arguments").Elems[:1]})...)
		case "block":
			out = append(out, minimalArgs(docField(a, "arguments"))...)
		default: // string
			out = append(out, "x")
		}
	}
	return out
}

// typedCommands lists the matrix's commands from srv's COMMAND and COMMAND DOCS.
func typedCommands(t *testing.T, srv *server) []typedCommand {
	c := srv.RawConn(t)
	info := c.Do("COMMAND")
	var out []typedCommand
	for _, e := range info.Elems {
		name := e.Elems[0].Str
		if len(e.Elems) < 7 {
			t.Fatalf("COMMAND: %s", formatReply(e, false))
		}
		typ := typeOfCategories(replyStrings(e.Elems[6]))
		if typ == "" || wrongTypeExempt[name] || len(e.Elems) > 9 && len(e.Elems[9].Elems) > 0 {
			continue // no type of ours, exempt, or a container of subcommands
		}
		docs := c.Do("COMMAND", "DOCS", name)
		if len(docs.Elems) != 2 {
			t.Fatalf("COMMAND DOCS %s: %s", name, formatReply(docs, false))
		}
		args := append([]string{name}, minimalArgs(docField(docs.Elems[1], "arguments"))...)
		if o, ok := argOverrides[name]; ok {
			args = append([]string{name}, o...)
		}
		if !containsString(args[1:], "k") {
			continue // no key (movable keys count: SINTERCARD's first key is 0)
		}
		out = append(out, typedCommand{name: name, typ: typ, args: args})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// makeKey makes k a value of type typ on c, after emptying the database.
func makeKey(t *testing.T, c *rawConn, typ string) {
	t.Helper()
	c.Do("FLUSHALL")
	var r *Reply
	switch typ {
	case "string":
		r = c.Do("SET", "k", "v")
	case "hash":
		r = c.Do("HSET", "k", "f", "v")
	case "set":
		r = c.Do("SADD", "k", "m")
	case "list":
		r = c.Do("RPUSH", "k", "e")
	case "zset":
		r = c.Do("ZADD", "k", "1", "m")
	}
	if r.Kind == '-' {
		t.Fatalf("making a %s: %s", typ, r.Str)
	}
}

func TestWrongTypeMatrix(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	for _, probe := range [][]string{{"HSET", "probe:h", "f", "v"}, {"SADD", "probe:s", "m"}} {
		if r := c.Do(probe...); r.Kind == '-' {
			t.Skipf("%s: %s", probe[0], r.Str)
		}
	}
	keyTypes := []string{"string", "hash", "set"}
	if r := c.Do("RPUSH", "probe:l", "e"); r.Kind != '-' {
		keyTypes = append(keyTypes, "list")
	}
	if r := c.Do("ZADD", "probe:z", "1", "m"); r.Kind != '-' {
		keyTypes = append(keyTypes, "zset")
	}
	var ref *rawConn
	if !targetRedis {
		if rs := startReferenceRedis(t); rs != nil {
			ref = rs.RawConn(t)
		}
	}
	cmds := typedCommands(t, srv)
	counts := map[string]int{}
	checked := 0
	for _, cmd := range cmds {
		counts[cmd.typ]++
		for _, keyType := range keyTypes {
			if keyType == cmd.typ || wrongTypeAccepts[cmd.name] == keyType {
				continue
			}
			makeKey(t, c, keyType)
			got := c.Do(cmd.args...)
			checked++
			want := wrongTypeErr
			if e, ok := wrongTypeOwnError[cmd.name]; ok {
				want = e
			}
			if got.Kind != '-' || got.Str != want {
				t.Errorf("%s against a %s: %s, want %s", strings.Join(cmd.args, " "), keyType, formatReply(got, false), want)
			}
			if ref == nil {
				continue
			}
			makeKey(t, ref, keyType)
			refGot := ref.Do(cmd.args...)
			if refGot.Kind == '-' && strings.HasPrefix(refGot.Str, "ERR unknown command") {
				continue // a 7.2 command that 7.0.15 lacks
			}
			if (refGot.Kind == '-' && refGot.Str == want) != (got.Kind == '-' && got.Str == want) {
				t.Errorf("%s against a %s: redis-server %s, kvserver %s", strings.Join(cmd.args, " "), keyType,
					formatReply(refGot, false), formatReply(got, false))
			}
		}
	}
	if counts["string"] < 10 || counts["hash"] < 10 || counts["set"] < 10 || containsString(keyTypes, "list") && counts["list"] < 20 ||
		containsString(keyTypes, "zset") && counts["zset"] < 30 {
		t.Fatalf("too few commands of each type found: %v", counts)
	}
	names := make([]string, len(cmds))
	for i, cmd := range cmds {
		names[i] = cmd.name
	}
	t.Logf("%d cases: %v commands by type (reference redis-server: %v): %s", checked, counts, ref != nil, strings.Join(names, " "))

	// The exemptions are Redis's: none of them answers WRONGTYPE there either.
	if ref != nil {
		for name := range wrongTypeExempt {
			args := map[string][]string{"set": {"k", "x"}, "setex": {"k", "1", "x"}, "psetex": {"k", "1", "x"},
				"mset": {"k", "x"}, "setnx": {"k", "x"}, "msetnx": {"k", "x"}, "mget": {"k"}}[name]
			for _, conn := range []*rawConn{c, ref} {
				makeKey(t, conn, "hash")
				if r := conn.Do(append([]string{name}, args...)...); r.Kind == '-' {
					t.Errorf("%s against a hash: %s", name, r.Str)
				}
			}
		}
	}
}
