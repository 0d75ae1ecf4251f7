package command

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kvserver/kvserver/replyerr"
)

// recorder is an Observer that notes what it is told.
type recorder struct {
	events []string
	ns     int64
}

func (r *recorder) Called(ctx *Ctx, conn Conn, ns int64, errCode []byte) {
	r.ns = ns
	r.events = append(r.events, fmt.Sprintf("called %s err=%s conn=%v", ctx.Cmd.FullName, errCode, conn != nil))
}

func (r *recorder) Rejected(ctx *Ctx, errCode []byte) {
	name := "<none>"
	if ctx.Cmd != nil {
		name = ctx.Cmd.FullName
	}
	r.events = append(r.events, fmt.Sprintf("rejected %s err=%s", name, errCode))
}

// TestObserver: every command answered is reported once — run (with its reply's error code,
// if any, and its handler's duration) or rejected before its handler (with the error's code);
// an inline hand-off, which answers nothing, is not reported.
func TestObserver(t *testing.T) {
	rec := &recorder{}
	h := newHarness(t,
		&Command{Name: "ok", Arity: 1, Flags: Fast, Handler: func(ctx *Ctx) { ctx.W.OK() }},
		&Command{Name: "slow", Arity: 1, Handler: func(ctx *Ctx) { time.Sleep(2 * time.Millisecond); ctx.W.OK() }},
		&Command{Name: "typed", Arity: 1, Handler: func(ctx *Ctx) { ctx.W.Error(replyerr.WrongType.Error()) }},
		&Command{Name: "custom", Arity: 1, Handler: func(ctx *Ctx) { ctx.W.Error("-ALONGCODEWITHOUTANYSPACEINTHEFIRST32 bytes") }},
		&Command{Name: "boom", Arity: 1, Flags: Write, Handler: func(ctx *Ctx) { panic("boom") }},
		&Command{Name: "get", Arity: 2, Flags: ReadOnly, First: 1, Last: 1, Step: 1, Handler: func(ctx *Ctx) { ctx.W.Null() }},
		&Command{Name: "debug", Arity: -2, Handler: func(ctx *Ctx) { ctx.W.OK() }},
	)
	h.p.Observer = rec
	conn := &fakeConn{}
	lines := []string{"ok", "typed", "custom", "nosuch", "ok extra", "debug x", "boom"}
	want := []string{
		"called ok err= conn=true",
		"called typed err=WRONGTYPE conn=true",
		"called custom err=ERR conn=true",
		"rejected <none> err=ERR",
		"rejected ok err=ERR",
		"rejected debug err=ERR",
		"called boom err=ERR conn=false",
		"rejected ok err=NOAUTH",
	}
	if crashOnPanic { // the invariants build crashes on a handler's panic: no boom there
		lines = lines[:len(lines)-1]
		want = append(want[:6], want[7])
	}
	for _, line := range lines {
		h.run(conn, false, line)
	}
	h.run(&fakeConn{auth: true}, false, "ok")
	if got := strings.Join(rec.events, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("observer was told:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	h.run(conn, false, "slow")
	if rec.ns < int64(2*time.Millisecond) {
		t.Errorf("a 2 ms handler timed at %d ns", rec.ns)
	}

	// Inline, a shard held elsewhere hands the command off: nothing answered, nothing told.
	rec.events = nil
	sh := h.p.KS.Shard(h.p.KS.ShardFor([]byte("k")))
	sh.Lock()
	if _, out := h.run(conn, true, "get k"); out != Handoff {
		t.Fatalf("outcome %v, want Handoff", out)
	}
	sh.Unlock()
	if len(rec.events) != 0 {
		t.Errorf("a hand-off was reported: %v", rec.events)
	}
	h.allUnlocked()
}
