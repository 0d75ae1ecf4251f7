package keyfamily

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/command"
)

// TestRows: every row has a handler (or subcommands), LockFunc rows a Shards function, and the
// table takes them all.
func TestRows(t *testing.T) {
	var check func(rows []*command.Command)
	check = func(rows []*command.Command) {
		for _, r := range rows {
			switch {
			case r.Subcommands != nil:
				check(r.Subcommands)
			case r.Handler == nil:
				t.Errorf("%s: no handler", r.Name)
			case (r.Locking == command.LockFunc) != (r.Shards != nil):
				t.Errorf("%s: Locking %d with Shards %v", r.Name, r.Locking, r.Shards != nil)
			}
		}
	}
	check(Commands())
	tab := command.New(Commands())
	for name, cats := range map[string]string{
		"del":         "@keyspace @write @slow",
		"exists":      "@keyspace @read @fast",
		"flushall":    "@keyspace @write @slow @dangerous",
		"keys":        "@keyspace @read @slow @dangerous",
		"scan":        "@keyspace @read @slow",
		"swapdb":      "@keyspace @write @fast @dangerous",
		"object|help": "@keyspace @slow",
	} {
		cmd := tab.ByFullName(name)
		if cmd == nil {
			t.Errorf("%s: not in the table", name)
			continue
		}
		if got := strings.Join(cmd.CatNames, " "); !sameWords(got, cats) {
			t.Errorf("%s: categories %q, want %q", name, got, cats)
		}
	}
}

func sameWords(a, b string) bool {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) != len(wb) {
		return false
	}
	seen := map[string]int{}
	for _, w := range wa {
		seen[w]++
	}
	for _, w := range wb {
		if seen[w]--; seen[w] < 0 {
			return false
		}
	}
	return true
}

func TestDelExistsTouchType(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	keys := wd.keysInDistinctShards("k", 4)
	c.script(`
SET ` + keys[0] + ` 1 -> OK
SET ` + keys[1] + ` 2 -> OK
SET ` + keys[2] + ` 3 -> OK
EXISTS ` + keys[0] + ` ` + keys[1] + ` ` + keys[3] + ` -> (integer) 2
EXISTS ` + keys[0] + ` ` + keys[0] + ` ` + keys[0] + ` -> (integer) 3
TOUCH ` + keys[0] + ` ` + keys[0] + ` ` + keys[3] + ` -> (integer) 2
TYPE ` + keys[0] + ` -> string
TYPE ` + keys[3] + ` -> none
DEL ` + keys[0] + ` ` + keys[1] + ` ` + keys[3] + ` ` + keys[0] + ` -> (integer) 2
UNLINK ` + keys[2] + ` ` + keys[2] + ` -> (integer) 1
DBSIZE -> (integer) 0
DEL -> (error) ERR wrong number of arguments for 'del' command
TYPE a b -> (error) ERR wrong number of arguments for 'type' command
EXISTS -> (error) ERR wrong number of arguments for 'exists' command
`)
	// Binary-safe keys, the empty one included.
	if got := c.doArgs("SET", "", "empty"); got != "OK" {
		t.Fatal(got)
	}
	if got := c.doArgs("SET", "a b\x00\xff", "bin"); got != "OK" {
		t.Fatal(got)
	}
	if got := c.doArgs("EXISTS", "", "a b\x00\xff", "a b"); got != "(integer) 2" {
		t.Errorf("EXISTS binary: %s", got)
	}
	if got := c.doArgs("DEL", "", "a b\x00\xff"); got != "(integer) 2" {
		t.Errorf("DEL binary: %s", got)
	}

	// EXISTS, TOUCH and TYPE count hits and misses; DEL does not.
	hits, misses := c.stats.Hits.Load(), c.stats.Misses.Load()
	if hits != 10 || misses != 4 {
		t.Errorf("hits %d misses %d, want 10 and 4", hits, misses)
	}
}

// TestDelExpired: a key whose time has passed is not counted as deleted (it expires first), and
// no command sees it.
func TestDelExpired(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET gone v PX 10 -> OK
SET gone2 v PX 10 -> OK
SET gone3 v PX 10 -> OK
DBSIZE -> (integer) 3
`)
	wd.advance(10)
	c.script(`EXISTS gone -> (integer) 1`)
	wd.advance(1)
	c.script(`
DBSIZE -> (integer) 3
DEL gone -> (integer) 0
UNLINK gone2 -> (integer) 0
TYPE gone3 -> none
DBSIZE -> (integer) 0
`)
}
