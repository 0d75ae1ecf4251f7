package server

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/querybuf"
)

func testTable() *command.Table {
	s := &Server{}
	return command.New(s.commandFamilies()...)
}

// TestRowsFromMetadata: every row Redis 7.2 has states only its name, handler, locking and the
// flags COMMAND INFO hides; arity, flags, key positions and categories come from the generated
// metadata. A row Redis has not must be a test-only one.
func TestRowsFromMetadata(t *testing.T) {
	for _, rows := range (&Server{}).commandFamilies() {
		for _, cmd := range rows {
			if command.TypedByHand(cmd, "") {
				t.Errorf("%s: types by hand what Redis's metadata says", cmd.Name)
			}
			if command.LookupMeta(cmd.Name) == nil && !strings.HasPrefix(cmd.Name, "kvtest.") {
				t.Errorf("%s: Redis 7.2 has no such command", cmd.Name)
			}
		}
	}
	tab := testTable()
	var check func(cmd *command.Command)
	check = func(cmd *command.Command) {
		if cmd.Handler == nil && len(cmd.Subcommands) == 0 {
			t.Errorf("%s: needs a handler or subcommands", cmd.FullName)
		}
		if cmd.Meta == nil || cmd.Meta.Arity != cmd.Arity {
			t.Errorf("%s: metadata %v", cmd.FullName, cmd.Meta)
		}
		for _, sub := range cmd.Subcommands {
			check(sub)
		}
	}
	for _, cmd := range tab.All() {
		check(cmd)
	}
	get := tab.ByName("get")
	if get.Arity != 2 || get.First != 1 || get.Flags&command.ReadOnly == 0 || strings.Join(get.CatNames, " ") != "@read @string @fast" {
		t.Errorf("GET from the metadata: arity %d first %d flags %b categories %v", get.Arity, get.First, get.Flags, get.CatNames)
	}
	if mset := tab.ByName("mset"); mset.Step != 2 || mset.Last != -1 {
		t.Errorf("MSET keys %d %d %d", mset.First, mset.Last, mset.Step)
	}
	if set := tab.ByFullName("config|set"); set.Flags&command.Protected == 0 || set.Flags&command.Admin == 0 {
		t.Errorf("CONFIG SET flags %b: the row's hidden flags and the metadata's", set.Flags)
	}
}

func TestDuplicateCommandPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a duplicate row did not panic")
		}
	}()
	command.New([]*command.Command{{Name: "x", Arity: 1, Handler: func(*command.Ctx) {}}}, []*command.Command{{Name: "X", Arity: 1, Handler: func(*command.Ctx) {}}})
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
		{"config nope", "", "ERR unknown subcommand 'nope'. Try CONFIG HELP."},
		{"foo a b", "", "ERR unknown command 'foo', with args beginning with: 'a' 'b' "},
		{"foo", "", "ERR unknown command 'foo', with args beginning with: "},
	}
	for _, c := range cases {
		cmd, err := tab.Lookup(parsedArgs(t, c.line))
		got := ""
		if cmd != nil {
			got = cmd.FullName
		}
		if got != c.found || err != c.err {
			t.Errorf("%q: got %q / %q, want %q / %q", c.line, got, err, c.found, c.err)
		}
	}
	args := parsedArgs(t, "GET key")
	if n := testing.AllocsPerRun(100, func() { tab.Lookup(args) }); n != 0 {
		t.Errorf("lookup allocates %v times", n)
	}
	long := parsedArgs(t, "foo "+strings.Repeat("x", 300))
	if _, err := tab.Lookup(long); len(err) > 254 {
		t.Errorf("unknown command error not truncated: %d bytes", len(err))
	}
}
