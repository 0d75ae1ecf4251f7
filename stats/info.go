package stats

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/resp"
)

// totals are one row's counters summed over the stripes of the current epoch.
type totals struct {
	calls, ns, rejected, failed int64
}

// totalsOf sums row id's counters.
func (s *Stats) totalsOf(id int) totals {
	var t totals
	e := s.epoch.Load()
	for i := range s.stripes {
		st := &s.stripes[i]
		if st.epoch.Load() != e {
			continue
		}
		c := &st.cmds[id]
		t.calls += atomic.LoadInt64(&c.calls)
		t.ns += atomic.LoadInt64(&c.ns)
		t.rejected += atomic.LoadInt64(&c.rejected)
		t.failed += atomic.LoadInt64(&c.failed)
	}
	return t
}

// histogramOf sums row id's histograms, or returns nil when it has none (never timed since the
// last reset).
func (s *Stats) histogramOf(id int) *snapshot {
	var snap *snapshot
	e := s.epoch.Load()
	for i := range s.stripes {
		st := &s.stripes[i]
		if st.epoch.Load() != e {
			continue
		}
		if h := st.cmds[id].hist.Load(); h != nil {
			if snap == nil {
				snap = new(snapshot)
			}
			snap.add(h)
		}
	}
	return snap
}

// safeInfo is getSafeInfoString: the characters that would break INFO's format (#, :, CR, LF)
// become '_'.
func safeInfo(s string) string {
	if !strings.ContainsAny(s, "#:\r\n") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '#' || r == ':' || r == '\r' || r == '\n' {
			return '_'
		}
		return r
	}, s)
}

// WriteCommandStats writes INFO commandstats' lines: one per command, subcommands as
// "cmdstat_client|list", for those called, failed or rejected since the last reset — in name
// order, each container followed by its subcommands (Redis's order is its dict's).
func (s *Stats) WriteCommandStats(b *strings.Builder) {
	for _, cmd := range s.rows {
		t := s.totalsOf(cmd.ID)
		if t.calls == 0 && t.failed == 0 && t.rejected == 0 {
			continue
		}
		usec := t.ns / 1000
		var perCall float32
		if t.calls != 0 {
			perCall = float32(usec) / float32(t.calls) // Redis divides in float
		}
		fmt.Fprintf(b, "cmdstat_%s:calls=%d,usec=%d,usec_per_call=%.2f,rejected_calls=%d,failed_calls=%d\r\n",
			safeInfo(cmd.FullName), t.calls, usec, perCall, t.rejected, t.failed)
	}
}

// WriteErrorStats writes INFO errorstats' lines, "errorstat_ERR:count=3", in code order.
func (s *Stats) WriteErrorStats(b *strings.Builder) {
	for _, e := range s.errors.sorted() {
		fmt.Fprintf(b, "errorstat_%s:count=%d\r\n", safeInfo(e.code), e.count)
	}
}

// WriteLatencyStats writes INFO latencystats' lines,
// "latency_percentiles_usec_get:p50=1.003,p99=2.007,p99.9=5.023", for every command with a
// histogram, at latency-tracking-info-percentiles; nothing while latency-tracking is off.
func (s *Stats) WriteLatencyStats(b *strings.Builder) {
	if !s.tracking.Load() {
		return
	}
	ps := *s.percentiles.Load()
	for _, cmd := range s.rows {
		snap := s.histogramOf(cmd.ID)
		if snap == nil {
			continue
		}
		fmt.Fprintf(b, "latency_percentiles_usec_%s:", safeInfo(cmd.FullName))
		for i, p := range ps {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, "p%s=%.3f", percentileName(p), float64(snap.valueAtPercentile(p))/1000)
		}
		b.WriteString("\r\n")
	}
}

// percentileName prints a percentile as Redis does: "%f", then trailing zeros and a trailing
// point trimmed (trimDoubleString): 50 → "50", 99.9 → "99.9".
func percentileName(p float64) string {
	s := strconv.FormatFloat(p, 'f', 6, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// WriteHistograms writes LATENCY HISTOGRAM's reply: a map from each command's full name to
// {calls, histogram_usec: {µs: cumulative count, …}}, for the commands named (a container
// brings its subcommands; an unknown name nothing) or, with no name, every command with a
// histogram.
func (s *Stats) WriteHistograms(w *resp.Writer, names [][]byte) {
	var rows []*command.Command
	if len(names) == 0 {
		rows = s.rows
	} else {
		for _, name := range names {
			cmd := s.table.ByFullName(string(name))
			if cmd == nil {
				continue
			}
			rows = append(rows, cmd)
			for _, sub := range s.rows[cmd.ID+1:] {
				if !strings.HasPrefix(sub.FullName, cmd.FullName+"|") {
					break
				}
				rows = append(rows, sub)
			}
		}
	}
	type entry struct {
		name string
		snap *snapshot
	}
	var out []entry
	for _, cmd := range rows {
		if snap := s.histogramOf(cmd.ID); snap != nil {
			out = append(out, entry{cmd.FullName, snap})
		}
	}
	w.Map(len(out))
	var buckets [][2]int64
	for _, e := range out {
		w.BulkString(e.name)
		w.Map(2)
		w.BulkString("calls")
		w.Int(e.snap.total)
		w.BulkString("histogram_usec")
		buckets = e.snap.cdf(buckets[:0])
		w.Map(len(buckets))
		for _, bk := range buckets {
			w.Int(bk[0])
			w.Int(bk[1])
		}
	}
}
