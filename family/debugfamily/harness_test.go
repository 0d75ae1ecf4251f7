package debugfamily

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// testShards is the test keyspace's shard count: enough that keys spread.
const testShards = 8

// startMs is the fake clock's start (unix ms).
const startMs = 1_700_000_000_000

// fakeServer is the family's Server for tests: it records what the commands asked.
type fakeServer struct {
	slept        []time.Duration
	cronPaused   bool
	activeExpire bool
	logged       []string
	replIDs      int
	mem          ServerMemory
	clientArena  *alloc.Arena
	saves, loads int
}

func (s *fakeServer) Sleep(d time.Duration)   { s.slept = append(s.slept, d) }
func (s *fakeServer) PauseCron(p bool)        { s.cronPaused = p }
func (s *fakeServer) SetActiveExpire(on bool) { s.activeExpire = on }
func (s *fakeServer) Log(msg []byte)          { s.logged = append(s.logged, string(msg)) }
func (s *fakeServer) ChangeReplID()           { s.replIDs++ }
func (s *fakeServer) Memory() ServerMemory    { return s.mem }
func (s *fakeServer) WithClientArena(fn func(a *alloc.Arena)) {
	fn(s.clientArena)
}
func (s *fakeServer) SaveLocked() error     { s.saves++; return nil }
func (s *fakeServer) FlushFunctions()       {}
func (s *fakeServer) LoadLocked(bool) error { s.loads++; return nil }

// world is a keyspace with a fake clock, the family's table with a few rows of other families,
// a pipeline and the fake server.
type world struct {
	ks    *keyspace.Keyspace
	tab   *command.Table
	p     *command.Pipeline
	cfg   *config.Config
	srv   *fakeServer
	clock atomic.Int64 // unix ms
}

func newWorld(t testing.TB) *world {
	t.Helper()
	wd := &world{cfg: config.New(), srv: &fakeServer{activeExpire: true}}
	wd.clock.Store(startMs)
	ks, err := keyspace.New(keyspace.Options{Shards: testShards, Clock: wd.clock.Load, ArenaReserve: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	wd.srv.clientArena = alloc.MustNewArena(4 << 20)
	t.Cleanup(wd.srv.clientArena.Close)
	wd.ks = ks
	wd.tab = command.New(Commands(wd.srv), testRows())
	wd.p = &command.Pipeline{KS: ks}
	return wd
}

// advance moves the fake clock.
func (wd *world) advance(ms int64) { wd.clock.Add(ms) }

// testRows are commands of other families the tests need: SET key value [PX ms], GET,
// SELECT db, DEL key.
func testRows() []*command.Command {
	return []*command.Command{
		{Name: "set", Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
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
		{Name: "get", Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
			key := ctx.Args.Arg(1)
			sh := ctx.Shard(key)
			h, ok := ctx.LookupRead(sh, key)
			if !ok {
				ctx.W.Null()
				return
			}
			ctx.W.Bulk(object.Value(sh.Arena(), h, ctx.Scratch[:0]))
		}},
		{Name: "del", Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
			key := ctx.Args.Arg(1)
			n := int64(0)
			if ctx.Shard(key).DeleteLocked(ctx.DB, key) {
				n = 1
			}
			ctx.W.Int(n)
		}},
		{Name: "select", Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
			db, _ := strconv.Atoi(string(ctx.Args.Arg(1)))
			ctx.DB = db
			ctx.W.OK()
		}},
	}
}

// fakeConn is an authenticated connection allowed to run DEBUG.
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

// raw runs one command given as its arguments and returns its reply's bytes.
func (c *conn) raw(args ...string) []byte {
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
	c.wd.p.RunRecovered(c.ctx, fakeConn{}, lookupErr, false)
	return append([]byte(nil), c.w.Bytes()...)
}

// do runs one command line (arguments split on spaces) and returns its reply as redis-cli
// prints it, on one line.
func (c *conn) do(line string) string {
	c.t.Helper()
	out, rest := formatReply(c.raw(strings.Fields(line)...))
	if len(rest) != 0 {
		c.t.Fatalf("%q: trailing reply bytes %q", line, rest)
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
		elems := make([]string, n)
		for i := range elems {
			elems[i], rest = formatReply(rest)
		}
		return "[" + strings.Join(elems, ", ") + "]", rest
	}
	return "<bad reply " + string(b) + ">", nil
}
