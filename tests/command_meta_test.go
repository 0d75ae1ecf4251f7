package tests

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The introspection commands against Redis itself. kvserver's COMMAND INFO and COMMAND DOCS
// answer from command/redis72.json, Redis 7.2's metadata generated from a redis-server 7.0.15
// and a hand-kept list of what 7.2 changed (scripts/gencommandmeta). With redis-server on the
// PATH the tests check both halves: the generator reproduces the file from that server, and
// kvserver answers as that server does for every command it implements, but where the list
// says 7.2 differs. Without it (CI installs redis-tools only) they check kvserver's answers
// against the checked-in file, rendered here independently in Redis's reply shapes.

// repoRoot is the repository holding this file.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test source file")
	}
	return filepath.Dir(filepath.Dir(file))
}

// startReferenceRedis starts a redis-server on a free port, or returns nil when there is none
// on the PATH.
func startReferenceRedis(t *testing.T) *server {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return nil
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{Port: port, Addr: "127.0.0.1:" + strconv.Itoa(port), t: t, out: &syncBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(); err != nil {
		s.kill()
		t.Fatalf("reference redis-server: %v", err)
	}
	t.Cleanup(s.cleanup)
	return s
}

// changed72 are the implemented commands whose COMMAND INFO or DOCS the generator's hand-kept
// list changes from 7.0.15's: a new command, arities, tips, deprecations.
var changed72 = map[string]bool{
	"acl":                     true, // its subcommands below
	"acl|setuser":             true, // cluster tips
	"acl|deluser":             true,
	"acl|save":                true,
	"acl|log":                 true, // 7.2's entry-id and timestamps (history)
	"client":                  true, // its subcommands below
	"client|setinfo":          true, // new in 7.2
	"client|no-touch":         true, // new in 7.2
	"client|setname":          true, // cluster tips
	"command":                 true, // its subcommands below
	"command|getkeys":         true, // arity -3, arguments
	"command|getkeysandflags": true,
	"config":                  true, // its subcommands below
	"config|resetstat":        true, // cluster tips
	"config|rewrite":          true,
	"msetnx":                  true, // tips dropped
	"randomkey":               true, // response policy
	"scan":                    true,
	"hscan":                   true, // complexity text: 7.0's ".." ends with "." in 7.2
	"sscan":                   true,
	"geodist":                 true, // complexity texts (7.2's O(1))
	"geohash":                 true,
	"geopos":                  true,
	"psetex":                  true, // deprecated
	"setex":                   true,
	"setnx":                   true,
	"quit":                    true,
	"latency":                 true, // its subcommand below
	"latency|reset":           true, // response policy agg_sum
	"psubscribe":              true, // complexity texts
	"punsubscribe":            true,
	"unsubscribe":             true,
	"sunsubscribe":            true,
	"blpop":                   true, // 7.2 dropped noscript: a script may call them (they do not block there)
	"brpop":                   true,
	"blmove":                  true,
	"brpoplpush":              true,
	"bzpopmin":                true,
	"bzpopmax":                true,
	"zrank":                   true, // WITHSCORE: arity -3, an argument, history
	"zrevrank":                true,
	"zscan":                   true, // complexity text
	"zrandmember":             true,
}

// TestCommandMetaGenerator: the generator run against redis-server writes command/redis72.json
// byte for byte.
func TestCommandMetaGenerator(t *testing.T) {
	ref := startReferenceRedis(t)
	if ref == nil {
		t.Skip("redis-server not on the PATH")
	}
	if !strings.Contains(ref.CLI(t, "INFO", "server"), "redis_version:7.0.") {
		t.Skip("the reference redis-server is not a 7.0: the hand-kept list describes 7.0.15 → 7.2")
	}
	root := repoRoot(t)
	cmd := exec.Command("go", "run", "./scripts/gencommandmeta", "-addr", ref.Addr)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gencommandmeta: %v\n%s", err, stderr.String())
	}
	want, err := os.ReadFile(filepath.Join(root, "command", "redis72.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want) {
		t.Fatal("command/redis72.json is not what scripts/gencommandmeta writes from redis-server: regenerate it")
	}
}

// TestCommandInfoAndDocs: for every command kvserver implements (COMMAND LIST), COMMAND INFO
// and COMMAND DOCS in RESP2 and RESP3 are the metadata file's, in Redis's shapes; and, with
// a reference redis-server, Redis's own answers but for changed72.
func TestCommandInfoAndDocs(t *testing.T) {
	requireKvserver(t, "compares kvserver's answers with Redis's")
	data := readMetaFile(t)
	srv := startServer(t)
	ref := startReferenceRedis(t)
	redis7 := ref != nil && strings.Contains(ref.CLI(t, "INFO", "server"), "redis_version:7.0.")
	var names []string
	implemented := map[string]bool{}
	for _, r := range srv.RawConn(t).Do("COMMAND", "LIST").Elems {
		names = append(names, r.Str)
		implemented[r.Str] = true
	}
	if len(names) < 60 || !implemented["get"] || !implemented["config|get"] {
		t.Fatalf("COMMAND LIST: %v", names)
	}
	for _, proto := range []int{2, 3} {
		c := srv.RawConn(t)
		c.Do("HELLO", strconv.Itoa(proto))
		var rc *rawConn
		if redis7 {
			rc = ref.RawConn(t)
			rc.Do("HELLO", strconv.Itoa(proto))
		}
		for _, name := range names {
			entry := data[name]
			if entry == nil {
				t.Errorf("%s: not in redis72.json", name)
				continue
			}
			keep := func(sub string) bool { return implemented[sub] }
			got := c.Do("COMMAND", "INFO", name)
			wantInfo := canonInfo(&Reply{Kind: '*', Elems: []*Reply{infoReply(entry, proto, keep)}})
			if g, w := canonInfo(got), wantInfo; g != w {
				t.Errorf("RESP%d COMMAND INFO %s:\n got %s\nwant %s", proto, name, g, w)
			}
			got = c.Do("COMMAND", "DOCS", name)
			wantDocs := canonDocs(mapReply(proto, name, docsReply(entry, proto, keep)))
			if g, w := canonDocs(got), wantDocs; g != w {
				t.Errorf("RESP%d COMMAND DOCS %s:\n got %s\nwant %s", proto, name, g, w)
			}
			if rc == nil {
				continue
			}
			// Redis's own answers: a container's subcommands cut to the implemented ones, and
			// the display_text 7.2 gives every argument that is not a oneof or a block.
			theirs := rc.Do("COMMAND", "INFO", name)
			keepSubs(theirs.Elems[0], keep)
			theirDocs := rc.Do("COMMAND", "DOCS", name)
			addDisplayText(theirDocs, keep)
			ri, rd := canonInfo(theirs), canonDocs(theirDocs)
			if same := ri == wantInfo && rd == wantDocs; same == changed72[name] {
				t.Errorf("RESP%d %s: redis-server 7.0 answers as the file: %v, want %v (changed72)\n redis %s\n       %s\n file  %s\n       %s",
					proto, name, same, !changed72[name], ri, rd, wantInfo, wantDocs)
			}
		}
	}
	// Unknown names: a null in COMMAND INFO, nothing in COMMAND DOCS.
	c := srv.RawConn(t)
	if r := c.Do("COMMAND", "INFO", "nosuch", "get"); len(r.Elems) != 2 || r.Elems[0].Kind != '_' || r.Elems[1].Elems[0].Str != "get" {
		t.Errorf("COMMAND INFO nosuch get: %s", formatReply(r, false))
	}
	if r := c.Do("COMMAND", "DOCS", "nosuch"); len(r.Elems) != 0 {
		t.Errorf("COMMAND DOCS nosuch: %s", formatReply(r, false))
	}
	if n := c.Do("COMMAND", "COUNT").Int; len(c.Do("COMMAND").Elems) != int(n) || len(replyMap(t, c.Do("COMMAND", "DOCS"))) != int(n) {
		t.Errorf("COMMAND COUNT %d, COMMAND and COMMAND DOCS disagree", n)
	}
}

// TestCommandListFilter: COMMAND LIST FILTERBY, as Redis: a pattern over full names in any
// case, an ACL category by its bare name, a module (none is loaded), and the syntax errors.
func TestCommandListFilter(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	names := func(args ...string) []string {
		var out []string
		r := c.Do(append([]string{"COMMAND", "LIST"}, args...)...)
		if r.Kind == '-' {
			return []string{r.Str}
		}
		for _, e := range r.Elems {
			out = append(out, e.Str)
		}
		sort.Strings(out)
		return out
	}
	if got := names("FILTERBY", "PATTERN", "CONFIG*"); !slices.Equal(got, []string{"config", "config|get", "config|help", "config|resetstat", "config|rewrite", "config|set"}) {
		t.Errorf("PATTERN CONFIG*: %v", got)
	}
	if got := names("filterby", "aclcat", "STRING"); !slices.Contains(got, "get") || slices.Contains(got, "del") {
		t.Errorf("ACLCAT STRING: %v", got)
	}
	for _, args := range [][]string{{"FILTERBY", "ACLCAT", "@string"}, {"FILTERBY", "ACLCAT", "nosuch"}, {"FILTERBY", "MODULE", "x"}} {
		if got := names(args...); len(got) != 0 {
			t.Errorf("%v: %v", args, got)
		}
	}
	for _, args := range [][]string{{"FILTERBY"}, {"FILTERBY", "NOPE", "x"}, {"FILTERBY", "ACLCAT", "a", "b"}, {"x"}} {
		if got := names(args...); len(got) != 1 || got[0] != "ERR syntax error" {
			t.Errorf("%v: %v", args, got)
		}
	}
}

// getKeysLines are command lines of every key-taking command kvserver implements, and error
// cases, with redis-server 7.0.15's COMMAND GETKEYSANDFLAGS answer ("key:FLAGS …" or the
// error).
var getKeysLines = []struct{ line, want string }{
	{"APPEND k v", "k:RW|insert"},
	{"COPY a b DB 1 REPLACE", "a:RO|access b:OW|update"},
	{"DECR k", "k:RW|access|update"},
	{"DECRBY k 2", "k:RW|access|update"},
	{"DEL a b c", "a:RM|delete b:RM|delete c:RM|delete"},
	{"DEL a", "a:RM|delete"},
	{"EXISTS a b a", "a:RO b:RO a:RO"},
	{"EXPIRE k 10 NX", "k:RW|update"},
	{"EXPIREAT k 10", "k:RW|update"},
	{"EXPIRETIME k", "k:RO|access"},
	{"GET k", "k:RO|access"},
	{"GETDEL k", "k:RW|access|delete"},
	{"GETEX k EX 10", "k:RW|access|update"},
	{"GETRANGE k 0 -1", "k:RO|access"},
	{"GETSET k v", "k:RW|access|update"},
	{"INCR k", "k:RW|access|update"},
	{"INCRBY k 1", "k:RW|access|update"},
	{"INCRBYFLOAT k 1.5", "k:RW|access|update"},
	{"MEMORY USAGE k SAMPLES 5", "k:RO"},
	{"MGET a b c", "a:RO|access b:RO|access c:RO|access"},
	{"MOVE k 1", "k:RW|access|update"},
	{"MSET a 1", "a:OW|update"},
	{"MSET a 1 b 2 c 3", "a:OW|update b:OW|update c:OW|update"},
	{"MSET a 1 b", "a:OW|update b:OW|update"},
	{"MSETNX a 1 b 2", "a:OW|insert b:OW|insert"},
	{"OBJECT ENCODING k", "k:RO"},
	{"OBJECT FREQ k", "k:RO"},
	{"OBJECT IDLETIME k", "k:RO"},
	{"OBJECT REFCOUNT k", "k:RO"},
	{"PERSIST k", "k:RW|update"},
	{"PEXPIRE k 10", "k:RW|update"},
	{"PEXPIREAT k 10", "k:RW|update"},
	{"PEXPIRETIME k", "k:RO|access"},
	{"PSETEX k 10 v", "k:OW|update"},
	{"PTTL k", "k:RO|access"},
	{"RENAME a b", "a:RW|access|delete b:OW|update"},
	{"RENAMENX a b", "a:RW|access|delete b:OW|insert"},
	{"SET k v", "k:OW|update"},
	{"SET k v NX GET", "k:RW|access|update"},
	{"SET k v EX 10 KEEPTTL", "k:OW|update"},
	{"SETEX k 10 v", "k:OW|update"},
	{"SETNX k v", "k:OW|insert"},
	{"SETRANGE k 0 v", "k:RW|update"},
	{"STRLEN k", "k:RO"},
	{"SUBSTR k 0 1", "k:RO|access"},
	{"TOUCH a b", "a:RO b:RO"},
	{"TTL k", "k:RO|access"},
	{"TYPE k", "k:RO"},
	{"UNLINK a b", "a:RM|delete b:RM|delete"},
	{"GET a b", "ERR Invalid number of arguments specified for command"},
	{"NOSUCH k", "ERR Invalid command specified"},
	{"get K", "K:RO|access"},
	{"CONFIG GET maxmemory", "ERR The command has no key arguments"},
	{"CONFIG NOSUCH x", "ERR Invalid command specified"},
	{"OBJECT HELP", "ERR The command has no key arguments"},
	{"OBJECT NOSUCH k", "ERR Invalid command specified"},
	{"CLIENT LIST", "ERR The command has no key arguments"},
	{"SCAN 0", "ERR The command has no key arguments"},
	{"KEYS *", "ERR The command has no key arguments"},
	{"ECHO x", "ERR The command has no key arguments"},
	// SET's key function: GET, in any case, among the options makes the key read.
	{"SET k v EX 10 get", "k:RW|access|update"},
}

// getKeysLines72 answer differently in 7.2, whose GETKEYS takes a command alone (arity -3).
var getKeysLines72 = []struct{ line, want string }{
	{"MGET", "ERR Invalid number of arguments specified for command"},
	{"RANDOMKEY", "ERR The command has no key arguments"},
	{"DBSIZE", "ERR The command has no key arguments"},
	{"OBJECT", "ERR The command has no key arguments"},
}

// TestCommandGetKeys: COMMAND GETKEYS and GETKEYSANDFLAGS answer getKeysLines as Redis does
// (and as redis-server answers them when it is on the PATH), and getKeysLines72 as 7.2.
func TestCommandGetKeys(t *testing.T) {
	requireKvserver(t, "GETKEYS of a command alone answers as Redis 7.2")
	srv := startServer(t)
	c := srv.RawConn(t)
	var rc *rawConn
	if ref := startReferenceRedis(t); ref != nil {
		rc = ref.RawConn(t)
	}
	ask := func(conn *rawConn, sub, line string) string {
		args, err := splitArgs(line)
		if err != nil {
			t.Fatal(err)
		}
		r := conn.Do(append([]string{"COMMAND", sub}, args...)...)
		if r.Kind == '-' {
			return r.Str
		}
		var parts []string
		for _, e := range r.Elems {
			if sub == "GETKEYS" {
				parts = append(parts, e.Str)
				continue
			}
			var flags []string
			for _, f := range e.Elems[1].Elems {
				flags = append(flags, f.Str)
			}
			parts = append(parts, e.Elems[0].Str+":"+strings.Join(flags, "|"))
		}
		return strings.Join(parts, " ")
	}
	keysOnly := func(want string) string {
		if strings.HasPrefix(want, "ERR ") {
			return want
		}
		var keys []string
		for _, k := range strings.Fields(want) {
			keys = append(keys, k[:strings.LastIndexByte(k, ':')])
		}
		return strings.Join(keys, " ")
	}
	for _, l := range getKeysLines {
		if got := ask(c, "GETKEYSANDFLAGS", l.line); got != l.want {
			t.Errorf("GETKEYSANDFLAGS %s: %q, want %q", l.line, got, l.want)
		}
		if got, want := ask(c, "GETKEYS", l.line), keysOnly(l.want); got != want {
			t.Errorf("GETKEYS %s: %q, want %q", l.line, got, want)
		}
		if rc != nil {
			for _, sub := range []string{"GETKEYS", "GETKEYSANDFLAGS"} {
				if got, theirs := ask(c, sub, l.line), ask(rc, sub, l.line); got != theirs {
					t.Errorf("%s %s: %q, redis-server %q", sub, l.line, got, theirs)
				}
			}
		}
	}
	for _, l := range getKeysLines72 {
		for _, sub := range []string{"GETKEYS", "GETKEYSANDFLAGS"} {
			if got := ask(c, sub, l.line); got != l.want {
				t.Errorf("%s %s: %q, want %q", sub, l.line, got, l.want)
			}
		}
	}
	if got := ask(c, "GETKEYS", ""); got != "ERR wrong number of arguments for 'command|getkeys' command" {
		t.Errorf("COMMAND GETKEYS alone: %q", got)
	}
}

// readMetaFile reads command/redis72.json by full name, subcommands included.
func readMetaFile(t *testing.T) map[string]map[string]any {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "command", "redis72.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var all []map[string]any
	if err := dec.Decode(&all); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	var add func(m map[string]any)
	add = func(m map[string]any) {
		out[m["name"].(string)] = m
		for _, s := range list(m["subcommands"]) {
			add(s.(map[string]any))
		}
	}
	for _, m := range all {
		add(m)
	}
	return out
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func num(v any) int64 {
	n, _ := v.(json.Number).Int64()
	return n
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// The reply builders: Redis's shapes for a protocol (RESP2 flattens maps and sets to arrays).
func bulkR(s string) *Reply   { return &Reply{Kind: '$', Str: s} }
func simpleR(s string) *Reply { return &Reply{Kind: '+', Str: s} }
func intR(n int64) *Reply     { return &Reply{Kind: ':', Int: n} }
func arrR(e ...*Reply) *Reply { return &Reply{Kind: '*', Elems: append([]*Reply{}, e...)} }
func setR(proto int, e ...*Reply) *Reply {
	r := arrR(e...)
	if proto == 3 {
		r.Kind = '~'
	}
	return r
}

// mapReply builds a map from alternating keys (strings, as bulk strings) and values.
func mapReply(proto int, kv ...any) *Reply {
	r := &Reply{Kind: '*'}
	if proto == 3 {
		r.Kind = '%'
	}
	for i := 0; i < len(kv); i += 2 {
		r.Elems = append(r.Elems, bulkR(kv[i].(string)), kv[i+1].(*Reply))
	}
	return r
}

func simples(proto int, v any) *Reply {
	r := setR(proto)
	for _, s := range list(v) {
		r.Elems = append(r.Elems, simpleR(s.(string)))
	}
	return r
}

// infoReply is a COMMAND INFO entry of a file entry, with the subcommands keep accepts.
func infoReply(e map[string]any, proto int, keep func(string) bool) *Reply {
	tips := setR(proto)
	for _, s := range list(e["tips"]) {
		tips.Elems = append(tips.Elems, bulkR(s.(string)))
	}
	specs := setR(proto)
	for _, s := range list(e["key_specs"]) {
		ks := s.(map[string]any)
		var kv []any
		if n := str(ks["notes"]); n != "" {
			kv = append(kv, "notes", bulkR(n))
		}
		kv = append(kv, "flags", simples(proto, ks["flags"]),
			"begin_search", searchReply(ks["begin_search"], proto),
			"find_keys", searchReply(ks["find_keys"], proto))
		specs.Elems = append(specs.Elems, mapReply(proto, kv...))
	}
	subs := setR(proto)
	for _, s := range list(e["subcommands"]) {
		sm := s.(map[string]any)
		if keep(sm["name"].(string)) {
			subs.Kind = '*'
			subs.Elems = append(subs.Elems, infoReply(sm, proto, keep))
		}
	}
	return arrR(bulkR(e["name"].(string)), intR(num(e["arity"])), simples(proto, e["flags"]),
		intR(num(e["first_key"])), intR(num(e["last_key"])), intR(num(e["key_step"])),
		simples(proto, e["acl_categories"]), tips, specs, subs)
}

// searchReply is a begin_search or find_keys map: type, and its spec's fields in Redis's
// order for the kind (range: lastkey, keystep, limit; keynum: keynumidx, firstkey, keystep).
func searchReply(v any, proto int) *Reply {
	m := v.(map[string]any)
	spec := m["spec"].(map[string]any)
	order := map[string][]string{"index": {"index"}, "keyword": {"keyword", "startfrom"},
		"range": {"lastkey", "keystep", "limit"}, "keynum": {"keynumidx", "firstkey", "keystep"}}[m["type"].(string)]
	var kv []any
	for _, f := range order {
		if s, ok := spec[f].(string); ok {
			kv = append(kv, f, bulkR(s))
		} else {
			kv = append(kv, f, intR(num(spec[f])))
		}
	}
	return mapReply(proto, "type", bulkR(m["type"].(string)), "spec", mapReply(proto, kv...))
}

// docsReply is a COMMAND DOCS map of a file entry.
func docsReply(e map[string]any, proto int, keep func(string) bool) *Reply {
	d := e["docs"].(map[string]any)
	var kv []any
	for _, f := range []string{"summary", "since", "group", "complexity"} {
		if s := str(d[f]); s != "" {
			kv = append(kv, f, bulkR(s))
		}
	}
	if fl := list(d["doc_flags"]); len(fl) > 0 {
		kv = append(kv, "doc_flags", simples(proto, fl))
	}
	for _, f := range []string{"deprecated_since", "replaced_by"} {
		if s := str(d[f]); s != "" {
			kv = append(kv, f, bulkR(s))
		}
	}
	if h := list(d["history"]); len(h) > 0 {
		hs := setR(proto)
		for _, line := range h {
			pair := list(line)
			hs.Elems = append(hs.Elems, arrR(bulkR(pair[0].(string)), bulkR(pair[1].(string))))
		}
		kv = append(kv, "history", hs)
	}
	if a := list(d["arguments"]); len(a) > 0 {
		kv = append(kv, "arguments", argsReply(a, proto))
	}
	var subs []any
	for _, s := range list(e["subcommands"]) {
		sm := s.(map[string]any)
		if keep(sm["name"].(string)) {
			subs = append(subs, sm["name"].(string), docsReply(sm, proto, keep))
		}
	}
	if len(subs) > 0 {
		kv = append(kv, "subcommands", mapReply(proto, subs...))
	}
	return mapReply(proto, kv...)
}

func argsReply(args []any, proto int) *Reply {
	r := arrR()
	for _, a := range args {
		m := a.(map[string]any)
		typ := m["type"].(string)
		kv := []any{"name", bulkR(m["name"].(string)), "type", bulkR(typ)}
		if typ != "oneof" && typ != "block" {
			display := str(m["display_text"])
			if display == "" {
				display = m["name"].(string)
			}
			kv = append(kv, "display_text", bulkR(display))
		}
		if k, ok := m["key_spec_index"]; ok {
			kv = append(kv, "key_spec_index", intR(num(k)))
		}
		for _, f := range []string{"token", "summary", "since", "deprecated_since"} {
			if s := str(m[f]); s != "" {
				kv = append(kv, f, bulkR(s))
			}
		}
		if fl := list(m["flags"]); len(fl) > 0 {
			kv = append(kv, "flags", simples(proto, fl))
		}
		if typ == "oneof" || typ == "block" {
			kv = append(kv, "arguments", argsReply(list(m["arguments"]), proto))
		}
		r.Elems = append(r.Elems, mapReply(proto, kv...))
	}
	return r
}

// keepSubs cuts a COMMAND INFO entry's subcommands to those keep accepts (Redis has them all).
func keepSubs(entry *Reply, keep func(string) bool) {
	if entry == nil || len(entry.Elems) != 10 {
		return
	}
	subs := entry.Elems[9]
	subs.Elems = slices.DeleteFunc(subs.Elems, func(s *Reply) bool { return !keep(s.Elems[0].Str) })
}

// addDisplayText gives a 7.0 COMMAND DOCS reply 7.2's display_text (after type, for every
// argument that is not a oneof or a block) and cuts subcommands to those keep accepts.
func addDisplayText(docs *Reply, keep func(string) bool) {
	var walkDocs func(m *Reply)
	var walkArgs func(args *Reply)
	walkArgs = func(args *Reply) {
		for _, a := range args.Elems {
			var typ, name string
			var sub *Reply
			for i := 0; i+1 < len(a.Elems); i += 2 {
				switch a.Elems[i].Str {
				case "type":
					typ = a.Elems[i+1].Str
				case "name":
					name = a.Elems[i+1].Str
				case "arguments":
					sub = a.Elems[i+1]
				}
			}
			if typ == "oneof" || typ == "block" {
				walkArgs(sub)
				continue
			}
			// name and type come first: display_text goes after them.
			a.Elems = slices.Insert(a.Elems, 4, bulkR("display_text"), bulkR(name))
		}
	}
	walkDocs = func(m *Reply) {
		for i := 0; i+1 < len(m.Elems); i += 2 {
			switch m.Elems[i].Str {
			case "arguments":
				walkArgs(m.Elems[i+1])
			case "subcommands":
				subs := m.Elems[i+1]
				var kept []*Reply
				for j := 0; j+1 < len(subs.Elems); j += 2 {
					if keep(subs.Elems[j].Str) {
						walkDocs(subs.Elems[j+1])
						kept = append(kept, subs.Elems[j], subs.Elems[j+1])
					}
				}
				subs.Elems = kept
			}
		}
	}
	for i := 0; i+1 < len(docs.Elems); i += 2 {
		walkDocs(docs.Elems[i+1])
	}
}

// canonInfo renders a COMMAND INFO reply with each entry's subcommands sorted by name (Redis
// lists them in its hash table's random order).
func canonInfo(r *Reply) string {
	for _, e := range r.Elems {
		sortSubs(e)
	}
	return canon(r)
}

func sortSubs(e *Reply) {
	if e == nil || len(e.Elems) != 10 {
		return
	}
	sort.SliceStable(e.Elems[9].Elems, func(i, j int) bool {
		return e.Elems[9].Elems[i].Elems[0].Str < e.Elems[9].Elems[j].Elems[0].Str
	})
	for _, s := range e.Elems[9].Elems {
		sortSubs(s)
	}
}

// canonDocs renders a COMMAND DOCS reply with every map of subcommands sorted by name.
func canonDocs(r *Reply) string {
	var sortMap func(m *Reply)
	sortMap = func(m *Reply) {
		type pair struct{ k, v *Reply }
		var ps []pair
		for i := 0; i+1 < len(m.Elems); i += 2 {
			ps = append(ps, pair{m.Elems[i], m.Elems[i+1]})
		}
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].k.Str < ps[j].k.Str })
		m.Elems = m.Elems[:0]
		for _, p := range ps {
			m.Elems = append(m.Elems, p.k, p.v)
			for i := 0; i+1 < len(p.v.Elems); i += 2 {
				if p.v.Elems[i].Str == "subcommands" {
					sortMap(p.v.Elems[i+1])
				}
			}
		}
	}
	sortMap(r)
	return canon(r)
}

// canon renders a reply with its types, one line.
func canon(r *Reply) string {
	var b strings.Builder
	var walk func(r *Reply)
	walk = func(r *Reply) {
		b.WriteByte(r.Kind)
		switch r.Kind {
		case ':':
			b.WriteString(strconv.FormatInt(r.Int, 10))
		case '*', '%', '~':
			b.WriteString("[")
			for i, e := range r.Elems {
				if i > 0 {
					b.WriteString(" ")
				}
				walk(e)
			}
			b.WriteString("]")
		default:
			b.WriteString(strconv.Quote(r.Str))
		}
	}
	walk(r)
	return b.String()
}
