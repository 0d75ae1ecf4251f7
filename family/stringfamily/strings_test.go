package stringfamily

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// TestRowsMatchRedis compares every row with Redis 7.2's COMMAND INFO (command.LookupMeta):
// arity, key positions, flags and ACL categories; and the family with Redis's string group.
func TestRowsMatchRedis(t *testing.T) {
	tab := command.New(Commands())
	ours := map[string]bool{}
	for _, cmd := range tab.All() {
		ours[cmd.Name] = true
		m := command.LookupMeta(cmd.Name)
		if m == nil {
			t.Errorf("%s: not a Redis 7.2 command", cmd.Name)
			continue
		}
		if cmd.Arity != m.Arity || cmd.First != m.FirstKey || cmd.Last != m.LastKey || cmd.Step != m.KeyStep {
			t.Errorf("%s: arity %d keys %d,%d,%d; Redis: %d, %d,%d,%d", cmd.Name, cmd.Arity, cmd.First, cmd.Last, cmd.Step,
				m.Arity, m.FirstKey, m.LastKey, m.KeyStep)
		}
		var flags []string
		for _, f := range command.FlagNames {
			if cmd.Flags&f.Flag != 0 {
				flags = append(flags, f.Name)
			}
		}
		if !slices.Equal(flags, m.Flags) {
			t.Errorf("%s: flags %v, Redis %v", cmd.Name, flags, m.Flags)
		}
		if got, want := slices.Sorted(slices.Values(cmd.CatNames)), slices.Sorted(slices.Values(m.ACLCategories)); !slices.Equal(got, want) {
			t.Errorf("%s: categories %v, Redis %v", cmd.Name, got, want)
		}
		if cmd.Locking != command.LockKeys || cmd.Handler == nil || !cmd.Inline {
			t.Errorf("%s: locking %v, handler %v, inline %v", cmd.Name, cmd.Locking, cmd.Handler != nil, cmd.Inline)
		}
	}
	// LCS (Redis 7.0) is the one command of the group not here yet.
	for _, m := range command.AllMeta() {
		if m.Docs.Group == "string" && !ours[m.Name] && m.Name != "lcs" {
			t.Errorf("Redis's string command %s is missing", m.Name)
		}
	}
}

// TestBigValues: values of querybuf.BigArgThreshold bytes or more are copied when the Ctx has
// no Records (counted in BigArgCopies), or go through Records when it has; and every command
// reads and writes them whole.
func TestBigValues(t *testing.T) {
	h := newHarness(t)
	big := strings.Repeat("abcdefgh", querybuf.BigArgThreshold/8+512) // 36 KiB
	h.expect("OK", "SET", "big", big)
	if n := h.copies.Load(); n != 1 {
		t.Errorf("SET of %d bytes: %d copies counted, want 1", len(big), n)
	}
	if got := h.do("GET", "big"); !bytes.Equal(got, fmt.Appendf(nil, "$%d\r\n%s\r\n", len(big), big)) {
		t.Errorf("GET big: %.60q… (%d bytes)", got, len(got))
	}
	h.expect(fmt.Sprintf("(integer) %d", len(big)), "STRLEN", "big")
	h.expect(`"defg"`, "GETRANGE", "big", "-5", "-2")
	h.expect(fmt.Sprintf("(integer) %d", 2*len(big)), "APPEND", "big", big)
	h.expect(fmt.Sprintf("(integer) %d", 2*len(big)), "SETRANGE", "big", itoa(2*len(big)-3), "XYZ")
	h.expect(`"eXYZ"`, "GETRANGE", "big", "-4", "-1")
	if got := h.run("GETDEL", "big"); len(got) != 2*len(big)+2 || !strings.HasSuffix(got, `abcdeXYZ"`) {
		t.Errorf("GETDEL big: %d bytes", len(got))
	}
	h.expect("OK", "MSET", "b1", big, "b2", "small", "b3", big)
	h.expect(`"small"`, "GETSET", "b2", big)
	h.expect("(integer) 0", "MSETNX", "b4", big, "b1", big)
	if n := h.copies.Load(); n != 4 {
		t.Errorf("%d copies counted, want 4 (SET, MSET ×2, GETSET)", n)
	}
	for _, k := range []string{"b1", "b2", "b3"} {
		h.expect(fmt.Sprintf("(integer) %d", len(big)), "STRLEN", k)
	}

	// With Records, every string record made from an argument goes through it.
	rec := &countingRecords{}
	h.ctx.Records = rec
	defer func() { h.ctx.Records = nil }()
	h.expect("OK", "SET", "r1", big, "EX", "100")
	h.expect("OK", "SETEX", "r2", "100", big)
	h.expect("(integer) 1", "SETNX", "r3", big)
	h.expect(fmt.Sprintf("(integer) %d", len(big)), "APPEND", "r4", big)
	if rec.big != 4 || h.copies.Load() != 4 {
		t.Errorf("Records made %d big records (want 4); copies %d (want still 4)", rec.big, h.copies.Load())
	}
	h.expect("(integer) 100", "TTL", "r1")
	h.expect(fmt.Sprintf("(integer) %d", len(big)), "STRLEN", "r2")
}

// countingRecords is a command.Records that copies, as the server's does when it cannot
// adopt, and counts the big values it is given.
type countingRecords struct{ big int }

func (r *countingRecords) NewStringRecord(sh *keyspace.Shard, key, val []byte, expireAt int64) (alloc.Handle, error) {
	if len(val) >= querybuf.BigArgThreshold {
		r.big++
	}
	return object.NewString(sh.Arena(), key, val, expireAt, object.WriteSet)
}

// TestKeyspaceStats: reads count a keyspace hit or miss per key looked up (Redis's
// lookupKeyRead), writes count nothing unless they read (SET…GET).
func TestKeyspaceStats(t *testing.T) {
	h := newHarness(t)
	stats := func() (int64, int64) { return h.ctx.Stats.Hits.Load(), h.ctx.Stats.Misses.Load() }
	for _, c := range []struct {
		args         []string
		hits, misses int64
	}{
		{[]string{"SET", "k", "v"}, 0, 0},
		{[]string{"GET", "k"}, 1, 0},
		{[]string{"GET", "nokey"}, 0, 1},
		{[]string{"MGET", "k", "nokey", "k"}, 2, 1},
		{[]string{"SET", "k", "w", "GET"}, 1, 0},
		{[]string{"SET", "k2", "w", "GET"}, 0, 1},
		{[]string{"SETNX", "k3", "v"}, 0, 0},
		{[]string{"INCR", "n"}, 0, 0},
		{[]string{"APPEND", "k", "x"}, 0, 0},
		{[]string{"STRLEN", "k"}, 1, 0},
		{[]string{"GETRANGE", "nokey", "0", "1"}, 0, 1},
		{[]string{"GETDEL", "k3"}, 1, 0},
		{[]string{"GETEX", "k", "PERSIST"}, 1, 0},
	} {
		h0, m0 := stats()
		h.run(c.args...)
		h1, m1 := stats()
		if h1-h0 != c.hits || m1-m0 != c.misses {
			t.Errorf("%q: %d hits %d misses, want %d %d", c.args, h1-h0, m1-m0, c.hits, c.misses)
		}
	}
}

// prepared parses a command once and returns a function that runs it through the pipeline
// inline, as a readiness loop does, for AllocsPerRun and the benchmarks.
func (h *harness) prepared(args ...string) func() {
	a := h.parse(args...)
	cmd, errText := h.tab.Lookup(a)
	conn := &fakeConn{}
	return func() {
		h.w.Reset()
		h.ctx.Args, h.ctx.Cmd = a, cmd
		if h.p.Run(h.ctx, conn, errText, true) != command.Done {
			h.t.Fatal("handed off")
		}
	}
}

// TestAllocs: GET and SET — and the other commands of the hot path — allocate nothing through
// the pipeline in steady state.
func TestAllocs(t *testing.T) {
	h := newHarness(t)
	h.run("SET", "k", "value")
	h.run("SET", "n", "12")
	h.run("MSET", "a", "1", "b", "2", "c", "3")
	for _, args := range [][]string{
		{"GET", "k"},
		{"GET", "n"},
		{"GET", "missing"},
		{"SET", "k", "value"},
		{"SET", "k", "0123456789abcdefghij0123456789abcdefghij0123456789abcdefghij"},
		{"SET", "k", "v", "NX"},
		{"SET", "k", "v", "XX", "GET", "PX", "100000"},
		{"SET", "k", "v", "EX", "100"},
		{"SETEX", "k", "100", "value"},
		{"MGET", "a", "b", "c", "missing"},
		{"MSET", "a", "1", "b", "2", "c", "3"},
		{"INCR", "n"},
		{"DECRBY", "n", "3"},
		{"STRLEN", "k"},
		{"GETRANGE", "k", "0", "-2"},
		{"GETEX", "k", "PX", "100000"},
	} {
		run := h.prepared(args...)
		run()
		if n := testing.AllocsPerRun(200, run); n != 0 {
			t.Errorf("%q: %.1f allocations per run", args, n)
		}
	}
}

// TestConcurrentClients: connections running on their own goroutines keep each command
// atomic — INCR loses no increment, MGET never sees half of an MSET across shards.
func TestConcurrentClients(t *testing.T) {
	h := newHarness(t)
	const clients, rounds = 8, 300
	keys := []string{"c:a", "c:b", "c:c", "c:d", "c:e", "c:f"}
	var wg sync.WaitGroup
	errs := make(chan string, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch := &harness{t: t, clock: h.clock, ks: h.ks, tab: h.tab, p: h.p,
				parser: querybuf.NewParser(querybuf.DefaultLimits())}
			ch.ctx = &command.Ctx{W: &ch.w, KS: h.ks, Cfg: h.ctx.Cfg, Stats: &command.KeyStats{}, BigArgCopies: &ch.copies}
			for r := range rounds {
				ch.do("INCR", "c:counter")
				v := itoa(c*rounds + r)
				mset := []string{"MSET"}
				for _, k := range keys {
					mset = append(mset, k, v)
				}
				ch.do(mset...)
				got := ch.run(append([]string{"MGET"}, keys...)...)
				lines := strings.Split(got, "\n")
				for _, l := range lines[1:] {
					if l[3:] != lines[0][3:] {
						errs <- fmt.Sprintf("MGET saw half an MSET:\n%s", got)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	h.expect(fmt.Sprintf("(integer) %d", clients*rounds+1), "INCR", "c:counter")
}

func BenchmarkGet(b *testing.B) {
	h := newHarness(b)
	h.run("SET", "key:000000000001", "value:0123456789")
	run := h.prepared("GET", "key:000000000001")
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
}

func BenchmarkSet(b *testing.B) {
	h := newHarness(b)
	run := h.prepared("SET", "key:000000000001", "value:0123456789")
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
}

func BenchmarkMGet4(b *testing.B) {
	h := newHarness(b)
	h.run("MSET", "k1", "v1", "k2", "v2", "k3", "v3", "k4", "v4")
	run := h.prepared("MGET", "k1", "k2", "k3", "k4")
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
}

func BenchmarkIncr(b *testing.B) {
	h := newHarness(b)
	run := h.prepared("INCR", "counter")
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
}

// TestRelativeExpireNeverPast: SET PX 1, PSETEX 1 and RESTORE's relative TTL store the key
// even when the clock moves between the expire's computation and the write (a slow command):
// only an absolute time already past deletes it. Before, the write compared with a second
// reading of the clock and dropped the key while answering OK.
func TestRelativeExpireNeverPast(t *testing.T) {
	h := newHarness(t)
	h.clock.tick.Store(5) // every reading of the clock is 5 ms later than the one before
	h.expect("OK", "SET", "a", "v", "PX", "1")
	h.expect("OK", "PSETEX", "b", "1", "v")
	h.expect("OK", "SET", "c", "v", "PX", "1", "NX")
	h.expect("OK", "SET", "d", "v", "PXAT", "1") // an absolute time long past: deleted
	if n := h.ks.Keys(0); n != 3 {
		t.Errorf("keys after the relative SETs: %d, want 3 (a, b, c; not d)", n)
	}
}

// nopPublisher drops every message: BenchmarkSetNotify measures recording and formatting the
// events, not pub/sub's delivery.
type nopPublisher struct{}

func (nopPublisher) Publish(channel, message []byte) int { return 0 }

func BenchmarkSetNotify(b *testing.B) {
	h := newHarness(b)
	h.p.Publisher = nopPublisher{}
	h.ks.SetNotifyClasses(keyspace.ParseNotifyClasses("KEA"))
	run := h.prepared("SET", "key:000000000001", "value:0123456789")
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
}
