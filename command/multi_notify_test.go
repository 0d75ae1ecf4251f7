package command

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/keyspace"
)

// TestExecNotify: EXEC publishes its queued commands' keyspace notifications once its locks are
// released, in order; a queued command that panics loses its own events, not those of the
// commands before it.
func TestExecNotify(t *testing.T) {
	var seen [][]int
	var unionHeld []bool
	h := newHarness(t, append(txRows(&seen, &unionHeld), notifyRows()...)...)
	rec := &recordingPublisher{t: t, ks: h.p.KS}
	h.p.Publisher = rec
	h.p.KS.SetNotifyClasses(keyspace.ParseNotifyClasses("E$"))
	conn := &fakeConn{}
	keys := keysOnShards(h, 3)

	h.run(conn, false, "multi")
	h.run(conn, false, "mput "+keys[0]+" "+keys[1])
	h.run(conn, false, "put "+keys[2])
	if got := rec.take(); got != "" {
		t.Fatalf("queuing published %q", got)
	}
	if got, _ := h.run(conn, false, "exec"); got != "*2\r\n+OK\r\n+OK\r\n" {
		t.Fatalf("exec: %q", got)
	}
	want := "__keyevent@0__:set " + keys[0] + "\n__keyevent@0__:set " + keys[1] + "\n__keyevent@0__:set " + keys[2]
	if got := rec.take(); got != want {
		t.Errorf("exec published:\n%s\nwant\n%s", got, want)
	}
	h.allUnlocked()

	if crashOnPanic {
		return // invariants build: a handler's panic ends the process
	}
	h.run(conn, false, "multi")
	h.run(conn, false, "put "+keys[0])
	h.run(conn, false, "putboom "+keys[1])
	h.run(conn, false, "put "+keys[2])
	if got, _ := h.run(conn, false, "exec"); !strings.Contains(got, "internal error in 'putboom'") {
		t.Fatalf("exec with a panic: %q", got)
	}
	if got, want := rec.take(), "__keyevent@0__:set "+keys[0]; got != want {
		t.Errorf("exec with a panic published %q, want %q", got, want)
	}
	if n := h.ctx.PendingEvents(); n != 0 {
		t.Errorf("%d events left after EXEC", n)
	}
	h.allUnlocked()
}
