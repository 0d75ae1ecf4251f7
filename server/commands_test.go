package server

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

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

// TestCommandTableMatchesRedis compares every row with COMMAND INFO from a Redis 7 server, when
// one is installed: arity, key positions and flags. Redis 7.0 lacks a few 7.2 flags, listed.
func TestCommandTableMatchesRedis(t *testing.T) {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(path, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	rdb := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port), Protocol: 2})
	defer rdb.Close()
	ctx := context.Background()
	for i := 0; rdb.Ping(ctx).Err() != nil; i++ {
		if i > 100 {
			t.Fatal("redis-server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	tab := testTable()
	var rows []*command
	for _, c := range tab.sorted {
		rows = append(rows, c)
		rows = append(rows, c.Subcommands...)
	}
	// Flags Redis 7.2 has and 7.0.15 does not, or that kvserver sets deliberately.
	skipFlag := map[string]bool{"sentinel": true, "protected": true, "may_replicate": true}
	newIn72 := map[string]bool{"client|setinfo": true}
	for _, row := range rows {
		if newIn72[row.fullName] {
			continue
		}
		res, err := rdb.Do(ctx, "COMMAND", "INFO", row.fullName).Slice()
		if err != nil || len(res) != 1 || res[0] == nil {
			t.Errorf("%s: not in Redis (%v)", row.fullName, err)
			continue
		}
		info := res[0].([]interface{})
		if arity := info[1].(int64); arity != int64(row.Arity) {
			t.Errorf("%s: arity %d, Redis %d", row.fullName, row.Arity, arity)
		}
		if f, l, s := info[3].(int64), info[4].(int64), info[5].(int64); f != int64(row.First) || l != int64(row.Last) || s != int64(row.Step) {
			t.Errorf("%s: keys %d %d %d, Redis %d %d %d", row.fullName, row.First, row.Last, row.Step, f, l, s)
		}
		var theirs, ours []string
		for _, f := range info[2].([]interface{}) {
			if !skipFlag[f.(string)] {
				theirs = append(theirs, f.(string))
			}
		}
		for _, f := range cmdFlagNames {
			if row.Flags&f.flag != 0 && !skipFlag[f.name] {
				ours = append(ours, f.name)
			}
		}
		sort.Strings(theirs)
		sort.Strings(ours)
		if strings.Join(theirs, ",") != strings.Join(ours, ",") {
			t.Errorf("%s: flags %v, Redis %v", row.fullName, ours, theirs)
		}
	}
}
