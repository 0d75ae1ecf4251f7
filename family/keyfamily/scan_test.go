package keyfamily

import (
	"fmt"
	"github.com/kvserver/kvserver/family/scanargs"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// scanReply splits a SCAN reply as formatReply prints it: the cursor and the keys.
func scanReply(t *testing.T, reply string) (string, []string) {
	t.Helper()
	cur, rest, ok := strings.Cut(strings.TrimPrefix(reply, "["), ", ")
	if !ok || !strings.HasSuffix(rest, "]]") {
		t.Fatalf("not a SCAN reply: %s", reply)
	}
	cur, _ = strconv.Unquote(cur)
	rest = strings.TrimSuffix(strings.TrimPrefix(rest, "["), "]]")
	var keys []string
	if rest != "" {
		for _, k := range strings.Split(rest, ", ") {
			k, _ = strconv.Unquote(k)
			keys = append(keys, k)
		}
	}
	return cur, keys
}

// scanAll runs a whole SCAN with the given options and returns every key it returned, and how
// many calls it took.
func scanAll(t *testing.T, c *conn, opts string) ([]string, int) {
	t.Helper()
	var all []string
	cursor, calls := "0", 0
	for {
		next, keys := scanReply(t, c.do("SCAN "+cursor+" "+opts))
		all = append(all, keys...)
		calls++
		if next == "0" {
			return all, calls
		}
		if calls > 100000 {
			t.Fatal("SCAN does not end")
		}
		cursor = next
	}
}

func TestScanSmall(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
SCAN 0 -> ["0", []]
SCAN -1 -> ["0", []]
SCAN 18446744073709551615 -> ["0", []]
SCAN 9223372036854775808 -> ["0", []]
SET sc:1 a -> OK
SCAN 0 COUNT 1000 -> ["0", ["sc:1"]]
SCAN 0 MATCH sc:* COUNT 1000 -> ["0", ["sc:1"]]
SCAN 0 MATCH nomatch* COUNT 1000 -> ["0", []]
SCAN 0 MATCH * COUNT 1000 -> ["0", ["sc:1"]]
SCAN 0 TYPE string COUNT 1000 -> ["0", ["sc:1"]]
SCAN 0 TYPE STRING COUNT 1000 -> ["0", ["sc:1"]]
SCAN 0 TYPE list COUNT 1000 -> ["0", []]
SCAN 0 TYPE nosuchtype COUNT 1000 -> ["0", []]
SCAN 0 COUNT 1000 MATCH sc:? TYPE string COUNT 5 COUNT 1000 -> ["0", ["sc:1"]]
SCAN "" COUNT 1000 -> ["0", ["sc:1"]]
SCAN +0 COUNT 1000 -> ["0", ["sc:1"]]
SCAN -0 COUNT 1000 -> ["0", ["sc:1"]]
SCAN 000 COUNT 1000 -> ["0", ["sc:1"]]
SCAN 9223372036854775808 COUNT 1000 -> ["0", ["sc:1"]]
SCAN -9223372036854775808 COUNT 1000 -> ["0", ["sc:1"]]
SCAN 0 -> ["0", ["sc:1"]]
SCAN x -> (error) ERR invalid cursor
SCAN -18446744073709551616 -> (error) ERR invalid cursor
SCAN 99999999999999999999 -> (error) ERR invalid cursor
SCAN 1.5 -> (error) ERR invalid cursor
SCAN - -> (error) ERR invalid cursor
SCAN 18446744073709551616 -> (error) ERR invalid cursor
SCAN 0 COUNT 0 -> (error) ERR syntax error
SCAN 0 COUNT -1 -> (error) ERR syntax error
SCAN 0 COUNT x -> (error) ERR value is not an integer or out of range
SCAN 0 COUNT -> (error) ERR syntax error
SCAN 0 MATCH -> (error) ERR syntax error
SCAN 0 TYPE -> (error) ERR syntax error
SCAN 0 FOO bar -> (error) ERR syntax error
SCAN x COUNT 0 -> (error) ERR invalid cursor
SCAN 0 COUNT x MATCH -> (error) ERR value is not an integer or out of range
SCAN -> (error) ERR wrong number of arguments for 'scan' command
`)
	c := wd.conn(t)
	for _, arg := range []string{" 0", "0 ", "\x00"} {
		want := "(error) ERR invalid cursor"
		if arg == "\x00" {
			want = `["0", ["sc:1"]]` // the cursor ends at its NUL: ""
		}
		if got := c.doArgs("SCAN", arg, "COUNT", "1000"); got != want {
			t.Errorf("SCAN %q: %s, want %s", arg, got, want)
		}
	}
}

// TestScanAcrossShards: a whole SCAN returns every key once or more, with cursors that go on
// from shard to shard, whatever COUNT; SCAN TYPE counts a keyspace hit per key it checks.
func TestScanAcrossShards(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	const n = 2000
	want := make([]string, 0, n)
	for i := range n {
		k := fmt.Sprintf("k:%d", i)
		want = append(want, k)
		c.do("SET " + k + " v")
	}
	slices.Sort(want)
	for _, opts := range []string{"COUNT 1", "COUNT 7", "", "COUNT 100", "COUNT 5000", "MATCH k:1* COUNT 50", "TYPE string COUNT 30"} {
		got, calls := scanAll(t, c, opts)
		slices.Sort(got)
		got = slices.Compact(got)
		exp := want
		if strings.HasPrefix(opts, "MATCH") {
			exp = nil
			for _, k := range want {
				if strings.HasPrefix(k, "k:1") {
					exp = append(exp, k)
				}
			}
		}
		if !slices.Equal(got, exp) {
			t.Errorf("SCAN %s: %d distinct keys, want %d", opts, len(got), len(exp))
		}
		if opts == "COUNT 5000" && calls != 1 {
			t.Errorf("SCAN COUNT 5000 over %d keys took %d calls, want 1", n, calls)
		}
		if opts == "COUNT 1" && calls < n/16 { // a call returns a whole bucket chain: up to 16 keys
			t.Errorf("SCAN COUNT 1 over %d keys took %d calls", n, calls)
		}
	}
	if hits := c.stats.Hits.Load(); hits < n {
		t.Errorf("SCAN TYPE counted %d hits, want at least %d", hits, n)
	}

	// A cursor at a shard's start: the shard's keys come first.
	for si := range testShards {
		cur := strconv.FormatUint(uint64(si)<<scanShardShift, 10)
		_, keys := scanReply(t, c.do("SCAN "+cur+" COUNT 1"))
		if len(keys) == 0 || wd.ks.ShardFor([]byte(keys[0])) != si {
			t.Errorf("SCAN %s: keys %v, want keys of shard %d", cur, keys, si)
		}
	}
}

// TestScanCursorLayout: the family reads the keyspace's SCAN cursor as the keyspace writes it:
// a whole scan by keyspace.Scan and one through the pipeline step through the same cursors.
func TestScanCursorLayout(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	for i := range 300 {
		c.do(fmt.Sprintf("SET lay:%d v", i))
	}
	// COUNT 5: few enough keys per call that every call stays in the cursor's shard both ways.
	ksCursor, same := uint64(0), 0
	for calls := 0; ; calls++ {
		var ksKeys []string
		next := wd.ks.Scan(0, ksCursor, 5, func(s *keyspace.Shard, h alloc.Handle) {
			ksKeys = append(ksKeys, string(object.Key(s.Arena(), h)))
		})
		cur, keys := scanReply(t, c.do("SCAN "+strconv.FormatUint(ksCursor, 10)+" COUNT 5"))
		// The pipeline's SCAN may stop at the end of the shards it holds where keyspace.Scan
		// goes on: the keys agree as far as both go, the cursors when both return as many.
		m := min(len(keys), len(ksKeys))
		if !slices.Equal(keys[:m], ksKeys[:m]) {
			t.Fatalf("cursor %d: SCAN %v, keyspace.Scan %v", ksCursor, keys, ksKeys)
		}
		if len(keys) == len(ksKeys) && cur != strconv.FormatUint(next, 10) {
			t.Fatalf("cursor %d: SCAN's next %s, keyspace.Scan's %d", ksCursor, cur, next)
		}
		if len(keys) == len(ksKeys) {
			same++
		}
		if next == 0 {
			break
		}
		ksCursor = next
	}
	if same < 20 {
		t.Errorf("only %d calls of the scan agreed in full", same)
	}
}

// TestScanExpired: SCAN leaves out keys whose time has passed, and removes them.
func TestScanExpired(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	for i := range 7 {
		c.do(fmt.Sprintf("SET lz:%d v PX 1", i))
	}
	c.do("SET lz:keep v")
	wd.advance(2)
	c.script(`
DBSIZE -> (integer) 8
SCAN 0 COUNT 1000 -> ["0", ["lz:keep"]]
DBSIZE -> (integer) 1
`)
}

func TestKeys(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET k:1 a -> OK
SET k:2 b -> OK
SET k:10 c -> OK
SET other d -> OK
SET a*b star -> OK
KEYS k:1 -> ["k:1"]
KEYS k:?0 -> ["k:10"]
KEYS nomatch* -> []
KEYS o*r -> ["other"]
KEYS k:[!2] -> ["k:2"]
KEYS k:[^12]* -> []
KEYS a\*b -> ["a*b"]
KEYS *\** -> ["a*b"]
KEYS K:1 -> []
KEYS -> (error) ERR wrong number of arguments for 'keys' command
KEYS a b -> (error) ERR wrong number of arguments for 'keys' command
`)
	c.doArgs("SET", "", "empty")
	if got := c.doArgs("KEYS", ""); got != `[""]` {
		t.Errorf(`KEYS "": %s`, got)
	}
	for pattern, n := range map[string]int{"*": 6, "k:*": 3, "k:[12]": 2, "?*": 5} {
		if got := strings.Count(c.do("KEYS "+pattern), `"`) / 2; got != n {
			t.Errorf("KEYS %s: %d keys, want %d", pattern, got, n)
		}
	}
	// Keys whose time has passed are left out.
	c.do("SET gone v PX 1")
	wd.advance(2)
	if got := strings.Count(c.do("KEYS *"), `"`) / 2; got != 6 {
		t.Errorf("KEYS * after an expiry: %d keys, want 6", got)
	}
}

// TestScanShards: SCAN holds its cursor's shard, and the following ones only while COUNT asks
// for more keys than those hold; invalid arguments hold nothing.
func TestScanShards(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	for i := range 1600 {
		c.do(fmt.Sprintf("SET ss:%d v", i)) // about 100 keys a shard
	}
	for _, tc := range []struct {
		args []string
		want int // shards held
	}{
		{[]string{"SCAN", "0"}, 1},
		{[]string{"SCAN", strconv.FormatUint(3<<scanShardShift|5, 10), "COUNT", "50"}, 1},
		{[]string{"SCAN", "0", "COUNT", "100000"}, testShards},
		{[]string{"SCAN", strconv.FormatUint(15<<scanShardShift, 10), "COUNT", "100000"}, 1},
		{[]string{"SCAN", "x"}, 0},
		{[]string{"SCAN", "0", "COUNT", "0"}, 0},
	} {
		c.parser.ResetCommands()
		req := fmt.Sprintf("*%d\r\n", len(tc.args))
		for _, a := range tc.args {
			req += fmt.Sprintf("$%d\r\n%s\r\n", len(a), a)
		}
		if _, err := c.parser.Parse([]byte(req)); err != nil {
			t.Fatal(err)
		}
		c.ctx.Args = c.parser.Command(0)
		held := scanShards(c.ctx, nil)
		if len(held) != tc.want {
			t.Errorf("%v: holds %v, want %d shards", tc.args, held, tc.want)
		}
		for i, s := range held {
			if want := cursorShard(mustCursor(tc.args[1]), testShards) + i; s != want {
				t.Errorf("%v: holds %v, want a run from the cursor's shard", tc.args, held)
				break
			}
		}
	}
}

func mustCursor(s string) uint64 {
	v, _ := scanargs.ParseCursor([]byte(s))
	return v
}
