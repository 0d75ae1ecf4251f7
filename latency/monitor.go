// Package latency is Redis's latency monitor (latency.c): for each event kind ("command",
// "fast-command", "expire-cycle", …) that took at least latency-monitor-threshold milliseconds,
// the latest and the all-time highest latency and a history of 160 samples, one per second at
// most; the LATENCY command's rows (LATEST, HISTORY, RESET, GRAPH, DOCTOR, HISTOGRAM, HELP); and
// the texts of GRAPH and DOCTOR as Redis writes them.
package latency

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// tsLen is LATENCY_TS_LEN: the samples kept per event.
const tsLen = 160

// Names of the events kvserver reports, as Redis names them.
const (
	EventCommand     = "command"      // a command without the fast flag
	EventFastCommand = "fast-command" // a command with the fast flag
	EventExpireCycle = "expire-cycle" // the cron's active expiry cycle
	// EventCron is one whole tick of the cron (kvserver's own event: active expiry, eviction,
	// the clients' timeouts and buffer trimming together).
	EventCron = "cron"
	// EventEvictionCycle is one call of the memory limit's eviction (Redis's performEvictions),
	// EventEvictionDel the deletion of one evicted key.
	EventEvictionCycle = "eviction-cycle"
	EventEvictionDel   = "eviction-del"
)

// sample is one second's highest latency.
type sample struct {
	time    int32 // unix seconds; 0: empty slot
	latency uint32
}

// series is one event's time series (latencyTimeSeries).
type series struct {
	name    string
	idx     int    // next slot to write
	max     uint32 // highest latency since the last reset
	samples [tsLen]sample
}

// Monitor is the latency monitor. The threshold is read on every command, atomically; the
// series are under mu, taken only to add a sample (a latency at least the threshold) or read.
type Monitor struct {
	threshold atomic.Int64 // ms; 0: off
	now       func() int64 // unix seconds

	mu     sync.Mutex
	events []*series // in the order they first happened
}

// New returns a monitor that is off (latency-monitor-threshold 0).
func New() *Monitor {
	return &Monitor{now: func() int64 { return time.Now().Unix() }}
}

// SetThreshold sets latency-monitor-threshold, in milliseconds (0: off).
func (m *Monitor) SetThreshold(ms int64) { m.threshold.Store(ms) }

// Threshold is latency-monitor-threshold in milliseconds (0: off).
func (m *Monitor) Threshold() int64 { return m.threshold.Load() }

// AddSampleIfNeeded records that event took ms milliseconds when the monitor is on and ms
// reaches its threshold (latencyAddSampleIfNeeded).
func (m *Monitor) AddSampleIfNeeded(event string, ms int64) {
	if t := m.threshold.Load(); t > 0 && ms >= t {
		m.AddSample(event, ms)
	}
}

// AddSample records that event took ms milliseconds (latencyAddSample): the series' highest
// is raised, and within one second only the second's highest sample is kept.
func (m *Monitor) AddSample(event string, ms int64) {
	lat := uint32(min(max(ms, 0), 1<<32-1))
	now := int32(m.now())
	m.mu.Lock()
	defer m.mu.Unlock()
	ts := m.findLocked(event)
	if ts == nil {
		ts = &series{name: event}
		m.events = append(m.events, ts)
	}
	ts.max = max(ts.max, lat)
	prev := (ts.idx + tsLen - 1) % tsLen
	if ts.samples[prev].time == now {
		ts.samples[prev].latency = max(ts.samples[prev].latency, lat)
		return
	}
	ts.samples[ts.idx] = sample{time: now, latency: lat}
	ts.idx = (ts.idx + 1) % tsLen
}

// findLocked returns the series of event (exact name, as Redis's dict compares), or nil.
func (m *Monitor) findLocked(event string) *series {
	for _, ts := range m.events {
		if ts.name == event {
			return ts
		}
	}
	return nil
}

// Reset drops the series of the events named (in any case), or of every event when none is
// named, and returns how many it dropped (latencyResetEvent).
func (m *Monitor) Reset(events ...string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	resets := 0
	kept := m.events[:0]
	for _, ts := range m.events {
		drop := len(events) == 0
		for _, e := range events {
			if strings.EqualFold(ts.name, e) {
				drop = true
			}
		}
		if drop {
			resets++
		} else {
			kept = append(kept, ts)
		}
	}
	clear(m.events[len(kept):])
	m.events = kept
	return resets
}

// Latest is one row of LATENCY LATEST.
type Latest struct {
	Event         string
	Time, Latency int64 // the latest sample
	Max           int64 // all-time highest
}

// Latest returns each event's latest sample and highest latency.
func (m *Monitor) Latest() []Latest {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Latest, 0, len(m.events))
	for _, ts := range m.events {
		last := ts.samples[(ts.idx+tsLen-1)%tsLen]
		out = append(out, Latest{ts.name, int64(last.time), int64(last.latency), int64(ts.max)})
	}
	return out
}

// History returns event's samples, oldest first, as [time, latency] pairs; ok is false when
// the event has none.
func (m *Monitor) History(event string) (samples [][2]int64, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ts := m.findLocked(event)
	if ts == nil {
		return nil, false
	}
	for j := 0; j < tsLen; j++ {
		s := ts.samples[(ts.idx+j)%tsLen]
		if s.time != 0 {
			samples = append(samples, [2]int64{int64(s.time), int64(s.latency)})
		}
	}
	return samples, true
}

// snapshot copies the series, for the reports.
func (m *Monitor) snapshot() []series {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]series, len(m.events))
	for i, ts := range m.events {
		out[i] = *ts
	}
	return out
}
