package command

import (
	"slices"
	"strings"
	"testing"
)

// txRows are MULTI and EXEC as txfamily has them (this package cannot import it), and test
// commands that record what they hold while EXEC runs them.
func txRows(seen *[][]int, unionHeld *[]bool) []*Command {
	record := func(ctx *Ctx) {
		*seen = append(*seen, slices.Clone(ctx.Locked()))
		ok := true
		for i := 1; i < ctx.Args.Len(); i++ {
			sh := ctx.KS.Shard(ctx.KS.ShardFor(ctx.Args.Arg(i)))
			if sh.TryLock() {
				sh.Unlock()
				ok = false
			}
		}
		*unionHeld = append(*unionHeld, ok)
		ctx.W.OK()
	}
	return []*Command{
		{Name: "multi", Handler: func(ctx *Ctx) { TxOf(ctx).Begin(); ctx.W.OK() }},
		{Name: "exec", Locking: LockNone, Handler: func(ctx *Ctx) { ctx.W.Error(ErrExecWithoutMulti.Error()) }},
		{Name: "discard", Locking: LockNone, Handler: func(ctx *Ctx) { ctx.Tx.Discard(ctx.KS); ctx.W.OK() }},
		// hold KEY: records its own shards, and whether EXEC's other keys (the extra
		// arguments, not its keys) are locked too.
		{Name: "hold", Arity: -2, Flags: Write | Fast, First: 1, Last: 1, Step: 1, Handler: record},
		{Name: "wipe", Arity: 1, Flags: Write, Locking: LockAll, Handler: func(ctx *Ctx) {
			*seen = append(*seen, slices.Clone(ctx.Locked()))
			ctx.W.OK()
		}},
		{Name: "boom", Arity: 2, Flags: Write, First: 1, Last: 1, Step: 1,
			Handler: func(ctx *Ctx) { ctx.W.Int(1); panic("in a transaction") }},
	}
}

// keysOnShards returns n keys on n different shards.
func keysOnShards(h *harness, n int) []string {
	var keys []string
	used := map[int]bool{}
	for i := 0; len(keys) < n; i++ {
		k := "k" + strings.Repeat("x", i)
		if s := h.p.KS.ShardFor([]byte(k)); !used[s] {
			used[s] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// TestExecLockUnion: EXEC holds the union of its commands' shards while each runs, each
// command sees its own shards as Locked, a LockAll command makes the union every shard, and
// everything is released after.
func TestExecLockUnion(t *testing.T) {
	var seen [][]int
	var unionHeld []bool
	h := newHarness(t, txRows(&seen, &unionHeld)...)
	conn := &fakeConn{}
	keys := keysOnShards(h, 3)
	all := strings.Join(keys, " ")
	h.run(conn, false, "multi")
	for _, k := range keys {
		if got, _ := h.run(conn, true, "hold "+k+" "+all); got != "+QUEUED\r\n" {
			t.Fatalf("queuing: %q", got)
		}
	}
	h.allUnlocked()
	got, out := h.run(conn, false, "exec")
	if out != Done || got != "*3\r\n+OK\r\n+OK\r\n+OK\r\n" {
		t.Fatalf("exec: %q %v", got, out)
	}
	for i, k := range keys {
		if !unionHeld[i] {
			t.Errorf("command %d: the other commands' shards were not held", i)
		}
		if want := []int{h.p.KS.ShardFor([]byte(k))}; !slices.Equal(seen[i], want) {
			t.Errorf("command %d saw Locked %v, want %v", i, seen[i], want)
		}
	}
	h.allUnlocked()

	seen, unionHeld = nil, nil
	h.run(conn, false, "multi")
	h.run(conn, false, "hold "+keys[0]+" "+all)
	h.run(conn, false, "wipe")
	if got, _ := h.run(conn, false, "exec"); got != "*2\r\n+OK\r\n+OK\r\n" {
		t.Fatalf("exec with wipe: %q", got)
	}
	if len(seen[1]) != h.p.KS.NumShards() || !unionHeld[0] {
		t.Errorf("wipe saw %v, hold saw the union held: %v", seen[1], unionHeld[0])
	}
	h.allUnlocked()
}

// TestExecHandoff: inline, EXEC with a shard of its union held elsewhere hands off without
// running or writing anything, and the transaction is still there for the goroutine.
func TestExecHandoff(t *testing.T) {
	var seen [][]int
	var unionHeld []bool
	h := newHarness(t, txRows(&seen, &unionHeld)...)
	conn := &fakeConn{}
	keys := keysOnShards(h, 2)
	h.run(conn, false, "multi")
	h.run(conn, false, "hold "+keys[0])
	h.run(conn, false, "hold "+keys[1])
	busy := h.p.KS.Shard(h.p.KS.ShardFor([]byte(keys[1])))
	busy.Lock()
	if got, out := h.run(conn, true, "exec"); out != Handoff || got != "" || len(seen) != 0 {
		t.Fatalf("inline exec with a busy shard: %q %v, ran %d", got, out, len(seen))
	}
	busy.Unlock()
	h.allUnlocked()
	if got, out := h.run(conn, false, "exec"); out != Done || got != "*2\r\n+OK\r\n+OK\r\n" {
		t.Fatalf("exec after the hand-off: %q %v", got, out)
	}
	h.allUnlocked()
}

// TestExecPanic: a queued command's panic is recovered inside EXEC: its element is the error
// naming it, the commands after it are not run, EXEC's array stays whole, every lock is
// released and the write's shard poisoned.
func TestExecPanic(t *testing.T) {
	if crashOnPanic {
		t.Skip("invariants build: a handler's panic ends the process")
	}
	var seen [][]int
	var unionHeld []bool
	h := newHarness(t, txRows(&seen, &unionHeld)...)
	conn := &fakeConn{}
	keys := keysOnShards(h, 3)
	h.run(conn, false, "multi")
	h.run(conn, false, "hold "+keys[0])
	h.run(conn, false, "boom "+keys[1])
	h.run(conn, false, "hold "+keys[2])
	got, _ := h.run(conn, false, "exec")
	want := "*3\r\n+OK\r\n-ERR internal error in 'boom': the command was aborted and its changes may be partial (see the server log)\r\n-" + errTxStopped.Error() + "\r\n"
	if got != want {
		t.Fatalf("exec: %q\nwant %q", got, want)
	}
	if len(seen) != 1 || len(h.panics) != 1 || h.panics[0] != "boom" {
		t.Errorf("ran %d commands, panics reported %v", len(seen), h.panics)
	}
	h.allUnlocked()
	if h.p.KS.PoisonedShards() != 1 {
		t.Errorf("%d shards poisoned, want 1", h.p.KS.PoisonedShards())
	}
	if got, _ := h.run(conn, false, "exec"); got != "-"+errExecWithout.Error()+"\r\n" {
		t.Errorf("the transaction was not ended: %q", got)
	}
}

// TestMultiQueueCopies: queued arguments are copied out of the parser's arena (the harness
// resets it before each command) and counted in multi-mem; errors while queuing abort.
func TestMultiQueueCopies(t *testing.T) {
	var seen [][]int
	var unionHeld []bool
	h := newHarness(t, txRows(&seen, &unionHeld)...)
	conn := &fakeConn{}
	h.run(conn, false, "multi")
	h.run(conn, false, "hold alpha beta")
	h.run(conn, false, "hold gamma")
	if n, mem := h.ctx.Tx.Queued(), h.ctx.Tx.Mem(); n != 2 || mem < int64(len("holdalphabetaholdgamma")) {
		t.Fatalf("queued %d, multi-mem %d", n, mem)
	}
	h.run(conn, false, "exec")
	if len(seen) != 2 || h.ctx.Tx.Queued() != -1 || h.ctx.Tx.Mem() != 0 {
		t.Fatalf("ran %d; after EXEC multi=%d multi-mem=%d", len(seen), h.ctx.Tx.Queued(), h.ctx.Tx.Mem())
	}
	h.run(conn, false, "multi")
	if got, _ := h.run(conn, false, "multi"); got != "-"+errNotInTx.Error()+"\r\n" {
		t.Fatalf("nested multi: %q", got)
	}
	h.run(conn, false, "hold x")
	if got, _ := h.run(conn, false, "exec"); got != "-"+errExecAbort.Error()+"\r\n" {
		t.Fatalf("exec after an error: %q", got)
	}
}

// TestTxRunsInline: in MULTI, a slow command is only queued (a loop may do it), and EXEC may
// run inline when every queued command may.
func TestTxRunsInline(t *testing.T) {
	var seen [][]int
	var unionHeld []bool
	h := newHarness(t, txRows(&seen, &unionHeld)...)
	conn := &fakeConn{}
	slow, exec := h.tab.ByName("wipe"), h.tab.ByName("exec")
	if slow == nil || exec == nil || slow.Inline || exec.Inline {
		t.Fatalf("rows: wipe %v exec %v", slow, exec)
	}
	var none *Tx
	if none.RunsInline(slow) {
		t.Fatal("outside MULTI a slow command ran inline")
	}
	h.run(conn, false, "multi")
	h.run(conn, false, "hold a")
	if !h.ctx.Tx.RunsInline(slow) || !h.ctx.Tx.RunsInline(exec) {
		t.Fatal("queuing or an inline-only EXEC would hand off")
	}
	h.run(conn, false, "wipe")
	if h.ctx.Tx.RunsInline(exec) {
		t.Fatal("EXEC of a slow command would run inline")
	}
	h.run(conn, false, "discard")
}
