package keyfamily

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// testShards is the test keyspace's shard count: enough that keys spread.
const testShards = 16

// startMs is the fake clock's start (unix ms): a whole second, far from 0.
const startMs = 1_700_000_000_000

// world is a keyspace with a fake clock, the family's table and a pipeline: what every test
// connection shares.
type world struct {
	ks    *keyspace.Keyspace
	tab   *command.Table
	p     *command.Pipeline
	cfg   *config.Config
	clock atomic.Int64 // unix ms
}

func newWorld(t testing.TB) *world {
	t.Helper()
	wd := &world{cfg: config.New()}
	wd.clock.Store(startMs)
	ks, err := keyspace.New(keyspace.Options{Shards: testShards, Clock: wd.clock.Load, ArenaReserve: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	wd.ks = ks
	wd.tab = command.New(Commands(), testRows())
	wd.p = &command.Pipeline{KS: ks}
	return wd
}

// advance moves the fake clock.
func (wd *world) advance(ms int64) { wd.clock.Add(ms) }

// testRows are commands of other families the tests need: SET key value [PX ms], GET, APPEND
// (a raw value) and SELECT db.
func testRows() []*command.Command {
	return []*command.Command{
		{Name: "set", Arity: -3, Flags: command.Write | command.DenyOOM, First: 1, Last: 1, Step: 1,
			Cats: command.CatString, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
				var at int64
				if ctx.Args.Len() == 5 && conv.EqFold(ctx.Args.Arg(3), "px") {
					ms, _ := conv.String2ll(ctx.Args.Arg(4))
					at = ctx.KS.Now() + ms
				}
				key := ctx.Args.Arg(1)
				if err := ctx.SetString(ctx.Shard(key), key, ctx.Args.Arg(2), at); err != nil {
					ctx.W.Error(err.Error())
					return
				}
				ctx.W.OK()
			}},
		{Name: "get", Arity: 2, Flags: command.ReadOnly | command.Fast, First: 1, Last: 1, Step: 1,
			Cats: command.CatString, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
				key := ctx.Args.Arg(1)
				sh := ctx.Shard(key)
				h, ok := ctx.LookupRead(sh, key)
				if !ok {
					ctx.W.Null()
					return
				}
				ctx.W.Bulk(object.Value(sh.Arena(), h, ctx.Scratch[:0]))
			}},
		{Name: "append", Arity: 3, Flags: command.Write | command.DenyOOM, First: 1, Last: 1, Step: 1,
			Cats: command.CatString, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
				key := ctx.Args.Arg(1)
				sh := ctx.Shard(key)
				h, ok := sh.LookupLocked(ctx.DB, key)
				if !ok {
					ctx.W.Error("test APPEND: no key")
					return
				}
				nh, n, err := object.Append(sh.Arena(), h, ctx.Args.Arg(2))
				if err != nil {
					ctx.W.Error(err.Error())
					return
				}
				if nh != h {
					sh.UpdateLocked(ctx.DB, key, h, nh)
				}
				ctx.W.Int(int64(n))
			}},
		{Name: "select", Arity: 2, Flags: command.Fast, Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
			db, _ := strconv.Atoi(string(ctx.Args.Arg(1)))
			ctx.DB = db
			ctx.W.OK()
		}},
	}
}

// fakeConn is an authenticated connection.
type fakeConn struct{}

func (fakeConn) AuthRequired() bool { return false }
func (fakeConn) DebugAllowed() bool { return true }

// conn is one client: its Ctx, reply writer and parser.
type conn struct {
	t      testing.TB
	wd     *world
	ctx    *command.Ctx
	w      resp.Writer
	parser *querybuf.Parser
	stats  command.KeyStats
}

func (wd *world) conn(t testing.TB) *conn {
	c := &conn{t: t, wd: wd, parser: querybuf.NewParser(querybuf.DefaultLimits())}
	c.ctx = &command.Ctx{W: &c.w, KS: wd.ks, Cfg: wd.cfg, Stats: &c.stats}
	return c
}

// do runs one command line (arguments split on spaces; "" is an empty argument) and returns
// its reply as redis-cli prints it, on one line.
func (c *conn) do(line string) string {
	c.t.Helper()
	var args []string
	for _, f := range strings.Fields(line) {
		if f == `""` {
			f = ""
		}
		args = append(args, f)
	}
	return c.doArgs(args...)
}

// doArgs runs one command given as its arguments.
func (c *conn) doArgs(args ...string) string {
	c.t.Helper()
	var req bytes.Buffer
	fmt.Fprintf(&req, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&req, "$%d\r\n%s\r\n", len(a), a)
	}
	c.parser.ResetCommands()
	if _, err := c.parser.Parse(req.Bytes()); err != nil || c.parser.NumCommands() != 1 {
		c.t.Fatalf("parse %q: %v", args, err)
	}
	parsed := c.parser.Command(0)
	cmd, lookupErr := c.wd.tab.Lookup(parsed)
	c.ctx.Args, c.ctx.Cmd = parsed, cmd
	c.w.Reset()
	c.wd.p.Run(c.ctx, fakeConn{}, lookupErr, false)
	out, rest := formatReply(c.w.Bytes())
	if len(rest) != 0 {
		c.t.Fatalf("%q: trailing reply bytes %q", args, rest)
	}
	return out
}

// script runs "command -> reply" lines and checks each reply.
func (c *conn) script(lines string) {
	c.t.Helper()
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		line, want, ok := strings.Cut(l, " -> ")
		if !ok {
			c.t.Fatalf("bad script line %q", l)
		}
		if got := c.do(line); got != want {
			c.t.Errorf("%s: got %s, want %s", line, got, want)
		}
	}
}

// formatReply renders one RESP2 reply as redis-cli does, arrays as [a, b], and returns the
// bytes after it.
func formatReply(b []byte) (string, []byte) {
	if len(b) == 0 {
		return "<no reply>", nil
	}
	end := bytes.Index(b, []byte("\r\n"))
	if end < 0 {
		return "<partial " + string(b) + ">", nil
	}
	line, rest := string(b[1:end]), b[end+2:]
	switch b[0] {
	case '+':
		return line, rest
	case '-':
		return "(error) " + line, rest
	case ':':
		return "(integer) " + line, rest
	case '$':
		n, _ := strconv.Atoi(line)
		if n < 0 {
			return "(nil)", rest
		}
		return strconv.Quote(string(rest[:n])), rest[n+2:]
	case '*':
		n, _ := strconv.Atoi(line)
		if n < 0 {
			return "(nil)", rest
		}
		elems := make([]string, n)
		for i := range elems {
			elems[i], rest = formatReply(rest)
		}
		return "[" + strings.Join(elems, ", ") + "]", rest
	}
	return "<bad reply " + string(b) + ">", nil
}

// keyInShard returns a key named prefix… whose shard is i.
func (wd *world) keyInShard(prefix string, i int) string {
	for n := 0; ; n++ {
		k := prefix + strconv.Itoa(n)
		if wd.ks.ShardFor([]byte(k)) == i {
			return k
		}
	}
}

// keysInDistinctShards returns n keys named prefix…, each in a different shard.
func (wd *world) keysInDistinctShards(prefix string, n int) []string {
	seen := map[int]bool{}
	var keys []string
	for i := 0; len(keys) < n; i++ {
		k := prefix + strconv.Itoa(i)
		if s := wd.ks.ShardFor([]byte(k)); !seen[s] {
			seen[s] = true
			keys = append(keys, k)
		}
	}
	return keys
}
