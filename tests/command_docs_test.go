package tests

import (
	"strings"
	"testing"
)

// replyMap turns a map reply (RESP2 flat array or RESP3 map) into a Go map.
func replyMap(t testing.TB, r *Reply) map[string]*Reply {
	t.Helper()
	if (r.Kind != '*' && r.Kind != '%') || len(r.Elems)%2 != 0 {
		t.Fatalf("not a map: %s", formatReply(r, false))
	}
	m := map[string]*Reply{}
	for i := 0; i < len(r.Elems); i += 2 {
		m[r.Elems[i].Str] = r.Elems[i+1]
	}
	return m
}

// TestCommandDocs: COMMAND DOCS answers Redis's documentation shape (what redis-cli builds
// its help and hints from) for every command, in RESP2 and RESP3.
func TestCommandDocs(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	for _, proto := range []string{"2", "3"} {
		c := srv.RawConn(t)
		if r := c.Do("HELLO", proto); r.Kind == '-' {
			t.Fatalf("HELLO %s: %s", proto, r.Str)
		}
		docs := replyMap(t, c.Do("COMMAND", "DOCS", "get", "nosuchcommand", "CONFIG|GET", "set"))
		if len(docs) != 3 {
			t.Fatalf("RESP%s: %d entries, want get, config|get and set", proto, len(docs))
		}
		get := replyMap(t, docs["get"])
		if get["summary"] == nil || get["summary"].Str == "" || get["since"].Str != "1.0.0" || get["group"].Str != "string" || get["complexity"].Str != "O(1)" {
			t.Errorf("RESP%s: GET's docs: %s", proto, formatReply(docs["get"], false))
		}
		args := get["arguments"]
		if args == nil || len(args.Elems) != 1 {
			t.Fatalf("RESP%s: GET's arguments: %s", proto, formatReply(docs["get"], false))
		}
		key := replyMap(t, args.Elems[0])
		if key["name"].Str != "key" || key["type"].Str != "key" || key["key_spec_index"].Int != 0 {
			t.Errorf("RESP%s: GET's key argument: %s", proto, formatReply(args.Elems[0], false))
		}
		if cg := replyMap(t, docs["config|get"]); cg["group"].Str != "server" {
			t.Errorf("RESP%s: config|get: %s", proto, formatReply(docs["config|get"], false))
		}
		set := replyMap(t, docs["set"])
		var tokens []string
		var walk func(r *Reply)
		walk = func(r *Reply) {
			for _, a := range r.Elems {
				m := replyMap(t, a)
				if tok := m["token"]; tok != nil {
					tokens = append(tokens, tok.Str)
				}
				if sub := m["arguments"]; sub != nil {
					walk(sub)
				}
			}
		}
		walk(set["arguments"])
		if got := strings.Join(tokens, " "); got != "NX XX GET EX PX EXAT PXAT KEEPTTL" {
			t.Errorf("RESP%s: SET's tokens %q", proto, got)
		}
		if h := set["history"]; h == nil || len(h.Elems) < 4 || len(h.Elems[0].Elems) != 2 {
			t.Errorf("RESP%s: SET's history: %s", proto, formatReply(h, false))
		}
	}
	// Every command has an entry; containers list their subcommands.
	c := srv.RawConn(t)
	all := replyMap(t, c.Do("COMMAND", "DOCS"))
	list := c.Do("COMMAND", "LIST")
	for _, n := range list.Elems {
		if !strings.Contains(n.Str, "|") && all[n.Str] == nil {
			t.Errorf("COMMAND DOCS has no entry for %s", n.Str)
		}
	}
	cfg := replyMap(t, all["config"])
	if subs := cfg["subcommands"]; subs == nil || replyMap(t, subs)["config|get"] == nil {
		t.Errorf("CONFIG's subcommands: %s", formatReply(all["config"], false))
	}
	if r := c.Do("COMMAND", "DOCS", "nosuch"); len(r.Elems) != 0 {
		t.Errorf("COMMAND DOCS nosuch: %s", formatReply(r, false))
	}
	// redis-cli asks for the docs at start and prints them for `help`.
	out := srv.CLI(t, "COMMAND", "DOCS", "echo")
	if !strings.Contains(out, "summary") || !strings.Contains(out, "message") {
		t.Errorf("redis-cli COMMAND DOCS echo:\n%s", out)
	}
}
