package tests

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// infoSectionLines returns the lines of INFO section (without its "# Title" line), as sent.
func infoSectionLines(t *testing.T, c *rawConn, section string) []string {
	t.Helper()
	r := c.Do("INFO", section)
	if r.Kind != '$' && r.Kind != '=' {
		t.Fatalf("INFO %s: %s", section, formatReply(r, false))
	}
	var lines []string
	for _, l := range strings.Split(r.Str, "\r\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// infoFields returns INFO section's fields as a map.
func infoFields(t *testing.T, c *rawConn, section string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, l := range infoSectionLines(t, c, section) {
		if k, v, ok := strings.Cut(l, ":"); ok {
			m[k] = v
		}
	}
	return m
}

var cmdstatLine = regexp.MustCompile(`^calls=(\d+),usec=(\d+),usec_per_call=(\d+\.\d\d),rejected_calls=(\d+),failed_calls=(\d+)$`)

// cmdstat parses one commandstats value into calls, rejected_calls and failed_calls, checking
// its shape (usec and usec_per_call vary from run to run).
func cmdstat(t *testing.T, name, v string) string {
	t.Helper()
	m := cmdstatLine.FindStringSubmatch(v)
	if m == nil {
		t.Fatalf("cmdstat_%s:%s: not Redis's shape", name, v)
	}
	return "calls=" + m[1] + ",rejected_calls=" + m[4] + ",failed_calls=" + m[5]
}

// TestCommandStats: INFO commandstats counts calls, failed calls (an error reply from the
// command) and rejected calls (refused before it ran: arity, authentication), subcommands
// under "container|sub"; errorstats counts every error reply by its first word, an unknown
// command's included; total_error_replies sums them; CONFIG RESETSTAT clears all of it. Run
// against redis-server too.
func TestCommandStats(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	if r := c.Do("CONFIG", "RESETSTAT"); r.Str != "OK" {
		t.Fatalf("CONFIG RESETSTAT: %s", formatReply(r, false))
	}
	for _, cmd := range [][]string{
		{"SET", "k", "v"},
		{"GET", "k"},
		{"GET"},                   // arity: rejected
		{"INCR", "k"},             // not an integer: failed
		{"INCR", "n"},             // fine
		{"NOSUCHCOMMAND", "x"},    // unknown: an error, no command's
		{"CLIENT", "NOSUCHSUB"},   // unknown subcommand: the same
		{"CLIENT", "ID"},          // a subcommand
		{"CONFIG", "GET", "hz"},   // another
		{"SET", "k", "v", "BAD"},  // syntax error: failed
		{"GETEX", "k", "EX", "0"}, // invalid expire time: failed
	} {
		c.Do(cmd...)
	}
	stats := infoFields(t, c, "commandstats")
	want := map[string]string{
		"cmdstat_config|resetstat": "calls=1,rejected_calls=0,failed_calls=0",
		"cmdstat_set":              "calls=2,rejected_calls=0,failed_calls=1",
		"cmdstat_get":              "calls=1,rejected_calls=1,failed_calls=0",
		"cmdstat_incr":             "calls=2,rejected_calls=0,failed_calls=1",
		"cmdstat_client|id":        "calls=1,rejected_calls=0,failed_calls=0",
		"cmdstat_config|get":       "calls=1,rejected_calls=0,failed_calls=0",
		"cmdstat_getex":            "calls=1,rejected_calls=0,failed_calls=1",
	}
	for name, w := range want {
		v, ok := stats[name]
		if !ok {
			t.Errorf("%s missing; commandstats: %v", name, stats)
			continue
		}
		if got := cmdstat(t, name, v); got != w {
			t.Errorf("%s: %s, want %s", name, got, w)
		}
	}
	if len(stats) != len(want) {
		t.Errorf("commandstats has %d commands, want %d: %v", len(stats), len(want), stats)
	}
	// The first INFO is counted once it has run: the second sees it.
	if got := cmdstat(t, "info", infoFields(t, c, "commandstats")["cmdstat_info"]); got != "calls=1,rejected_calls=0,failed_calls=0" {
		t.Errorf("cmdstat_info: %s", got)
	}

	errs := infoSectionLines(t, c, "errorstats")
	if got, w := strings.Join(errs, " "), "errorstat_ERR:count=6"; got != w {
		t.Errorf("errorstats %q, want %q", got, w)
	}
	if got := infoFields(t, c, "stats")["total_error_replies"]; got != "6" {
		t.Errorf("total_error_replies %q, want 6", got)
	}
	if got := infoFields(t, c, "stats")["unexpected_error_replies"]; got != "0" {
		t.Errorf("unexpected_error_replies %q, want 0", got)
	}
	// errorstats is a default section, commandstats and latencystats are not.
	if r := c.Do("INFO"); !strings.Contains(r.Str, "# Errorstats\r\nerrorstat_ERR:count=6\r\n") ||
		strings.Contains(r.Str, "# Commandstats") || strings.Contains(r.Str, "# Latencystats") {
		t.Errorf("INFO's default sections:\n%s", r.Str)
	}
	if r := c.Do("INFO", "everything"); !strings.Contains(r.Str, "# Commandstats\r\ncmdstat_") || !strings.Contains(r.Str, "# Latencystats\r\nlatency_percentiles_usec_") {
		t.Errorf("INFO everything lacks commandstats or latencystats")
	}

	if r := c.Do("CONFIG", "RESETSTAT"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	stats = infoFields(t, c, "commandstats")
	if len(stats) != 1 || cmdstat(t, "config|resetstat", stats["cmdstat_config|resetstat"]) != "calls=1,rejected_calls=0,failed_calls=0" {
		t.Errorf("after CONFIG RESETSTAT: %v", stats)
	}
	if errs := infoSectionLines(t, c, "errorstats"); len(errs) != 0 {
		t.Errorf("errorstats after CONFIG RESETSTAT: %v", errs)
	}
	if got := infoFields(t, c, "stats")["total_error_replies"]; got != "0" {
		t.Errorf("total_error_replies after CONFIG RESETSTAT: %q", got)
	}
}

// TestErrorStatsByCode: errors are counted by their code — NOAUTH for a command refused
// before authentication (a rejected call of that command), WRONGPASS for a failed AUTH.
func TestErrorStatsByCode(t *testing.T) {
	srv := startServer(t)
	admin := srv.RawConn(t)
	if r := admin.Do("CONFIG", "SET", "requirepass", "s3cret"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	c := srv.RawConn(t)
	c.Do("GET", "k")
	c.Do("GET", "k")
	c.Do("AUTH", "wrong")
	c.Do("AUTH", "s3cret")
	c.Do("GET")
	errs := infoSectionLines(t, c, "errorstats")
	if got, w := strings.Join(errs, " "), "errorstat_ERR:count=1 errorstat_NOAUTH:count=2 errorstat_WRONGPASS:count=1"; got != w {
		t.Errorf("errorstats %q, want %q", got, w)
	}
	stats := infoFields(t, c, "commandstats")
	if got := cmdstat(t, "get", stats["cmdstat_get"]); got != "calls=0,rejected_calls=3,failed_calls=0" {
		t.Errorf("cmdstat_get: %s", got)
	}
	if got := cmdstat(t, "auth", stats["cmdstat_auth"]); got != "calls=2,rejected_calls=0,failed_calls=1" {
		t.Errorf("cmdstat_auth: %s", got)
	}
}

var percentilesLine = regexp.MustCompile(`^p50=(\d+\.\d{3}),p99\.9=(\d+\.\d{3}),p100=(\d+\.\d{3})$`)

// TestLatencyStats: INFO latencystats prints each command's percentiles, in µs with three
// decimals, at latency-tracking-info-percentiles; latency-tracking no stops it; LATENCY
// HISTOGRAM gives the cumulative buckets; CONFIG RESETSTAT clears the histograms.
func TestLatencyStats(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	if r := c.Do("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99.9 100"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	c.Do("CONFIG", "RESETSTAT")
	for i := 0; i < 20; i++ {
		c.Do("SET", "k"+strconv.Itoa(i), "v")
	}
	c.Do("GET", "k1")
	c.Do("DEBUG", "SLEEP", "0.002")
	lat := infoFields(t, c, "latencystats")
	for _, name := range []string{"set", "get", "debug", "config|resetstat"} {
		v, ok := lat["latency_percentiles_usec_"+name]
		m := percentilesLine.FindStringSubmatch(v)
		if !ok || m == nil {
			t.Fatalf("latency_percentiles_usec_%s:%q; latencystats %v", name, v, lat)
		}
		p50, _ := strconv.ParseFloat(m[1], 64)
		p999, _ := strconv.ParseFloat(m[2], 64)
		p100, _ := strconv.ParseFloat(m[3], 64)
		if p50 > p999 || p999 > p100 {
			t.Errorf("%s: percentiles not ascending: %s", name, v)
		}
		if name == "debug" && p50 < 2000 {
			t.Errorf("DEBUG SLEEP 0.002 timed at p50 %v µs", p50)
		}
	}

	// LATENCY HISTOGRAM set: {set: {calls: 20, histogram_usec: {µs: cumulative, …}}}.
	r := c.Do("LATENCY", "HISTOGRAM", "set", "nosuchcommand")
	if r.Kind != '*' && r.Kind != '%' || len(r.Elems) != 2 || r.Elems[0].Str != "set" {
		t.Fatalf("LATENCY HISTOGRAM set: %s", formatReply(r, false))
	}
	h := r.Elems[1]
	if len(h.Elems) != 4 || h.Elems[0].Str != "calls" || h.Elems[1].Int != 20 || h.Elems[2].Str != "histogram_usec" {
		t.Fatalf("set's histogram: %s", formatReply(h, false))
	}
	buckets := h.Elems[3].Elems
	if len(buckets) == 0 || len(buckets)%2 != 0 || buckets[len(buckets)-1].Int != 20 {
		t.Fatalf("set's buckets end at the call count: %s", formatReply(h.Elems[3], false))
	}
	for i := 2; i < len(buckets); i += 2 {
		if buckets[i].Int <= buckets[i-2].Int || buckets[i+1].Int <= buckets[i-1].Int {
			t.Fatalf("buckets not ascending: %s", formatReply(h.Elems[3], false))
		}
	}
	// A container brings its subcommands.
	r = c.Do("LATENCY", "HISTOGRAM", "config")
	if len(r.Elems) != 2 || r.Elems[0].Str != "config|resetstat" {
		t.Errorf("LATENCY HISTOGRAM config: %s", formatReply(r, false))
	}

	if r := c.Do("CONFIG", "SET", "latency-tracking", "no"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	if lines := infoSectionLines(t, c, "latencystats"); len(lines) != 0 {
		t.Errorf("latencystats with latency-tracking no: %v", lines)
	}
	c.Do("CONFIG", "RESETSTAT")
	c.Do("GET", "k1")
	c.Do("CONFIG", "SET", "latency-tracking", "yes")
	// The GET ran untracked; the CONFIG SET that turned tracking on is tracked, as it ends.
	if r := c.Do("LATENCY", "HISTOGRAM"); len(r.Elems) != 2 || r.Elems[0].Str != "config|set" {
		t.Errorf("histograms after RESETSTAT with tracking off: %s", formatReply(r, false))
	}
	c.Do("CONFIG", "SET", "latency-tracking-info-percentiles", "")
	if got := infoFields(t, c, "latencystats")["latency_percentiles_usec_config|set"]; got != "" {
		t.Errorf("no percentiles: %q", got)
	}
}

// TestErrorStatsProtocolError: a protocol error's reply is an error reply too, counted in
// errorstats and total_error_replies as Redis counts it.
func TestErrorStatsProtocolError(t *testing.T) {
	srv := startServer(t)
	for _, bad := range []string{"*abc\r\n", "SET \"a\r\n"} {
		c := srv.RawConn(t)
		c.SendString(bad)
		if r := c.ReadReply(); r.Kind != '-' || !strings.HasPrefix(r.Str, "ERR Protocol error: ") {
			t.Fatalf("%q: %s", bad, formatReply(r, false))
		}
		c.Close()
	}
	c := srv.RawConn(t)
	if got := strings.Join(infoSectionLines(t, c, "errorstats"), " "); got != "errorstat_ERR:count=2" {
		t.Errorf("errorstats %q", got)
	}
	if got := infoFields(t, c, "stats")["total_error_replies"]; got != "2" {
		t.Errorf("total_error_replies %q, want 2", got)
	}
}
