package server

import (
	"strconv"
	"strings"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/resp"

	"github.com/kvserver/kvserver/latency"
	"github.com/kvserver/kvserver/slowlog"
	"github.com/kvserver/kvserver/stats"
)

// observeState is what the pipeline's statistics report to: the slow log, the latency monitor
// and the per-command statistics (stats.Stats, the pipeline's Observer).
type observeState struct {
	slowlog  *slowlog.Log
	latency  *latency.Monitor
	cmdStats *stats.Stats
}

// newObserveState makes the slow log and the latency monitor, which the SLOWLOG and LATENCY
// rows need before the table is built; the statistics come after it (startObserving).
func newObserveState() observeState {
	return observeState{slowlog: slowlog.New(), latency: latency.New()}
}

// observeCommands are the SLOWLOG and LATENCY rows.
func (s *Server) observeCommands() []*command.Command {
	o := &s.observe
	return append(slowlog.Commands(o.slowlog), latency.Commands(o.latency, latency.Env{
		Histograms:        func(w *resp.Writer, names [][]byte) { o.cmdStats.WriteHistograms(w, names) },
		SlowlogSlowerThan: o.slowlog.SlowerThan,
		Hz:                s.cfg.Hz,
	})...)
}

// startObserving makes the statistics of the command table (built) and registers the
// listeners of the directives they act on: slowlog-log-slower-than, slowlog-max-len,
// latency-monitor-threshold, latency-tracking and latency-tracking-info-percentiles.
func (s *Server) startObserving() {
	o := &s.observe
	o.cmdStats = stats.New(s.cmds, o.slowlog, o.latency)
	s.pipeline.Observer = o.cmdStats
	apply := map[string]func(string){
		"slowlog-log-slower-than":   func(v string) { o.slowlog.SetSlowerThan(atoi64(v)) },
		"slowlog-max-len":           func(v string) { o.slowlog.SetMaxLen(atoi64(v)) },
		"latency-monitor-threshold": func(v string) { o.latency.SetThreshold(atoi64(v)) },
		"latency-tracking":          func(v string) { o.cmdStats.SetLatencyTracking(v == "yes") },
		"latency-tracking-info-percentiles": func(v string) {
			var ps []float64
			for _, f := range strings.Fields(v) {
				if p, err := strconv.ParseFloat(f, 64); err == nil {
					ps = append(ps, p)
				}
			}
			o.cmdStats.SetPercentiles(ps)
		},
	}
	for name, fn := range apply {
		v, _ := s.cfg.Value(name)
		fn(v)
		s.cfg.OnChange(name, fn)
	}
}

func atoi64(v string) int64 {
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}
