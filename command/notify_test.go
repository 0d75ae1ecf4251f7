package command

import (
	"strings"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// recordingPublisher is a Publisher that keeps "channel message" lines, and checks that no
// shard is locked while it is called (a subscriber's delivery may take locks of its own).
type recordingPublisher struct {
	t   *testing.T
	ks  *keyspace.Keyspace
	mu  sync.Mutex
	got []string
}

func (r *recordingPublisher) Publish(channel, message []byte) int {
	for i := range r.ks.NumShards() {
		sh := r.ks.Shard(i)
		if !sh.TryLock() {
			r.t.Errorf("Publish(%q) with shard %d locked", channel, i)
			continue
		}
		sh.Unlock()
	}
	r.mu.Lock()
	r.got = append(r.got, string(channel)+" "+string(message))
	r.mu.Unlock()
	return 1
}

// take returns the lines published since the last call.
func (r *recordingPublisher) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.Join(r.got, "\n")
	r.got = nil
	return s
}

// notifyRows are test commands raising events as the families do: PUT key [past] (a string,
// with an expire already past when asked: setKey's `new`, then `set`), GET key (keymiss),
// PUTBOOM key (raises `set`, then panics), MPUT k1 k2 (two shards).
func notifyRows() []*Command {
	put := func(ctx *Ctx) {
		key := ctx.Args.Arg(1)
		var at int64
		if ctx.Args.Len() > 2 {
			at = ctx.KS.Now() - 1000
		}
		if err := ctx.SetString(ctx.Shard(key), key, []byte("v"), at); err != nil {
			ctx.W.Error(err.Error())
			return
		}
		ctx.Notify(keyspace.NotifyString, "set", key)
		ctx.W.OK()
	}
	return []*Command{
		{Name: "put", Arity: -2, Flags: Write, First: 1, Last: 1, Step: 1, Handler: put},
		{Name: "get", Arity: 2, Flags: ReadOnly, First: 1, Last: 1, Step: 1, Handler: func(ctx *Ctx) {
			if _, ok := ctx.LookupRead(ctx.Shard(ctx.Args.Arg(1)), ctx.Args.Arg(1)); !ok {
				ctx.W.Null()
				return
			}
			ctx.W.Simple("found")
		}},
		{Name: "putboom", Arity: 2, Flags: Write, First: 1, Last: 1, Step: 1, Handler: func(ctx *Ctx) {
			ctx.Notify(keyspace.NotifyString, "set", ctx.Args.Arg(1))
			panic("half-way")
		}},
		{Name: "mput", Arity: 3, Flags: Write, First: 1, Last: 2, Step: 1, Handler: func(ctx *Ctx) {
			for _, key := range [][]byte{ctx.Args.Arg(1), ctx.Args.Arg(2)} {
				if err := ctx.SetString(ctx.Shard(key), key, []byte("v"), 0); err != nil {
					ctx.W.Error(err.Error())
					return
				}
				ctx.Notify(keyspace.NotifyString, "set", key)
			}
			ctx.W.OK()
		}},
	}
}

func newNotifyHarness(t *testing.T) (*harness, *recordingPublisher) {
	h := newHarness(t, notifyRows()...)
	rec := &recordingPublisher{t: t, ks: h.p.KS}
	h.p.Publisher = rec
	return h, rec
}

// TestNotifyChannels: K publishes __keyspace@<db>__:<key> with the event, E
// __keyevent@<db>__:<event> with the key, both publish both (keyspace first); the class must be
// enabled, and nothing is sent without K or E.
func TestNotifyChannels(t *testing.T) {
	h, rec := newNotifyHarness(t)
	conn := &fakeConn{}
	for _, tc := range []struct{ classes, line, want string }{
		{"", "put k", ""},
		{"A", "put k", ""}, // neither K nor E
		{"K$", "put k", "__keyspace@0__:k set"},
		{"E$", "put k", "__keyevent@0__:set k"},
		{"KEA", "put k", "__keyspace@0__:k set\n__keyevent@0__:set k"},
		{"Kg", "put k", ""}, // set is of class $
		{"KEn", "put fresh", "__keyspace@0__:fresh new\n__keyevent@0__:new fresh"},
		{"En$", "put fresh2", "__keyevent@0__:new fresh2\n__keyevent@0__:set fresh2"},
		{"EA", "get nosuch", ""}, // m is not in A
		{"Em", "get nosuch", "__keyevent@0__:keymiss nosuch"},
		{"Em", "get k", ""},
		{"E$", "mput a b", "__keyevent@0__:set a\n__keyevent@0__:set b"},
	} {
		h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses(tc.classes))
		h.run(conn, false, tc.line)
		if got := rec.take(); got != tc.want {
			t.Errorf("%q %q:\n%s\nwant\n%s", tc.classes, tc.line, got, tc.want)
		}
		if n := h.ctx.PendingEvents(); n != 0 {
			t.Errorf("%q: %d events left in the Ctx", tc.line, n)
		}
	}
	h.ctx.DB = 1
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("KE$"))
	h.run(conn, false, "put k")
	if got, want := rec.take(), "__keyspace@1__:k set\n__keyevent@1__:set k"; got != want {
		t.Errorf("db 1: %q, want %q", got, want)
	}
	h.allUnlocked()
}

// TestNotifyLazyExpiry: a key expired by a command's lookup raises `expired` before the
// command's own events, and a read that expired its key sends it too.
func TestNotifyLazyExpiry(t *testing.T) {
	h, rec := newNotifyHarness(t)
	conn := &fakeConn{}
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("EA"))
	h.run(conn, false, "put k past")
	if got := rec.take(); got != "__keyevent@0__:set k" {
		t.Errorf("put past: %q", got)
	}
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("EAn"))
	h.run(conn, false, "put k") // replaces the expired record: expired, new, set
	if got, want := rec.take(), "__keyevent@0__:expired k\n__keyevent@0__:new k\n__keyevent@0__:set k"; got != want {
		t.Errorf("put over an expired key:\n%s\nwant\n%s", got, want)
	}
	h.run(conn, false, "put k2 past")
	rec.take()
	if got, _ := h.run(conn, false, "get k2"); got != "_\r\n" && got != "$-1\r\n" {
		t.Errorf("get of an expired key: %q", got)
	}
	if got := rec.take(); got != "__keyevent@0__:expired k2" {
		t.Errorf("get of an expired key sent %q", got)
	}
	// Without the x class nothing is logged in the shard.
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("E$"))
	h.run(conn, false, "put k3 past")
	h.run(conn, false, "get k3")
	if got := rec.take(); got != "__keyevent@0__:set k3" {
		t.Errorf("x off: %q", got)
	}
	h.allUnlocked()
}

// TestNotifyPanicDropsEvents: a handler's panic drops the events it raised; the next command
// sends only its own.
func TestNotifyPanicDropsEvents(t *testing.T) {
	if crashOnPanic {
		t.Skip("invariants build: a handler's panic ends the process")
	}
	h, rec := newNotifyHarness(t)
	conn := &fakeConn{}
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("E$"))
	if got, _ := h.run(conn, false, "putboom k"); !strings.HasPrefix(got, "-ERR internal error") {
		t.Fatalf("putboom: %q", got)
	}
	if got := rec.take(); got != "" {
		t.Errorf("a panicking command published %q", got)
	}
	if n := h.ctx.PendingEvents(); n != 0 {
		t.Errorf("%d events left after the panic", n)
	}
	other := "k2"
	for i := 3; h.p.KS.ShardFor([]byte(other)) == h.p.KS.ShardFor([]byte("k")); i++ {
		other = "k" + strings.Repeat("x", i)
	}
	h.run(conn, false, "put "+other)
	if got := rec.take(); got != "__keyevent@0__:set "+other {
		t.Errorf("the next command published %q", got)
	}
	h.allUnlocked()
}

// TestNotifyNoPublisher: without a Publisher the events are dropped, not kept.
func TestNotifyNoPublisher(t *testing.T) {
	h := newHarness(t, notifyRows()...)
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("KEA"))
	h.run(&fakeConn{}, false, "put k")
	if n := h.ctx.PendingEvents(); n != 0 {
		t.Errorf("%d events kept", n)
	}
}

// TestPublishKeyEvent: events from outside a command (the cron's expiry, eviction) are sent at
// once when their class is enabled.
func TestPublishKeyEvent(t *testing.T) {
	h, rec := newNotifyHarness(t)
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("KEx"))
	h.p.PublishKeyEvent(keyspace.NotifyEvicted, EventEvicted, 0, []byte("k"))
	h.p.PublishKeyEvent(keyspace.NotifyExpired, EventExpired, 3, []byte("k"))
	if got, want := rec.take(), "__keyspace@3__:k expired\n__keyevent@3__:expired k"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestNotifyActiveExpiry: the cron's expiry logs its keys in the shard and ActiveExpireCycle
// hands them to SetOnExpired's function once the shard is unlocked.
func TestNotifyActiveExpiry(t *testing.T) {
	h, rec := newNotifyHarness(t)
	ks := h.p.KS
	ks.SetNotifyClasses(keyspace.ParseNotifyClasses("Ex"))
	ks.SetOnExpired(func(db int, key []byte) {
		h.p.PublishKeyEvent(keyspace.NotifyExpired, EventExpired, db, key)
	})
	for _, key := range []string{"a", "b"} {
		sh := ks.Shard(ks.ShardFor([]byte(key)))
		sh.Lock()
		rec, err := object.NewString(sh.Arena(), []byte(key), []byte("v"), ks.Now()-10, object.WriteSet)
		if err == nil {
			err = sh.InsertLocked(1, []byte(key), rec)
		}
		sh.Unlock()
		if err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := ks.ActiveExpireCycle(100); n != 2 {
		t.Fatalf("%d keys expired, want 2", n)
	}
	got := strings.Split(rec.take(), "\n")
	if len(got) != 2 || !(got[0] == "__keyevent@1__:expired a" && got[1] == "__keyevent@1__:expired b" ||
		got[0] == "__keyevent@1__:expired b" && got[1] == "__keyevent@1__:expired a") {
		t.Errorf("active expiry published %q", got)
	}
}

// TestNotifyOffAllocs: with notifications off, a command that raises events allocates nothing
// for them.
func TestNotifyOffAllocs(t *testing.T) {
	h, _ := newNotifyHarness(t)
	conn := &fakeConn{}
	h.run(conn, true, "get k")
	args := h.parser.Command(0)
	cmd, _ := h.tab.Lookup(args)
	n := testing.AllocsPerRun(100, func() {
		h.w.Reset()
		h.ctx.Args, h.ctx.Cmd = args, cmd
		h.p.Run(h.ctx, conn, "", true)
	})
	if n != 0 {
		t.Errorf("%.1f allocations per run", n)
	}
}

// nopPublisher drops every message.
type nopPublisher struct{}

func (nopPublisher) Publish(channel, message []byte) int { return 0 }

// TestNotifyOnAllocs: with notifications on, recording and publishing a command's events
// allocates nothing once the Ctx's buffers have grown.
func TestNotifyOnAllocs(t *testing.T) {
	h := newHarness(t, notifyRows()...)
	h.p.Publisher = nopPublisher{}
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("KEA"))
	conn := &fakeConn{}
	h.run(conn, false, "put k")
	args := h.parser.Command(0)
	cmd, _ := h.tab.Lookup(args)
	allocs := func() float64 {
		return testing.AllocsPerRun(100, func() {
			h.w.Reset()
			h.ctx.Args, h.ctx.Cmd = args, cmd
			h.p.Run(h.ctx, conn, "", false)
		})
	}
	on := allocs()
	h.p.KS.SetNotifyClasses(0)
	off := allocs()
	// The test row's own allocations (if any) count in both; the events must add none.
	if on != off {
		t.Errorf("%.1f allocations per run with notifications, %.1f without", on, off)
	}
}
