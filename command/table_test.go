package command

import (
	"testing"

	"github.com/kvserver/kvserver/querybuf"
)

// line parses one command line given as its arguments.
func line(t *testing.T, args ...string) querybuf.Args {
	t.Helper()
	req := []byte{}
	req = append(req, '*', byte('0'+len(args)), '\r', '\n')
	for _, a := range args {
		req = append(req, '$', byte('0'+len(a)), '\r', '\n')
		req = append(req, a...)
		req = append(req, '\r', '\n')
	}
	p := querybuf.NewParser(querybuf.DefaultLimits())
	if _, err := p.Parse(req); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse %q: %v", args, err)
	}
	return p.Command(0)
}

// LookupAfter takes the row before only when the name is its typed name, in any case, and
// never for a container or a subcommand; a renamed row answers to its new name only.
func TestLookupAfter(t *testing.T) {
	noop := func(*Ctx) {}
	tab := New([]*Command{
		{Name: "get", Arity: 2, Handler: noop},
		{Name: "set", Arity: -3, Handler: noop},
		{Name: "config", Subcommands: []*Command{
			{Name: "get", Arity: -3, Handler: noop},
			{Name: "set", Arity: -4, Handler: noop},
		}},
	})
	get, set := tab.ByName("get"), tab.ByName("set")
	cfgGet, cfgSet := tab.ByFullName("config|get"), tab.ByFullName("config|set")
	cases := []struct {
		args []string
		last *Command
		want *Command
	}{
		{[]string{"GET", "k"}, get, get},
		{[]string{"gEt", "k"}, get, get},
		{[]string{"SET", "k", "v"}, get, set},
		{[]string{"GETX", "k"}, get, nil},
		{[]string{"GE", "k"}, get, nil},
		{[]string{"config", "set", "a", "b"}, cfgGet, cfgSet},
		{[]string{"get", "k"}, cfgGet, get}, // a subcommand's bare name is not a top-level command
	}
	for _, tc := range cases {
		got, _ := tab.LookupAfter(line(t, tc.args...), tc.last)
		if got != tc.want {
			t.Errorf("%q after %v: %v, want %v", tc.args, tc.last.FullName, got, tc.want)
		}
	}
	if err := tab.Rename("get", "fetch"); err != nil {
		t.Fatal(err)
	}
	if got, _ := tab.LookupAfter(line(t, "get", "k"), get); got != nil {
		t.Errorf("GET after rename-command get fetch found %v, want nothing", got.FullName)
	}
	if got, _ := tab.LookupAfter(line(t, "FETCH", "k"), get); got != get {
		t.Errorf("FETCH after rename-command get fetch found %v, want get", got)
	}
	if err := tab.Rename("set", ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := tab.LookupAfter(line(t, "set", "k", "v"), set); got != nil {
		t.Errorf("SET after its removal found %v, want nothing", got.FullName)
	}
}
