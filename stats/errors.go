package stats

import (
	"sort"
	"sync"
)

// maxErrorCodes bounds errorstats: past this many distinct codes, counting by code stops until
// CONFIG RESETSTAT, with errorstat_ERRORSTATS_DISABLED alone left to say so. This is Redis
// 7.4's guard (ERROR_STATS_NUMBER), taken early: 7.2 has no bound, and kvserver's own codes are
// far fewer, so it shows only once scripts can make up codes.
const maxErrorCodes = 128

// errorTable counts error replies by code (Redis's server.errors).
type errorTable struct {
	mu       sync.Mutex
	counts   map[string]int64
	disabled bool
}

// countError counts one error reply of the given code: total_error_replies and errorstats.
func (s *Stats) countError(code []byte) {
	s.totalErrors.Add(1)
	t := &s.errors
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.disabled {
		return
	}
	if t.counts == nil {
		t.counts = make(map[string]int64)
	}
	if _, ok := t.counts[string(code)]; !ok && len(t.counts) >= maxErrorCodes {
		t.counts = map[string]int64{"ERRORSTATS_DISABLED": 1}
		t.disabled = true
		return
	}
	t.counts[string(code)]++
}

// reset drops every count and counts again.
func (t *errorTable) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.counts, t.disabled = nil, false
}

// errorCount is one errorstats line.
type errorCount struct {
	code  string
	count int64
}

// sorted returns the counts in byte order of the codes (Redis's rax order).
func (t *errorTable) sorted() []errorCount {
	t.mu.Lock()
	out := make([]errorCount, 0, len(t.counts))
	for code, n := range t.counts {
		out = append(out, errorCount{code, n})
	}
	t.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].code < out[j].code })
	return out
}
