package debugfamily

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kvserver/kvserver/command"
)

// TestRows: every row has a handler and a locking that suits it; DEBUG is the pipeline's
// debug row and keeps its protected flag.
func TestRows(t *testing.T) {
	tab := command.New(Commands(&fakeServer{}))
	for _, r := range tab.All() {
		rows := append([]*command.Command{r}, r.Subcommands...)
		for _, row := range rows {
			if row.Handler == nil && len(row.Subcommands) == 0 {
				t.Errorf("%s: no handler", row.FullName)
			}
			if (row.Locking == command.LockFunc) != (row.Shards != nil) {
				t.Errorf("%s: Locking %d", row.FullName, row.Locking)
			}
		}
	}
	dbg := tab.ByName("debug")
	if !dbg.IsDebug || dbg.Flags&command.Protected == 0 || dbg.Arity != -2 {
		t.Errorf("debug row: IsDebug %v, flags %b, arity %d", dbg.IsDebug, dbg.Flags, dbg.Arity)
	}
	for _, name := range []string{"memory|stats", "memory|doctor", "memory|malloc-stats"} {
		if tab.ByFullName(name).Locking != command.LockAll {
			t.Errorf("%s does not lock every shard", name)
		}
	}
}

// TestDebugShards: what DEBUG locks, by subcommand.
func TestDebugShards(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	all := make([]int, testShards)
	for i := range all {
		all[i] = i
	}
	shard := func(k string) int { return wd.ks.ShardFor([]byte(k)) }
	for _, tc := range []struct {
		line string
		want []int
	}{
		{"DEBUG OBJECT k", []int{shard("k")}},
		{"DEBUG object k x", nil},
		{"DEBUG DIGEST-VALUE a b", []int{shard("a"), shard("b")}},
		{"DEBUG DIGEST-VALUE", nil},
		{"DEBUG DIGEST", all},
		{"DEBUG digest x", nil},
		{"DEBUG POPULATE 10", all},
		{"DEBUG POPULATE 10 p 5", all},
		{"DEBUG POPULATE 10 p 5 x", nil},
		{"DEBUG SLEEP 1", nil},
		{"DEBUG PROTOCOL map", nil},
		{"DEBUG HELP", nil},
	} {
		args := strings.Fields(tc.line)
		c.raw(args...) // sets ctx.Args to a parsed line
		got := debugShards(c.ctx, nil)
		slices.Sort(got)
		got = slices.Compact(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		want = slices.Compact(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: locks %v, want %v", tc.line, got, want)
		}
	}
}

// TestDebugServerCalls: the subcommands that act on the server reach it with Redis's
// parsing of their arguments (strtod, atoi).
func TestDebugServerCalls(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
DEBUG SLEEP 1.5 -> OK
DEBUG SLEEP abc -> OK
DEBUG SLEEP 0 -> OK
DEBUG SLEEP -1 -> OK
DEBUG SLEEP 2e-3 -> OK
DEBUG PAUSE-CRON 1 -> OK
DEBUG SET-ACTIVE-EXPIRE 0 -> OK
DEBUG LOG hello -> OK
DEBUG CHANGE-REPL-ID -> OK
`)
	if want := []time.Duration{1500 * time.Millisecond, 2 * time.Millisecond}; !slices.Equal(wd.srv.slept, want) {
		t.Errorf("slept %v, want %v", wd.srv.slept, want)
	}
	if !wd.srv.cronPaused || wd.srv.activeExpire || !slices.Equal(wd.srv.logged, []string{"hello"}) || wd.srv.replIDs != 1 {
		t.Errorf("server state: %+v", wd.srv)
	}
	c.script(`
DEBUG PAUSE-CRON 0 -> OK
DEBUG SET-ACTIVE-EXPIRE 1 -> OK
DEBUG set-active-expire foo -> OK
`)
	if wd.srv.cronPaused || wd.srv.activeExpire {
		t.Errorf("server state: %+v", wd.srv)
	}
	c.script(`
DEBUG CHANGE-REPL-ID x -> (error) ERR unknown subcommand or wrong number of arguments for 'CHANGE-REPL-ID'. Try DEBUG HELP.
DEBUG LOG -> (error) ERR unknown subcommand or wrong number of arguments for 'LOG'. Try DEBUG HELP.
DEBUG PAUSE-CRON -> (error) ERR unknown subcommand or wrong number of arguments for 'PAUSE-CRON'. Try DEBUG HELP.
DEBUG SLEEP -> (error) ERR unknown subcommand or wrong number of arguments for 'SLEEP'. Try DEBUG HELP.
DEBUG NOSUCH -> (error) ERR unknown subcommand or wrong number of arguments for 'NOSUCH'. Try DEBUG HELP.
DEBUG -> (error) ERR wrong number of arguments for 'debug' command
`)
	if wd.srv.replIDs != 1 || len(wd.srv.logged) != 1 {
		t.Errorf("a refused line reached the server: %+v", wd.srv)
	}
}

// TestDebugHelp: Redis's layout, the subcommands kvserver has.
func TestDebugHelp(t *testing.T) {
	c := newWorld(t).conn(t)
	help := c.do("DEBUG HELP")
	for _, want := range []string{"[DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:, CHANGE-REPL-ID,",
		"DIGEST-VALUE <key> [<key> ...]", "POPULATE <count> [<prefix>] [<size>]", "PROTOCOL <type>",
		"SLEEP <seconds>", "PAUSE-CRON <0|1>", ", HELP,     Prints this help.]"} {
		if !strings.Contains(help, want) {
			t.Errorf("DEBUG HELP lacks %q: %s", want, help)
		}
	}
	c.script(`DEBUG HELP x -> (error) ERR unknown subcommand or wrong number of arguments for 'HELP'. Try DEBUG HELP.`)
}

// TestDebugObject: the status line's fields, and the lookup that neither expires nor counts.
func TestDebugObject(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET o:s hello -> OK
SET o:i 123 -> OK
DEBUG OBJECT o:missing -> (error) ERR no such key
`)
	c.do("SET o:gone v PX 1")
	wd.advance(10)
	for key, want := range map[string]string{
		"o:s":    "refcount:1 encoding:embstr serializedlength:6 lru:",
		"o:i":    "refcount:2147483647 encoding:int serializedlength:2 lru:",
		"o:gone": "refcount:1 encoding:embstr serializedlength:2 lru:",
	} {
		got := c.do("DEBUG OBJECT " + key)
		if !strings.HasPrefix(got, "Value at:0x") || !strings.Contains(got, want) || !strings.Contains(got, " lru_seconds_idle:") {
			t.Errorf("DEBUG OBJECT %s: %s", key, got)
		}
	}
	if c.stats.Hits.Load() != 0 || c.stats.Misses.Load() != 0 {
		t.Errorf("DEBUG OBJECT counted hits %d, misses %d", c.stats.Hits.Load(), c.stats.Misses.Load())
	}
}
