package command

import (
	"testing"

	"github.com/kvserver/kvserver/resp"
)

// TestWriteCommandInfo: GET's and CLIENT LIST's entries byte for byte as redis-server 7.0.15
// answers them in RESP3 (sets, maps, the null of an unknown name), and in RESP2.
func TestWriteCommandInfo(t *testing.T) {
	var w resp.Writer
	w.SetProto(3)
	w.Array(2)
	WriteCommandInfo(&w, nil)
	WriteCommandInfo(&w, LookupMeta("get"))
	want := "*2\r\n_\r\n*10\r\n$3\r\nget\r\n:2\r\n~2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n~3\r\n+@read\r\n+@string\r\n+@fast\r\n~0\r\n~1\r\n%3\r\n$5\r\nflags\r\n~2\r\n+RO\r\n+access\r\n$12\r\nbegin_search\r\n%2\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n%1\r\n$5\r\nindex\r\n:1\r\n$9\r\nfind_keys\r\n%2\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n%3\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n~0\r\n"
	if got := string(w.Bytes()); got != want {
		t.Errorf("RESP3:\n got %q\nwant %q", got, want)
	}
	w.Reset()
	w.SetProto(2)
	WriteCommandInfo(&w, LookupMeta("client|list"))
	want = "*10\r\n$11\r\nclient|list\r\n:-2\r\n*4\r\n+admin\r\n+noscript\r\n+loading\r\n+stale\r\n:0\r\n:0\r\n:0\r\n*4\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n+@connection\r\n*1\r\n$23\r\nnondeterministic_output\r\n*0\r\n*0\r\n"
	if got := string(w.Bytes()); got != want {
		t.Errorf("RESP2:\n got %q\nwant %q", got, want)
	}
	// A container lists the subcommands it is given.
	w.Reset()
	cfg := LookupMeta("config")
	WriteCommandInfo(&w, cfg.WithSubcommands([]*Meta{cfg.Sub("get")}))
	v := decode(bufioReader(w.Bytes())).([]any)
	if subs := v[9].([]any); len(subs) != 1 || subs[0].([]any)[0] != "config|get" {
		t.Errorf("CONFIG's subcommands: %v", v[9])
	}
}

// TestWriteCommandDocs: GET's docs as redis-server 7.0.15 gives them, with the display_text
// Redis 7.2 adds to every argument that is not a oneof or a block.
func TestWriteCommandDocs(t *testing.T) {
	var w resp.Writer
	w.SetProto(3)
	WriteCommandDocsMap(&w, []*Meta{LookupMeta("get")})
	want := "%1\r\n$3\r\nget\r\n%5\r\n$7\r\nsummary\r\n$22\r\nGet the value of a key\r\n$5\r\nsince\r\n$5\r\n1.0.0\r\n$5\r\ngroup\r\n$6\r\nstring\r\n$10\r\ncomplexity\r\n$4\r\nO(1)\r\n$9\r\narguments\r\n*1\r\n%4\r\n$4\r\nname\r\n$3\r\nkey\r\n$4\r\ntype\r\n$3\r\nkey\r\n$12\r\ndisplay_text\r\n$3\r\nkey\r\n$14\r\nkey_spec_index\r\n:0\r\n"
	if got := string(w.Bytes()); got != want {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
	// Deprecation, history as a set, nested arguments with flags.
	w.Reset()
	WriteCommandDocs(&w, LookupMeta("setex"))
	d := decode(bufioReader(w.Bytes())).([]any)
	fields := map[any]any{}
	for i := 0; i < len(d); i += 2 {
		fields[d[i]] = d[i+1]
	}
	if fields["deprecated_since"] != "2.6.12" || fields["doc_flags"].([]any)[0] != "+deprecated" {
		t.Errorf("SETEX docs: %v", d)
	}
}

// TestCommandList: FILTERBY parsing and matching as Redis's commandListCommand.
func TestCommandList(t *testing.T) {
	cfg := LookupMeta("config")
	cmds := []*Meta{LookupMeta("get"), cfg.WithSubcommands([]*Meta{cfg.Sub("get"), cfg.Sub("set")})}
	cases := []struct {
		line string
		want []string // nil: syntax error
	}{
		{"COMMAND LIST", []string{"get", "config", "config|get", "config|set"}},
		{"COMMAND LIST FILTERBY PATTERN CONFIG*", []string{"config", "config|get", "config|set"}},
		{"COMMAND LIST filterby pattern *get", []string{"get", "config|get"}},
		{"COMMAND LIST FILTERBY ACLCAT string", []string{"get"}},
		{"COMMAND LIST FILTERBY ACLCAT @string", []string{}},
		{"COMMAND LIST FILTERBY ACLCAT ADMIN", []string{"config|get", "config|set"}},
		{"COMMAND LIST FILTERBY MODULE x", []string{}},
		{"COMMAND LIST FILTERBY NOPE x", nil},
		{"COMMAND LIST FILTERBY ACLCAT", nil},
		{"COMMAND LIST FILTERBY ACLCAT a b", nil},
		{"COMMAND LIST x", nil},
	}
	for _, c := range cases {
		f, ok := ParseListFilter(parseLine(t, c.line), 2)
		if ok != (c.want != nil) {
			t.Errorf("%s: ok %v", c.line, ok)
			continue
		}
		if !ok {
			continue
		}
		var w resp.Writer
		WriteCommandList(&w, cmds, f)
		got := decode(bufioReader(w.Bytes())).([]any)
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.line, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.line, got, c.want)
				break
			}
		}
	}
}
