package command_test

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/listfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/family/txfamily"
	"github.com/kvserver/kvserver/internal/familytest"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// The scripts of these tests are Go functions standing in for the Lua engine: they call
// redis.call through the run (the Caller) and write the script's reply. The row running them
// is what family/scriptfamily's EVAL does: ScriptShards for its locks, Scripts.Run for the run.

// goScript is a test script: it calls commands through r and writes its reply to w.
type goScript func(r *command.ScriptRun, w *resp.Writer)

type conn struct{}

func (conn) AuthRequired() bool { return false }
func (conn) DebugAllowed() bool { return true }

type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) Publish(channel, message []byte) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev, ok := strings.CutPrefix(string(channel), "__keyevent@0__:"); ok {
		r.events = append(r.events, ev+" "+string(message))
	}
	return 1
}

func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.Join(r.events, ", ")
	r.events = nil
	return s
}

// scriptHarness is the families the scripts call, a test EVAL row, and the scripts' state,
// over a keyspace with a clock the test moves.
type scriptHarness struct {
	t       *testing.T
	ks      *keyspace.Keyspace
	tab     *command.Table
	p       *command.Pipeline
	scripts *command.Scripts
	rec     recorder
	now     atomic.Int64
	mu      sync.Mutex
	byName  map[string]goScript
	lockAll map[string]bool
	runs    map[string]int
	panics  []string
}

// client is one connection of the harness: its own context, writer and parser.
type client struct {
	h      *scriptHarness
	ctx    *command.Ctx
	w      resp.Writer
	parser *querybuf.Parser
}

func newScriptHarness(t *testing.T) *scriptHarness {
	h := &scriptHarness{t: t, byName: map[string]goScript{}, lockAll: map[string]bool{}, runs: map[string]int{}}
	h.now.Store(1_000_000_000)
	ks, err := keyspace.New(keyspace.Options{Shards: 16, Databases: 2, Clock: h.now.Load})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	ks.SetNotifyClasses(keyspace.NotifyAll | keyspace.NotifyKeyevent | keyspace.NotifyNew)
	h.ks = ks
	// xeval NAME NUMKEYS KEY… ARG…: runs the Go script NAME.
	xeval := &command.Command{Name: "xeval", Arity: -3, Flags: command.NoScript, Locking: command.LockFunc,
		Shards: func(ctx *command.Ctx, dst []int) []int {
			n, _ := strconv.Atoi(string(ctx.Args.Arg(2)))
			h.mu.Lock()
			all := h.lockAll[string(ctx.Args.Arg(1))]
			h.mu.Unlock()
			return command.ScriptShards(ctx, dst, 3, n, all)
		},
		Handler: func(ctx *command.Ctx) {
			name := string(ctx.Args.Arg(1))
			h.mu.Lock()
			fn := h.byName[name]
			h.mu.Unlock()
			ro := strings.HasSuffix(name, "_ro")
			undeclared := h.scripts.Run(ctx, command.ScriptOptions{ReadOnly: ro, Name: name}, false, func(r *command.ScriptRun) {
				h.mu.Lock()
				h.runs[name]++
				h.mu.Unlock()
				fn(r, ctx.W)
			})
			if undeclared {
				h.mu.Lock()
				h.lockAll[name] = true
				h.mu.Unlock()
			}
		}}
	// The connection's own commands, whose server handlers need the client (a script has
	// none): the runs answer them themselves.
	needsClient := func(ctx *command.Ctx) { panic("the connection's handler ran inside a script") }
	conns := []*command.Command{{Name: "ping", Handler: needsClient}, {Name: "echo", Handler: needsClient},
		{Name: "select", Handler: needsClient}, {Name: "time", Handler: needsClient},
		// boom KEY panics, after writing a partial reply.
		{Name: "boom", Arity: 2, Flags: command.Write, First: 1, Last: 1, Step: 1,
			Handler: func(ctx *command.Ctx) { ctx.W.Int(1); panic("boom") }},
		// xnow answers ctx.Now().
		{Name: "xnow", Arity: 1, Locking: command.LockNone, Handler: func(ctx *command.Ctx) { ctx.W.Int(ctx.Now()) }}}
	h.tab = command.New(stringfamily.Commands(), listfamily.Commands(), keyfamily.Commands(),
		txfamily.Commands(), conns, []*command.Command{xeval})
	h.p = &command.Pipeline{KS: ks, Publisher: &h.rec, OnPanic: func(ctx *command.Ctx, r any, stack []byte) {
		h.mu.Lock()
		h.panics = append(h.panics, ctx.Cmd.FullName)
		h.mu.Unlock()
	}}
	h.scripts = command.NewScripts(h.p, h.tab)
	return h
}

func (h *scriptHarness) define(name string, fn goScript) {
	h.mu.Lock()
	h.byName[name] = fn
	h.mu.Unlock()
}

func (h *scriptHarness) client() *client {
	c := &client{h: h, parser: querybuf.NewParser(querybuf.DefaultLimits())}
	c.ctx = &command.Ctx{W: &c.w, KS: h.ks, Cfg: config.New(), Stats: &command.KeyStats{}}
	return c
}

// do runs one command line (arguments split on spaces) and returns its raw reply.
func (c *client) do(args ...string) string {
	c.h.t.Helper()
	if len(args) == 1 {
		args = strings.Fields(args[0])
	}
	c.parser.ResetCommands()
	data := familytest.AppendCommand(nil, args...)
	if n, err := c.parser.Parse(data); err != nil || n != len(data) {
		c.h.t.Fatalf("parse %q: %v", args, err)
	}
	a := c.parser.Command(0)
	cmd, errText := c.h.tab.Lookup(a)
	c.ctx.Args, c.ctx.Cmd = a, cmd
	c.w.Reset()
	c.h.p.RunRecovered(c.ctx, conn{}, errText, false)
	return string(c.w.Bytes())
}

// call is redis.call of a space-separated line in RESP2.
func call(r *command.ScriptRun, line string) string {
	var args [][]byte
	for _, f := range strings.Fields(line) {
		args = append(args, []byte(f))
	}
	return string(r.Call(args, 2))
}

// keysAt returns keys on the shards asked for, by shard index.
func (h *scriptHarness) keyOn(shard int, prefix string) string {
	for i := 0; ; i++ {
		k := prefix + strconv.Itoa(i)
		if h.ks.ShardFor([]byte(k)) == shard {
			return k
		}
	}
}

func (h *scriptHarness) allUnlocked() {
	h.t.Helper()
	for i := range h.ks.NumShards() {
		sh := h.ks.Shard(i)
		if !sh.TryLock() {
			h.t.Fatalf("shard %d left locked", i)
		}
		sh.Unlock()
	}
}

// TestScriptCallChecks: redis.call's checks before a command runs, in Redis's order and
// words, and a command that passes them runs with its reply in the script's protocol.
func TestScriptCallChecks(t *testing.T) {
	h := newScriptHarness(t)
	var got []string
	h.define("checks", func(r *command.ScriptRun, w *resp.Writer) {
		got = append(got,
			call(r, "nosuch x"),
			call(r, "get"),
			call(r, "get a b"),
			call(r, "multi"),
			call(r, "xeval checks 0"),
			call(r, "set k v"),
			call(r, "get k"),
			call(r, "ping"),
			call(r, "ping hi"),
			call(r, "echo e"),
			call(r, "select 1"),
			call(r, "get k"),
			call(r, "select 99"),
			call(r, "blpop nolist 0"),
		)
		w.OK()
	})
	h.define("checks_ro", func(r *command.ScriptRun, w *resp.Writer) {
		got = append(got, call(r, "set k v2"), call(r, "get k"))
		w.OK()
	})
	c := h.client()
	if r := c.do("xeval checks 1 k"); r != "+OK\r\n" {
		t.Fatalf("xeval: %q", r)
	}
	if r := c.do("xeval checks_ro 1 k"); r != "+OK\r\n" {
		t.Fatalf("xeval: %q", r)
	}
	want := []string{
		"-ERR Unknown Redis command called from script\r\n",
		"-ERR Wrong number of args calling Redis command from script\r\n",
		"-ERR Wrong number of args calling Redis command from script\r\n",
		"-ERR This Redis command is not allowed from script\r\n",
		"-ERR This Redis command is not allowed from script\r\n",
		"+OK\r\n",
		"$1\r\nv\r\n",
		"+PONG\r\n",
		"$2\r\nhi\r\n",
		"$1\r\ne\r\n",
		"+OK\r\n",
		"$-1\r\n", // database 1 inside the script
		"-ERR DB index is out of range\r\n",
		"*-1\r\n", // BLPOP does not block inside a script
		"-ERR Write commands are not allowed from read-only scripts.\r\n",
		"$1\r\nv\r\n", // the caller's database again
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("replies\n got %q\nwant %q", got, want)
	}
	if r := c.do("get k"); r != "$1\r\nv\r\n" {
		t.Errorf("after the script, the caller's database: %q", r)
	}
	h.allUnlocked()
}

// TestScriptEventsAfter: a script's writes raise their keyspace events, delivered in order
// after the script, and a blocked client is served by a script's write.
func TestScriptEventsAfter(t *testing.T) {
	h := newScriptHarness(t)
	var during string
	h.define("writes", func(r *command.ScriptRun, w *resp.Writer) {
		call(r, "set a 1")
		call(r, "incr a")
		call(r, "del a")
		during = h.rec.take()
		w.OK()
	})
	c := h.client()
	if r := c.do("xeval writes 1 a"); r != "+OK\r\n" {
		t.Fatalf("xeval: %q", r)
	}
	if during != "" {
		t.Errorf("events delivered during the script: %q", during)
	}
	if got := h.rec.take(); got != "new a, set a, incrby a, del a" {
		t.Errorf("events %q", got)
	}
}

// TestScriptUndeclaredHigherShard: a key the script did not declare, in a shard above those
// it holds, is locked on first use (waiting is safe in ascending order); the script is then
// remembered and its next run locks every shard.
func TestScriptUndeclaredHigherShard(t *testing.T) {
	h := newScriptHarness(t)
	low, high := h.keyOn(1, "l"), h.keyOn(9, "h")
	h.define("up", func(r *command.ScriptRun, w *resp.Writer) {
		call(r, "set "+low+" 1")
		w.Raw([]byte(call(r, "set "+high+" 2")))
	})
	c := h.client()
	if r := c.do("xeval up 1 " + low); r != "+OK\r\n" {
		t.Fatalf("xeval: %q", r)
	}
	if !h.lockAll["up"] || h.runs["up"] != 1 {
		t.Errorf("remembered %v, runs %d", h.lockAll["up"], h.runs["up"])
	}
	if r := c.do("get " + high); r != "$1\r\n2\r\n" {
		t.Errorf("get: %q", r)
	}
	h.allUnlocked()
}

// TestScriptUndeclaredRerun: a key the script did not declare, in a shard below those it
// holds, while another client holds that shard: the run is aborted before its first write and
// run again holding every shard, once the other client lets go; only the second run's reply
// is sent.
func TestScriptUndeclaredRerun(t *testing.T) {
	h := newScriptHarness(t)
	low, high := h.keyOn(2, "l"), h.keyOn(12, "h")
	aborted := make(chan struct{}, 1)
	h.define("down", func(r *command.ScriptRun, w *resp.Writer) {
		call(r, "get "+high)
		if got := call(r, "set "+low+" x"); strings.HasPrefix(got, "-") {
			aborted <- struct{}{}
			w.Error("ERR first run")
			return
		}
		w.Raw([]byte(call(r, "set "+high+" y")))
	})
	sh := h.ks.Shard(2)
	sh.Lock()
	done := make(chan string)
	go func() {
		c := h.client()
		done <- c.do("xeval down 1 " + high)
	}()
	<-aborted
	sh.Unlock()
	if r := <-done; r != "+OK\r\n" {
		t.Fatalf("xeval: %q", r)
	}
	if h.runs["down"] != 2 || !h.lockAll["down"] {
		t.Errorf("runs %d, remembered %v", h.runs["down"], h.lockAll["down"])
	}
	c := h.client()
	if r := c.do("mget " + low + " " + high); r != "*2\r\n$1\r\nx\r\n$1\r\ny\r\n" {
		t.Errorf("mget: %q", r)
	}
	h.allUnlocked()
}

// TestScriptUndeclaredAfterWrite: the same, after the script has written: the run can neither
// wait nor be undone, so that redis.call answers an error and the script goes on.
func TestScriptUndeclaredAfterWrite(t *testing.T) {
	h := newScriptHarness(t)
	low, high := h.keyOn(3, "l"), h.keyOn(13, "h")
	var got string
	h.define("late", func(r *command.ScriptRun, w *resp.Writer) {
		call(r, "set "+high+" 1")
		got = call(r, "set "+low+" 2")
		w.OK()
	})
	sh := h.ks.Shard(3)
	sh.Lock()
	c := h.client()
	r := c.do("xeval late 1 " + high)
	sh.Unlock()
	if r != "+OK\r\n" || !strings.HasPrefix(got, "-ERR the script touched a key it did not declare") {
		t.Errorf("xeval %q, call %q", r, got)
	}
	if h.runs["late"] != 1 {
		t.Errorf("runs %d", h.runs["late"])
	}
	h.allUnlocked()
}

// TestScriptInExec: a script queued in MULTI runs in EXEC, which holds every shard for it.
func TestScriptInExec(t *testing.T) {
	h := newScriptHarness(t)
	a, b := h.keyOn(4, "a"), h.keyOn(0, "b")
	h.define("tx", func(r *command.ScriptRun, w *resp.Writer) {
		call(r, "set "+a+" 1")
		w.Raw([]byte(call(r, "set "+b+" 2")))
	})
	c := h.client()
	c.do("multi")
	if r := c.do("xeval tx 1 " + a); r != "+QUEUED\r\n" {
		t.Fatalf("queue: %q", r)
	}
	c.do("incr " + a)
	if r := c.do("exec"); r != "*2\r\n+OK\r\n:2\r\n" {
		t.Fatalf("exec: %q", r)
	}
	if r := c.do("get " + b); r != "$1\r\n2\r\n" {
		t.Errorf("get: %q", r)
	}
	if h.runs["tx"] != 1 {
		t.Errorf("runs %d", h.runs["tx"])
	}
	h.allUnlocked()
}

// TestScriptFrozenTime: a key expiring while a script runs is still there for the script,
// and gone after it; ctx.Now (SET … PX, PTTL) and TIME inside the script are its start.
func TestScriptFrozenTime(t *testing.T) {
	h := newScriptHarness(t)
	var got []string
	var now int64
	h.define("clock", func(r *command.ScriptRun, w *resp.Writer) {
		now = h.now.Load()
		got = append(got, call(r, "get k"))
		h.now.Add(5000)
		got = append(got, call(r, "get k"), call(r, "exists k"), call(r, "xnow"),
			call(r, "set k2 v px 1000"), call(r, "pttl k2"), call(r, "time"))
		time.Sleep(2 * time.Millisecond) // TIME would move if it were not frozen
		got = append(got, call(r, "time"))
		w.OK()
	})
	c := h.client()
	c.do("set k v px 1000")
	c.do("xeval clock 1 k")
	if strings.Join(got[:3], "|") != "$1\r\nv\r\n|$1\r\nv\r\n|:1\r\n" {
		t.Errorf("inside the script: %q", got)
	}
	if r := c.do("get k"); r != "$-1\r\n" {
		t.Errorf("after: %q", r)
	}
	if want := ":" + strconv.FormatInt(now, 10) + "\r\n"; got[3] != want {
		t.Errorf("ctx.Now inside the script: %q, want its start %q", got[3], want)
	}
	// SET … PX inside the script counts from its start: 5 s later the key has expired.
	if got[4] != "+OK\r\n" || got[5] != ":1000\r\n" {
		t.Errorf("set, pttl: %q %q", got[4], got[5])
	}
	if r := c.do("exists k2"); r != ":0\r\n" {
		t.Errorf("k2 after: %q", r)
	}
	if got[6] != got[7] || !strings.HasPrefix(got[6], "*2\r\n") {
		t.Errorf("TIME inside a script moved: %q %q", got[6], got[7])
	}
}

// TestScriptBusyKill: once a script has run longer than busy-reply-threshold, other commands
// are answered BUSY before they wait on its locks, SCRIPT KILL stops it while it has not
// written (its client gets the kill error), and after it ends commands run again.
func TestScriptBusyKill(t *testing.T) {
	h := newScriptHarness(t)
	h.scripts.SetBusyThreshold(0)
	started := make(chan struct{})
	h.define("spin", func(r *command.ScriptRun, w *resp.Writer) {
		close(started)
		<-r.Context().Done()
		w.Error("ERR Script killed by user with SCRIPT KILL...")
	})
	if msg := h.scripts.Kill(false); msg != command.ErrNotBusy.Error() {
		t.Errorf("kill with nothing running: %q", msg)
	}
	done := make(chan string)
	go func() { done <- h.client().do("xeval spin 1 k") }()
	<-started
	for !h.scripts.Busy() {
		h.scripts.CheckBusy()
	}
	other := h.client()
	if r := other.do("get k"); r != "-"+command.ErrBusyScript.Error()+"\r\n" {
		t.Errorf("get while busy: %q", r)
	}
	if msg := h.scripts.Kill(true); msg != command.ErrBusyScript.Error() {
		t.Errorf("FUNCTION KILL of a script: %q", msg)
	}
	if msg := h.scripts.Kill(false); msg != "" {
		t.Errorf("kill: %q", msg)
	}
	if r := <-done; r != "-ERR Script killed by user with SCRIPT KILL...\r\n" {
		t.Errorf("killed client: %q", r)
	}
	if h.scripts.Busy() {
		t.Error("still busy after the script ended")
	}
	if r := other.do("get k"); r != "$-1\r\n" {
		t.Errorf("get after: %q", r)
	}
	h.allUnlocked()
}

// TestScriptUnkillable: a busy script that has written cannot be killed; KillAll (SHUTDOWN
// NOSAVE) stops it anyway.
func TestScriptUnkillable(t *testing.T) {
	h := newScriptHarness(t)
	h.scripts.SetBusyThreshold(0)
	started := make(chan struct{})
	var afterKill atomic.Value
	h.define("writer", func(r *command.ScriptRun, w *resp.Writer) {
		call(r, "set k 1")
		close(started)
		<-r.Context().Done()
		afterKill.Store(call(r, "set k 2"))
		w.Error("ERR killed")
	})
	done := make(chan string)
	go func() { done <- h.client().do("xeval writer 1 k") }()
	<-started
	for !h.scripts.Busy() {
		h.scripts.CheckBusy()
	}
	if msg := h.scripts.Kill(false); msg != command.ErrUnkillable.Error() {
		t.Errorf("kill: %q", msg)
	}
	if n := h.scripts.KillAll(); n != 1 {
		t.Errorf("KillAll: %d", n)
	}
	if r := <-done; r != "-ERR killed\r\n" {
		t.Errorf("client: %q", r)
	}
	if v, _ := afterKill.Load().(string); !strings.HasPrefix(v, "-") {
		t.Errorf("a call after the kill: %q", v)
	}
	if r := h.client().do("get k"); r != "$1\r\n1\r\n" {
		t.Errorf("get: %q", r)
	}
}

// TestScriptBusyAllowBusy: commands with allow_busy (MULTI, DISCARD …) run while a script is
// busy; the others inside MULTI are refused and EXEC then aborts.
func TestScriptBusyAllowBusy(t *testing.T) {
	h := newScriptHarness(t)
	h.scripts.SetBusyThreshold(0)
	release := make(chan struct{})
	started := make(chan struct{})
	h.define("wait", func(r *command.ScriptRun, w *resp.Writer) {
		close(started)
		<-release
		w.OK()
	})
	done := make(chan string)
	go func() { done <- h.client().do("xeval wait 0") }()
	<-started
	for !h.scripts.Busy() {
		h.scripts.CheckBusy()
	}
	c := h.client()
	busy := "-" + command.ErrBusyScript.Error() + "\r\n"
	if r := c.do("multi"); r != "+OK\r\n" {
		t.Errorf("multi: %q", r)
	}
	if r := c.do("get k"); r != busy {
		t.Errorf("queued get: %q", r)
	}
	if r := c.do("exec"); !strings.HasPrefix(r, "-EXECABORT") {
		t.Errorf("exec: %q", r)
	}
	close(release)
	if r := <-done; r != "+OK\r\n" {
		t.Errorf("script: %q", r)
	}
}

// TestScriptHandlerPanic: a command that panics inside a script answers the pipeline's error
// (the script goes on), its shard is poisoned, the panic is reported, and every lock is
// released.
func TestScriptHandlerPanic(t *testing.T) {
	if command.CrashOnPanic {
		t.Skip("invariants build: a handler's panic ends the process")
	}
	h := newScriptHarness(t)
	var got []string
	h.define("panics", func(r *command.ScriptRun, w *resp.Writer) {
		got = append(got, call(r, "boom k"), call(r, "set other 1"))
		w.OK()
	})
	c := h.client()
	if r := c.do("xeval panics 1 k"); r != "+OK\r\n" {
		t.Fatalf("xeval: %q", r)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "-ERR internal error in 'boom'") || got[1] != "+OK\r\n" {
		t.Errorf("replies %q", got)
	}
	if strings.Join(h.panics, ",") != "boom" {
		t.Errorf("panics reported: %q", h.panics)
	}
	if !h.ks.Shard(h.ks.ShardFor([]byte("k"))).Poisoned() {
		t.Error("the shard of a write that panicked is not poisoned")
	}
	h.allUnlocked()
}

// TestScriptConcurrentRuns: runs on several goroutines at once, on shared and distinct keys,
// each atomic (its INCRs seen together), all registered and unregistered.
func TestScriptConcurrentRuns(t *testing.T) {
	h := newScriptHarness(t)
	h.define("pair", func(r *command.ScriptRun, w *resp.Writer) {
		a := call(r, "incr a")
		b := call(r, "incr b") // b's shard: declared, or locked on first use
		if a != b {
			w.Error("ERR not atomic: " + a + " " + b)
			return
		}
		w.OK()
	})
	// The first run of the script with b undeclared teaches that it locks every shard.
	if r := h.client().do("xeval pair 1 a"); r != "+OK\r\n" {
		t.Fatalf("first run: %q", r)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := h.client()
			for range 200 {
				line := "xeval pair 2 a b"
				if g%2 == 1 {
					line = "xeval pair 1 a" // b undeclared
				}
				if r := c.do(line); r != "+OK\r\n" {
					errs <- r
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := h.scripts.Running(); n != 0 || h.scripts.Busy() {
		t.Errorf("running %d, busy %v", n, h.scripts.Busy())
	}
	if r := h.client().do("mget a b"); r != "*2\r\n$4\r\n1601\r\n$4\r\n1601\r\n" {
		t.Errorf("mget: %q", r)
	}
	h.allUnlocked()
}

// TestScriptMisconf: while the pipeline's gate refuses writes (MISCONF: saves fail), a
// script's first write is refused with it and its reads go on.
func TestScriptMisconf(t *testing.T) {
	h := newScriptHarness(t)
	const misconf = "MISCONF Errors writing to disk"
	h.p.Gate = func(cmd *command.Command) string {
		if cmd.Flags&command.Write != 0 {
			return misconf
		}
		return ""
	}
	var got []string
	h.define("misconf", func(r *command.ScriptRun, w *resp.Writer) {
		got = append(got, call(r, "get k"), call(r, "set k v"))
		w.OK()
	})
	h.p.SetGated(true)
	c := h.client()
	if r := c.do("xeval misconf 1 k"); r != "+OK\r\n" {
		t.Fatalf("xeval: %q", r)
	}
	if strings.Join(got, "|") != "$-1\r\n|-"+misconf+"\r\n" {
		t.Errorf("replies %q", got)
	}
}

// TestScriptKilledWhileAborting: a run killed while it is being aborted for a re-run is not
// run again: the re-run stops at once and its client gets the kill error.
func TestScriptKilledWhileAborting(t *testing.T) {
	h := newScriptHarness(t)
	h.scripts.SetBusyThreshold(0)
	low, high := h.keyOn(2, "l"), h.keyOn(12, "h")
	aborted, killed := make(chan struct{}), make(chan struct{})
	var secondDone bool
	h.define("abortkill", func(r *command.ScriptRun, w *resp.Writer) {
		if h.runs["abortkill"] == 1 {
			call(r, "get "+high)
			call(r, "get "+low) // its shard is held: the run is aborted
			close(aborted)
			<-killed
			w.Error("ERR first run")
			return
		}
		select {
		case <-r.Context().Done():
			secondDone = true
		default:
		}
		w.Error("ERR killed")
	})
	sh := h.ks.Shard(2)
	sh.Lock()
	done := make(chan string)
	go func() { done <- h.client().do("xeval abortkill 1 " + high) }()
	<-aborted
	for !h.scripts.Busy() {
		h.scripts.CheckBusy()
	}
	if msg := h.scripts.Kill(false); msg != "" {
		t.Errorf("kill: %q", msg)
	}
	close(killed)
	sh.Unlock()
	if r := <-done; r != "-ERR killed\r\n" || !secondDone {
		t.Errorf("reply %q, re-run stopped at once: %v", r, secondDone)
	}
	h.allUnlocked()
}
