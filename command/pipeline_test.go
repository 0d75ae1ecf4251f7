package command

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/evict"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/resp"
)

// fakeConn is a connection for the pipeline's tests.
type fakeConn struct{ auth, debug bool }

func (c *fakeConn) AuthRequired() bool { return c.auth }
func (c *fakeConn) DebugAllowed() bool { return c.debug }

// harness is a table, a pipeline over a small keyspace, and one connection's Ctx.
type harness struct {
	t      *testing.T
	tab    *Table
	p      *Pipeline
	ctx    *Ctx
	w      resp.Writer
	parser *querybuf.Parser
	panics []string
}

func newHarness(t *testing.T, rows ...*Command) *harness {
	t.Helper()
	ks, err := keyspace.New(keyspace.Options{Shards: 16, Databases: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	h := &harness{t: t, tab: New(rows), parser: querybuf.NewParser(querybuf.DefaultLimits())}
	h.p = &Pipeline{KS: ks, OnPanic: func(ctx *Ctx, r any, stack []byte) {
		h.panics = append(h.panics, ctx.Cmd.FullName)
	}}
	h.ctx = &Ctx{W: &h.w, KS: ks, Stats: &KeyStats{}}
	return h
}

// run parses one inline command line and runs it; it returns the reply and the outcome.
func (h *harness) run(conn Conn, inline bool, line string) (string, Outcome) {
	h.t.Helper()
	h.parser.ResetCommands()
	if _, err := h.parser.Parse([]byte(line + "\r\n")); err != nil || h.parser.NumCommands() != 1 {
		h.t.Fatalf("parse %q: %v", line, err)
	}
	args := h.parser.Command(0)
	cmd, errText := h.tab.Lookup(args)
	h.ctx.Args, h.ctx.Cmd = args, cmd
	h.w.Reset()
	out := h.p.RunRecovered(h.ctx, conn, errText, inline)
	return string(h.w.Bytes()), out
}

// allUnlocked fails the test if any shard is still locked.
func (h *harness) allUnlocked() {
	h.t.Helper()
	for i := range h.p.KS.NumShards() {
		sh := h.p.KS.Shard(i)
		if !sh.TryLock() {
			h.t.Fatalf("shard %d left locked", i)
		}
		sh.Unlock()
	}
}

// lockedDuring records, while a handler runs, which of its keys' shards are locked.
func lockedDuring(ctx *Ctx) bool {
	for i := 1; i < ctx.Args.Len(); i++ {
		sh := ctx.KS.Shard(ctx.KS.ShardFor(ctx.Args.Arg(i)))
		if sh.TryLock() {
			sh.Unlock()
			return false
		}
	}
	return true
}

func TestPipelineChecks(t *testing.T) {
	var ran int
	h := newHarness(t,
		&Command{Name: "touchy", Arity: -2, Flags: ReadOnly | Fast, First: 1, Last: -1, Step: 1,
			Handler: func(ctx *Ctx) { ran++; ctx.W.Int(int64(ctx.Args.Len())) }},
		&Command{Name: "knock", Arity: -1, Flags: Fast | NoAuth, Handler: func(ctx *Ctx) { ctx.W.Simple("PONG") }},
		&Command{Name: "debug", Arity: -2, Flags: Admin | Protected, Handler: func(ctx *Ctx) { ctx.W.OK() }},
		&Command{Name: "big", Arity: -2, Flags: Write | DenyOOM, First: 1, Last: 1, Step: 1, Handler: func(ctx *Ctx) { ctx.W.OK() }},
		&Command{Name: "box", Arity: -2, Subcommands: []*Command{
			{Name: "open", Arity: 2, Flags: Fast, Handler: func(ctx *Ctx) { ctx.W.OK() }},
		}},
	)
	open := &fakeConn{}
	for _, tc := range []struct {
		conn       *fakeConn
		line, want string
	}{
		{open, "nosuch a b", "-ERR unknown command 'nosuch', with args beginning with: 'a' 'b' \r\n"},
		{open, "touchy", "-ERR wrong number of arguments for 'touchy' command\r\n"},
		{open, "TOUCHY a b", ":3\r\n"},
		{open, "box", "-ERR wrong number of arguments for 'box' command\r\n"},
		{open, "box shut", "-ERR unknown subcommand 'shut'. Try BOX HELP.\r\n"},
		{open, "box open x", "-ERR wrong number of arguments for 'box|open' command\r\n"},
		{open, "box open", "+OK\r\n"},
		{open, "debug sleep", "-" + replyerr.DebugNotAllowed.Error() + "\r\n"},
		{&fakeConn{debug: true}, "debug sleep", "+OK\r\n"},
		{&fakeConn{auth: true}, "touchy a", "-" + replyerr.NoAuth.Error() + "\r\n"},
		{&fakeConn{auth: true}, "knock", "+PONG\r\n"},
		// DEBUG is checked before authentication, as in processCommand.
		{&fakeConn{auth: true}, "debug x", "-" + replyerr.DebugNotAllowed.Error() + "\r\n"},
	} {
		if got, _ := h.run(tc.conn, false, tc.line); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
	if ran != 1 {
		t.Errorf("handler ran %d times, want 1", ran)
	}
	// Over maxmemory under noeviction (every key counts 1 MB here): nothing can be evicted.
	h.p.Evictor = evict.New(h.p.KS, func() int64 { return 1 << 20 })
	h.p.Evictor.Configure(evict.Settings{MaxMemory: 1, Policy: evict.NoEviction})
	if got, _ := h.run(open, false, "big k"); got != "-"+replyerr.OOM.Error()+"\r\n" {
		t.Errorf("denyoom over maxmemory: %q", got)
	}
	if got, _ := h.run(open, false, "touchy k"); got != ":2\r\n" {
		t.Errorf("a read over maxmemory: %q", got)
	}
	h.p.Evictor = nil
	h.allUnlocked()
}

// TestPipelineLocks: the declared shards are held while the handler runs and released after;
// inline, a shard held elsewhere hands the command off without running or writing anything.
func TestPipelineLocks(t *testing.T) {
	var held, ran bool
	var all []int
	h := newHarness(t,
		&Command{Name: "mget", Arity: -2, Flags: ReadOnly | Fast, First: 1, Last: -1, Step: 1,
			Handler: func(ctx *Ctx) { ran = true; held = lockedDuring(ctx); ctx.W.OK() }},
		&Command{Name: "flushall", Arity: -1, Flags: Write, Locking: LockAll,
			Handler: func(ctx *Ctx) { all = append(all[:0], ctx.Locked()...); ctx.W.OK() }},
		&Command{Name: "one", Arity: 1, Flags: ReadOnly, Locking: LockFunc,
			Shards:  func(ctx *Ctx, dst []int) []int { return append(dst, 5, 3, 5) },
			Handler: func(ctx *Ctx) { all = append(all[:0], ctx.Locked()...); ctx.W.OK() }},
	)
	conn := &fakeConn{}
	if got, out := h.run(conn, true, "mget a b c d e f g"); got != "+OK\r\n" || out != Done || !held {
		t.Fatalf("mget: %q %v, keys' shards held during the handler: %v", got, out, held)
	}
	h.allUnlocked()
	h.run(conn, false, "flushall")
	if len(all) != 16 || all[0] != 0 || all[15] != 15 {
		t.Errorf("flushall held %v, want every shard", all)
	}
	h.run(conn, false, "one")
	if len(all) != 2 || all[0] != 3 || all[1] != 5 {
		t.Errorf("LockFunc held %v, want [3 5]", all)
	}
	h.allUnlocked()

	// Inline, a key's shard taken by someone else: hand-off, nothing ran, nothing written, the
	// shards taken on the way released.
	busy := h.p.KS.Shard(h.p.KS.ShardFor([]byte("b")))
	busy.Lock()
	ran = false
	got, out := h.run(conn, true, "mget a b")
	if out != Handoff || got != "" || ran {
		t.Errorf("inline with a busy shard: %q %v ran=%v, want a silent hand-off", got, out, ran)
	}
	busy.Unlock()
	h.allUnlocked()
}

// TestPipelinePanic: a panicking handler is answered with an error naming the command, its
// locks are released, a write poisons its shards (their commands are refused; other shards
// serve), a read does not.
func TestPipelinePanic(t *testing.T) {
	if crashOnPanic {
		t.Skip("invariants build: a handler's panic ends the process")
	}
	h := newHarness(t,
		&Command{Name: "boom", Arity: 2, Flags: Write, First: 1, Last: 1, Step: 1,
			Handler: func(ctx *Ctx) { ctx.W.Array(2); ctx.W.Int(1); panic("half-way") }},
		&Command{Name: "peek", Arity: 2, Flags: ReadOnly, First: 1, Last: 1, Step: 1,
			Handler: func(ctx *Ctx) { ctx.W.Simple("seen") }},
		&Command{Name: "readboom", Arity: 2, Flags: ReadOnly, First: 1, Last: 1, Step: 1,
			Handler: func(ctx *Ctx) { panic("read") }},
	)
	conn := &fakeConn{}
	got, _ := h.run(conn, false, "boom k1")
	if !strings.HasPrefix(got, "-ERR internal error in 'boom'") || strings.Contains(got, "*2") {
		t.Fatalf("panicking write: %q", got)
	}
	h.allUnlocked()
	if len(h.panics) != 1 || h.p.Panics() != 1 {
		t.Errorf("OnPanic calls %v, Panics %d", h.panics, h.p.Panics())
	}
	if h.p.KS.PoisonedShards() != 1 {
		t.Errorf("%d shards poisoned, want 1", h.p.KS.PoisonedShards())
	}
	if got, _ := h.run(conn, false, "peek k1"); got != "-"+errPoisoned.Error()+"\r\n" {
		t.Errorf("a command on the poisoned shard: %q", got)
	}
	other := "k2"
	for i := 3; h.p.KS.ShardFor([]byte(other)) == h.p.KS.ShardFor([]byte("k1")); i++ {
		other = "k" + strings.Repeat("x", i)
	}
	if got, _ := h.run(conn, false, "peek "+other); got != "+seen\r\n" {
		t.Errorf("a command on another shard: %q", got)
	}
	if got, _ := h.run(conn, false, "readboom "+other); !strings.HasPrefix(got, "-ERR internal error in 'readboom'") {
		t.Errorf("panicking read: %q", got)
	}
	if h.p.KS.PoisonedShards() != 1 {
		t.Errorf("a read's panic poisoned a shard")
	}
	h.allUnlocked()
}

// TestPipelineAllocs: running a command through the pipeline allocates nothing.
func TestPipelineAllocs(t *testing.T) {
	h := newHarness(t,
		&Command{Name: "get", Arity: 2, Flags: ReadOnly | Fast, First: 1, Last: 1, Step: 1,
			Handler: func(ctx *Ctx) { ctx.LookupRead(ctx.Shard(ctx.Args.Arg(1)), ctx.Args.Arg(1)); ctx.W.Null() }},
		&Command{Name: "mset", Arity: -3, Flags: Write | DenyOOM, First: 1, Last: -1, Step: 2,
			Handler: func(ctx *Ctx) { ctx.W.OK() }},
	)
	conn := &fakeConn{}
	for _, line := range []string{"get k", "mset a 1 b 2 c 3 d 4"} {
		h.run(conn, true, line)
		args := h.parser.Command(0)
		cmd, _ := h.tab.Lookup(args)
		n := testing.AllocsPerRun(100, func() {
			h.w.Reset()
			h.ctx.Args, h.ctx.Cmd = args, cmd
			h.p.Run(h.ctx, conn, "", true)
		})
		if n != 0 {
			t.Errorf("%q: %.1f allocations per run", line, n)
		}
	}
	if h.ctx.Stats.Misses.Load() == 0 {
		t.Error("LookupRead counted no miss")
	}
}
