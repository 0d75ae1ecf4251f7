package server

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/querybuf"
)

func testTable() *commandTable {
	s := &Server{}
	return newCommandTable(s.commandFamilies()...)
}

func TestCommandTableRows(t *testing.T) {
	tab := testTable()
	var check func(cmd *command)
	check = func(cmd *command) {
		if cmd.Name != strings.ToLower(cmd.Name) || cmd.Arity == 0 {
			t.Errorf("%s: bad name or arity %d", cmd.fullName, cmd.Arity)
		}
		if cmd.Proc == nil && len(cmd.Subcommands) == 0 {
			t.Errorf("%s: needs a handler or subcommands", cmd.fullName)
		}
		if cmd.First == 0 && (cmd.Last != 0 || cmd.Step != 0) {
			t.Errorf("%s: key positions without a first key", cmd.fullName)
		}
		for _, sub := range cmd.Subcommands {
			check(sub)
		}
	}
	for _, cmd := range tab.sorted {
		check(cmd)
	}
	if tab.byName["get"].cats[0] != "@read" {
		t.Errorf("GET categories %v", tab.byName["get"].cats)
	}
}

func TestDuplicateCommandPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a duplicate row did not panic")
		}
	}()
	newCommandTable([]*command{{Name: "x", Arity: 1, Proc: okCommand}}, []*command{{Name: "X", Arity: 1, Proc: okCommand}})
}

func parsedArgs(t *testing.T, line string) querybuf.Args {
	t.Helper()
	p := querybuf.NewParser(querybuf.DefaultLimits())
	if _, err := p.Parse([]byte(line + "\r\n")); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse %q: %v", line, err)
	}
	return p.Command(0)
}

func TestLookup(t *testing.T) {
	tab := testTable()
	cases := []struct{ line, found, err string }{
		{"GET k", "get", ""},
		{"gEt k", "get", ""},
		{"config GET port", "config|get", ""},
		{"config", "config", ""},
		{"config nope", "", "unknown subcommand 'nope'. Try CONFIG HELP."},
		{"foo a b", "", "unknown command 'foo', with args beginning with: 'a' 'b' "},
		{"foo", "", "unknown command 'foo', with args beginning with: "},
	}
	for _, c := range cases {
		cmd, err := tab.lookup(parsedArgs(t, c.line))
		got := ""
		if cmd != nil {
			got = cmd.fullName
		}
		if got != c.found || err != c.err {
			t.Errorf("%q: got %q / %q, want %q / %q", c.line, got, err, c.found, c.err)
		}
	}
	args := parsedArgs(t, "GET key")
	if n := testing.AllocsPerRun(100, func() { tab.lookup(args) }); n != 0 {
		t.Errorf("lookup allocates %v times", n)
	}
	long := parsedArgs(t, "foo "+strings.Repeat("x", 300))
	if _, err := tab.lookup(long); len(err) > 250 {
		t.Errorf("unknown command error not truncated: %d bytes", len(err))
	}
}

func TestParseInt(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "-5": true, "123": true, "+1": false, "01": false, "": false, "1.5": false, "-0": false, "99999999999999999999": false} {
		if _, ok := parseInt([]byte(s)); ok != want {
			t.Errorf("parseInt(%q) = %v", s, ok)
		}
	}
}
