package stats

import (
	"runtime"
	"sync/atomic"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/latency"
	"github.com/kvserver/kvserver/slowlog"
)

// Stats is the statistics of one command table, and the pipeline's Observer.
type Stats struct {
	rows    []*command.Command // the table's rows by ID
	table   *command.Table
	slow    *slowlog.Log
	monitor *latency.Monitor

	// stripes[i] belongs to P i while pinned (see doc.go); the last one is shared by the Ps
	// beyond those counted at start (GOMAXPROCS raised later), with atomic adds.
	stripes []stripe
	epoch   atomic.Uint64 // CONFIG RESETSTAT's generation

	tracking    atomic.Bool               // latency-tracking
	percentiles atomic.Pointer[[]float64] // latency-tracking-info-percentiles

	totalErrors atomic.Int64 // total_error_replies
	errors      errorTable   // errorstats
}

// stripe is one P's counters, one per row.
type stripe struct {
	epoch atomic.Uint64 // the generation its counters belong to
	cmds  []counters
	_     [64]byte // keeps the next stripe's epoch off this one's line
}

// counters are one row's INFO commandstats figures and latency histogram, in one stripe.
type counters struct {
	calls, ns, rejected, failed int64                     // written by addOwn or atomically (inc); read atomically
	hist                        atomic.Pointer[histogram] // nil until the first call timed
}

// New returns the statistics of table's rows, handing slow commands to slow and latencies to
// monitor.
func New(table *command.Table, slow *slowlog.Log, monitor *latency.Monitor) *Stats {
	s := &Stats{rows: table.ByID(), table: table, slow: slow, monitor: monitor}
	s.stripes = make([]stripe, runtime.GOMAXPROCS(0)+1)
	for i := range s.stripes {
		s.stripes[i].cmds = make([]counters, len(s.rows))
	}
	s.tracking.Store(true)
	s.percentiles.Store(&[]float64{50, 99, 99.9})
	return s
}

// SetLatencyTracking is latency-tracking: whether commands' latencies go into the histograms.
func (s *Stats) SetLatencyTracking(on bool) { s.tracking.Store(on) }

// SetPercentiles is latency-tracking-info-percentiles: the percentiles INFO latencystats shows.
func (s *Stats) SetPercentiles(p []float64) { s.percentiles.Store(&p) }

// pin pins the goroutine to its P and returns the P's stripe, brought to the current epoch;
// shared is true for the shared stripe. The caller unpins (procUnpin).
func (s *Stats) pin() (st *stripe, shared bool) {
	pid := procPin()
	last := len(s.stripes) - 1
	if pid >= last {
		pid, shared = last, true
	}
	st = &s.stripes[pid]
	if e := s.epoch.Load(); st.epoch.Load() != e {
		st.renew(e)
	}
	return st, shared
}

// renew zeroes a stripe of an older epoch and moves it to epoch e. Its owner does it, before
// counting; readers ignore the stripe until then.
func (st *stripe) renew(e uint64) {
	old := st.epoch.Load()
	if !st.epoch.CompareAndSwap(old, e) {
		return // the shared stripe: another writer renewed it
	}
	for i := range st.cmds {
		c := &st.cmds[i]
		atomic.StoreInt64(&c.calls, 0)
		atomic.StoreInt64(&c.ns, 0)
		atomic.StoreInt64(&c.rejected, 0)
		atomic.StoreInt64(&c.failed, 0)
		c.hist.Store(nil)
	}
}

// inc adds d to a counter: by its one writer in a P's own stripe (addOwn), with an atomic add
// in the shared one.
func inc(c *int64, d int64, shared bool) {
	if shared {
		atomic.AddInt64(c, d)
	} else {
		addOwn(c, d)
	}
}

// Called is command.Observer's: a command ran for ns nanoseconds, its reply an error of code
// errCode or not (nil). It counts the call (Redis's call(): calls, usec, failed_calls, the
// latency histogram), then the error, then gives the slow log and the latency monitor their
// chance.
func (s *Stats) Called(ctx *command.Ctx, conn command.Conn, ns int64, errCode []byte) {
	cmd := ctx.Cmd
	st, shared := s.pin()
	c := &st.cmds[cmd.ID]
	inc(&c.calls, 1, shared)
	inc(&c.ns, ns, shared)
	if errCode != nil {
		inc(&c.failed, 1, shared)
	}
	recorded := true
	tracking := s.tracking.Load()
	if tracking {
		h := c.hist.Load()
		recorded = h != nil && h.record(ns, shared)
	}
	procUnpin()
	if !recorded {
		s.recordSlow(cmd.ID, ns)
	}
	if errCode != nil {
		s.countError(errCode)
	}
	us := ns / 1000
	if s.slow.Logs(us) && cmd.Flags&command.SkipSlowlog == 0 && conn != nil {
		var peer, name string
		if p, ok := conn.(slowlog.Peer); ok {
			peer, name = p.PeerID(), p.ClientName()
		}
		s.slow.Push(cmd.FullName, ctx.Args, us, peer, name)
	}
	if t := s.monitor.Threshold(); t > 0 && ns/1_000_000 >= t {
		event := latency.EventCommand
		if cmd.Flags&command.Fast != 0 {
			event = latency.EventFastCommand
		}
		s.monitor.AddSample(event, ns/1_000_000)
	}
}

// recordSlow records ns in row id's histogram when the histogram or the group of counts it
// falls in does not exist yet: both are allocated before pinning (nothing that may block runs
// pinned), then published in the stripe of the P the goroutine is on now unless it got them
// meanwhile.
func (s *Stats) recordSlow(id int, ns int64) {
	fresh, group := new(histogram), new(countGroup)
	i := hdrCountsIndex(hdrClamp(ns))
	st, shared := s.pin()
	c := &st.cmds[id]
	h := c.hist.Load()
	if h == nil {
		if shared {
			c.hist.CompareAndSwap(nil, fresh)
		} else {
			c.hist.Store(fresh)
		}
		h = c.hist.Load()
	}
	inc(&h.group(i, group, shared)[i%hdrGroupLen], 1, shared)
	procUnpin()
}

// Rejected is command.Observer's: a command refused before its handler, with an error reply of
// code errCode (Redis's rejectCommand: rejected_calls, and the error).
func (s *Stats) Rejected(ctx *command.Ctx, errCode []byte) {
	if ctx.Cmd != nil {
		st, shared := s.pin()
		inc(&st.cmds[ctx.Cmd.ID].rejected, 1, shared)
		procUnpin()
	}
	s.countError(errCode)
}

// CountError counts an error reply written outside the pipeline (a protocol error) by its
// code: total_error_replies and errorstats.
func (s *Stats) CountError(code string) { s.countError([]byte(code)) }

// Reset is CONFIG RESETSTAT: every command's counters and histogram, the error counts and
// total_error_replies start again from zero.
func (s *Stats) Reset() {
	s.epoch.Add(1)
	s.totalErrors.Store(0)
	s.errors.reset()
}

// TotalErrorReplies is total_error_replies.
func (s *Stats) TotalErrorReplies() int64 { return s.totalErrors.Load() }

// UnexpectedErrorReplies is unexpected_error_replies: errors sent to a master or a replica,
// which kvserver has not.
func (s *Stats) UnexpectedErrorReplies() int64 { return 0 }
