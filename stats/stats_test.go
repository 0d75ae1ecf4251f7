package stats

import (
	"strings"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/latency"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/slowlog"
)

// fixture is a small table with its statistics.
type fixture struct {
	t      *testing.T
	tab    *command.Table
	s      *Stats
	slow   *slowlog.Log
	mon    *latency.Monitor
	parser *querybuf.Parser
}

func noop(*command.Ctx) {}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	tab := command.New([]*command.Command{
		{Name: "get", Handler: noop},
		{Name: "set", Handler: noop},
		{Name: "client", Subcommands: []*command.Command{
			{Name: "list", Handler: noop},
			{Name: "id", Handler: noop},
		}},
	})
	f := &fixture{t: t, tab: tab, slow: slowlog.New(), mon: latency.New(),
		parser: querybuf.NewParser(querybuf.DefaultLimits())}
	f.s = New(tab, f.slow, f.mon)
	return f
}

// ctx returns a context for the command line (inline syntax) of a known command.
func (f *fixture) ctx(line string) *command.Ctx {
	f.t.Helper()
	f.parser.ResetCommands()
	if _, err := f.parser.Parse([]byte(line + "\r\n")); err != nil {
		f.t.Fatal(err)
	}
	args := f.parser.Command(0)
	cmd, errText := f.tab.Lookup(args)
	if cmd == nil {
		f.t.Fatalf("%s: %s", line, errText)
	}
	return &command.Ctx{Args: args, Cmd: cmd}
}

// peer is a connection with an address and a name.
type peer struct{}

func (peer) AuthRequired() bool { return false }
func (peer) DebugAllowed() bool { return false }
func (peer) PeerID() string     { return "127.0.0.1:5000" }
func (peer) ClientName() string { return "worker" }

func (f *fixture) info(write func(*Stats, *strings.Builder)) string {
	var b strings.Builder
	write(f.s, &b)
	return b.String()
}

func TestCommandStats(t *testing.T) {
	f := newFixture(t)
	f.s.Called(f.ctx("GET k"), peer{}, 3000, nil)
	f.s.Called(f.ctx("GET k"), peer{}, 5000, []byte("WRONGTYPE"))
	f.s.Rejected(f.ctx("GET k"), []byte("ERR"))
	f.s.Called(f.ctx("CLIENT LIST"), peer{}, 1000, nil)
	f.s.Rejected(&command.Ctx{}, []byte("ERR")) // an unknown command: no row
	want := "cmdstat_client|list:calls=1,usec=1,usec_per_call=1.00,rejected_calls=0,failed_calls=0\r\n" +
		"cmdstat_get:calls=2,usec=8,usec_per_call=4.00,rejected_calls=1,failed_calls=1\r\n"
	if got := f.info((*Stats).WriteCommandStats); got != want {
		t.Errorf("commandstats:\n%q\nwant\n%q", got, want)
	}
	if got, want := f.info((*Stats).WriteErrorStats), "errorstat_ERR:count=2\r\nerrorstat_WRONGTYPE:count=1\r\n"; got != want {
		t.Errorf("errorstats %q, want %q", got, want)
	}
	if n := f.s.TotalErrorReplies(); n != 3 {
		t.Errorf("total_error_replies %d, want 3", n)
	}
	if got := f.info((*Stats).WriteLatencyStats); !strings.Contains(got, "latency_percentiles_usec_get:p50=3.007,p99=5.023,p99.9=5.023\r\n") ||
		!strings.Contains(got, "latency_percentiles_usec_client|list:p50=1.003,") {
		t.Errorf("latencystats %q", got)
	}

	// CONFIG RESETSTAT: everything from zero, histograms gone.
	f.s.Reset()
	for _, w := range []func(*Stats, *strings.Builder){(*Stats).WriteCommandStats, (*Stats).WriteErrorStats, (*Stats).WriteLatencyStats} {
		if got := f.info(w); got != "" {
			t.Errorf("after Reset: %q", got)
		}
	}
	if n := f.s.TotalErrorReplies(); n != 0 {
		t.Errorf("total_error_replies after Reset %d", n)
	}
	f.s.Called(f.ctx("SET k v"), peer{}, 2000, nil)
	if got, want := f.info((*Stats).WriteCommandStats), "cmdstat_set:calls=1,usec=2,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r\n"; got != want {
		t.Errorf("after Reset and a SET: %q, want %q", got, want)
	}
}

func TestLatencyTrackingSettings(t *testing.T) {
	f := newFixture(t)
	f.s.SetPercentiles([]float64{0, 33.3333, 100})
	f.s.Called(f.ctx("GET k"), nil, 1000, nil)
	if got, want := f.info((*Stats).WriteLatencyStats), "latency_percentiles_usec_get:p0=1.000,p33.3333=1.003,p100=1.003\r\n"; got != want {
		t.Errorf("latencystats %q, want %q", got, want)
	}
	f.s.SetPercentiles(nil)
	if got, want := f.info((*Stats).WriteLatencyStats), "latency_percentiles_usec_get:\r\n"; got != want {
		t.Errorf("no percentiles: %q, want %q", got, want)
	}
	// latency-tracking no: INFO shows nothing and no histogram is started.
	f.s.SetLatencyTracking(false)
	f.s.Called(f.ctx("SET k v"), nil, 1000, nil)
	if got := f.info((*Stats).WriteLatencyStats); got != "" {
		t.Errorf("tracking off: %q", got)
	}
	f.s.SetLatencyTracking(true)
	if got := f.info((*Stats).WriteLatencyStats); strings.Contains(got, "_set:") {
		t.Errorf("a SET run while tracking was off has a histogram: %q", got)
	}
}

func TestSlowAndLatencyHandOff(t *testing.T) {
	f := newFixture(t)
	f.slow.SetSlowerThan(5) // µs
	f.mon.SetThreshold(2)   // ms
	f.s.Called(f.ctx("GET fast"), peer{}, 4999, nil)
	f.s.Called(f.ctx("SET slow v"), peer{}, 2_500_000, nil)
	es := f.slow.Newest(-1)
	if len(es) != 1 || string(es[0].Args[1]) != "slow" || es[0].Duration != 2500 || es[0].Peer != "127.0.0.1:5000" || es[0].Name != "worker" {
		t.Fatalf("slow log %+v", es)
	}
	latest := f.mon.Latest()
	// get and set have no metadata flags here (rows of a test table): both are "command".
	if len(latest) != 1 || latest[0].Event != latency.EventCommand || latest[0].Latency != 2 {
		t.Fatalf("latency monitor %+v", latest)
	}
}

func TestErrorCodesBounded(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < maxErrorCodes; i++ {
		f.s.CountError("E" + strings.Repeat("X", i))
	}
	f.s.CountError("E") // known: still counted
	if got := f.info((*Stats).WriteErrorStats); strings.Count(got, "\r\n") != maxErrorCodes || !strings.Contains(got, "errorstat_E:count=2\r\n") {
		t.Fatalf("at the bound: %q", got)
	}
	f.s.CountError("NEW")
	if got, want := f.info((*Stats).WriteErrorStats), "errorstat_ERRORSTATS_DISABLED:count=1\r\n"; got != want {
		t.Fatalf("past the bound: %q, want %q", got, want)
	}
	f.s.CountError("OTHER")
	if got := f.info((*Stats).WriteErrorStats); got != "errorstat_ERRORSTATS_DISABLED:count=1\r\n" {
		t.Fatalf("disabled: %q", got)
	}
	if n := f.s.TotalErrorReplies(); n != maxErrorCodes+3 {
		t.Fatalf("total_error_replies %d, want %d", n, maxErrorCodes+3)
	}
	f.s.Reset()
	f.s.CountError("ERR")
	if got := f.info((*Stats).WriteErrorStats); got != "errorstat_ERR:count=1\r\n" {
		t.Fatalf("after Reset: %q", got)
	}
}

// TestConcurrentCounting: commands counted from many goroutines at once, with resets between
// rounds, add up exactly (run with -race too).
func TestConcurrentCounting(t *testing.T) {
	f := newFixture(t)
	get := f.tab.ByName("get")
	const goroutines, perG = 8, 5000
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		for g := 0; g < goroutines; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx := &command.Ctx{Cmd: get}
				for i := 0; i < perG; i++ {
					f.s.Called(ctx, nil, 1000, nil)
				}
			}()
		}
		wg.Wait()
		tot := f.s.totalsOf(get.ID)
		if tot.calls != goroutines*perG || tot.ns != goroutines*perG*1000 {
			t.Fatalf("round %d: calls %d ns %d, want %d and %d", round, tot.calls, tot.ns, goroutines*perG, goroutines*perG*1000)
		}
		if h := f.s.histogramOf(get.ID); h == nil || h.total != goroutines*perG {
			t.Fatalf("round %d: histogram %v", round, h)
		}
		f.s.Reset()
	}
}

func TestPercentileName(t *testing.T) {
	for p, want := range map[float64]string{50: "50", 99.9: "99.9", 0: "0", 100: "100", 33.3333333: "33.333333"} {
		if got := percentileName(p); got != want {
			t.Errorf("percentileName(%v) = %q, want %q", p, got, want)
		}
	}
}

// BenchmarkCalled is what the pipeline adds after each command that is neither slow nor an
// error: the counters, the histogram, the threshold checks (0 allocs).
func BenchmarkCalled(b *testing.B) {
	f := newFixture(&testing.T{})
	ctx := &command.Ctx{Cmd: f.tab.ByName("get")}
	f.s.Called(ctx, nil, 1500, nil) // the histogram exists
	b.ReportAllocs()
	for b.Loop() {
		f.s.Called(ctx, nil, 1500, nil)
	}
}

// BenchmarkCalledParallel: the same from every P at once (the stripes keep them apart).
func BenchmarkCalledParallel(b *testing.B) {
	f := newFixture(&testing.T{})
	get := f.tab.ByName("get")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ctx := &command.Ctx{Cmd: get}
		for pb.Next() {
			f.s.Called(ctx, nil, 1500, nil)
		}
	})
}

// TestHistogramGroupsOnDemand: a histogram holds only the groups of counts its durations fell
// in — not 24 KiB per command and P.
func TestHistogramGroupsOnDemand(t *testing.T) {
	f := newFixture(t)
	ctx := f.ctx("GET k")
	for _, ns := range []int64{1000, 1010, 1100, 3_000_000} {
		f.s.Called(ctx, nil, ns, nil)
	}
	groups := 0
	for i := range f.s.stripes {
		if h := f.s.stripes[i].cmds[ctx.Cmd.ID].hist.Load(); h != nil {
			for g := range h.groups {
				if h.groups[g].Load() != nil {
					groups++
				}
			}
		}
	}
	// 1000 and 1010 ns share a group (bucket 2); 1100 ns (bucket 3) and 3 ms need one each. A
	// goroutine moved to another P in the middle has started another stripe's histogram: the
	// groups are counted over all stripes.
	if groups < 3 || groups > 4 {
		t.Errorf("%d groups of counts allocated, want 3", groups)
	}
	if snap := f.s.histogramOf(ctx.Cmd.ID); snap == nil || snap.total != 4 {
		t.Errorf("histogram %v", snap)
	}
}
