package tests

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// INFO's field names, section by section, against redis-server's: every field Redis has is
// in kvserver's INFO, or in one of the lists below with the reason it is not. The reference
// installed here is Redis 7.0.15; kvserver follows 7.2, whose additions are listed apart.

// infoRedisOnly are Redis's fields kvserver leaves out on purpose, with the reason.
var infoRedisOnly = map[string]string{
	// Memory: jemalloc's page accounting, which kvserver's own allocator does not keep;
	// mem_fragmentation_ratio relates RSS to used_memory as Redis's does.
	"allocator_allocated":  "jemalloc page accounting",
	"allocator_active":     "jemalloc page accounting",
	"allocator_resident":   "jemalloc page accounting",
	"allocator_frag_ratio": "derived from allocator_active/allocated",
	"allocator_frag_bytes": "derived from allocator_active/allocated",
	"allocator_rss_ratio":  "derived from allocator_resident/active",
	"allocator_rss_bytes":  "derived from allocator_resident/active",
	"rss_overhead_ratio":   "derived from allocator_resident",
	"rss_overhead_bytes":   "derived from allocator_resident",
	// There is no append-only file: a status would claim a write that never ran.
	"aof_last_bgrewrite_status": "no AOF rewrite ever ran: \"ok\" would claim one",
	"aof_last_write_status":     "no AOF write ever ran: \"ok\" would claim one",
	// Stats.
	"expired_stale_perc": "the TTL index finds due keys exactly: no sampled estimate",
	// CPU: commands run on many threads, none of them a main thread.
	"used_cpu_sys_main_thread":  "no main thread",
	"used_cpu_user_main_thread": "no main thread",
	// Redis 7.2's event-loop metrics (absent from a 7.0 reference).
	"eventloop_cycles":                       "the readiness loops do not time their cycles yet",
	"eventloop_duration_sum":                 "the readiness loops do not time their cycles yet",
	"eventloop_duration_cmd_sum":             "the readiness loops do not time their cycles yet",
	"instantaneous_eventloop_cycles_per_sec": "the readiness loops do not time their cycles yet",
	"instantaneous_eventloop_duration_usec":  "the readiness loops do not time their cycles yet",
}

// infoKvserverOnly are kvserver's fields Redis 7.0.15 does not have: Redis 7.2's additions
// (present in a 7.2 reference), Redis 7.4's names kvserver adopted early, and kvserver's own.
var infoKvserverOnly = map[string]string{
	"listener0":                                 "Redis 7.2",
	"total_blocking_keys":                       "Redis 7.2",
	"total_blocking_keys_on_nokey":              "Redis 7.2",
	"acl_access_denied_auth":                    "Redis 7.2",
	"acl_access_denied_cmd":                     "Redis 7.2",
	"acl_access_denied_key":                     "Redis 7.2",
	"acl_access_denied_channel":                 "Redis 7.2",
	"client_query_buffer_limit_disconnections":  "Redis 7.4's name",
	"client_output_buffer_limit_disconnections": "Redis 7.4's name",
	"kvserver_version":                          "kvserver's own",
	"go_version":                                "kvserver's own",
	"parked_clients":                            "kvserver's own: idle clients without a goroutine",
	"used_memory_go_runtime":                    "kvserver's own: the Go heap and stacks in used_memory",
	"shared_read_buffers_out":                   "kvserver's own",
	"shared_read_buffer_fallbacks":              "kvserver's own",
	"client_query_buffer_reallocs":              "kvserver's own",
	"big_argument_adoptions":                    "kvserver's own",
	"big_argument_copies":                       "kvserver's own",
	"command_panics":                            "kvserver's own",
	"poisoned_shards":                           "kvserver's own",
}

// infoSection is one section of an INFO reply: its header and field names in order.
type infoSection struct {
	header string
	fields []string
}

// infoSections splits INFO text into sections. Per-command and per-error lines (cmdstat_…,
// latency_percentiles_usec_…, errorstat_…) and per-database lines are left out: which of them
// appear depends on what ran, not on the server.
func infoSections(text string) []infoSection {
	var secs []infoSection
	for _, line := range strings.Split(text, "\r\n") {
		if strings.HasPrefix(line, "# ") {
			secs = append(secs, infoSection{header: line})
			continue
		}
		name, _, ok := strings.Cut(line, ":")
		if !ok || len(secs) == 0 {
			continue
		}
		switch {
		case strings.HasPrefix(name, "cmdstat_"), strings.HasPrefix(name, "latency_percentiles_usec_"),
			strings.HasPrefix(name, "errorstat_"), strings.HasPrefix(name, "db") && secs[len(secs)-1].header == "# Keyspace":
			continue
		}
		secs[len(secs)-1].fields = append(secs[len(secs)-1].fields, name)
	}
	return secs
}

// TestInfoFieldsMatchRedis: INFO EVERYTHING's sections and field names against redis-server's.
func TestInfoFieldsMatchRedis(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "compares kvserver's INFO with redis-server's")
	ref := startReferenceRedis(t)
	if ref == nil {
		t.Skip("redis-server is not on the PATH: install it (scripts/deps.sh) to compare INFO")
	}
	kv := startServer(t)
	ctx := context.Background()
	for _, s := range []*server{kv, ref} {
		rc := s.Client(t)
		rc.Set(ctx, "info:a", "1", 0)
		rc.Set(ctx, "info:b", "1", time.Hour)
		rc.Get(ctx, "info:a")
	}
	kvSecs := infoSections(kv.RawConn(t).Do("INFO", "everything").Str)
	refSecs := infoSections(ref.RawConn(t).Do("INFO", "everything").Str)

	// The sections, in Redis's order.
	var kvHeaders, refHeaders []string
	for _, s := range kvSecs {
		kvHeaders = append(kvHeaders, s.header)
	}
	for _, s := range refSecs {
		refHeaders = append(refHeaders, s.header)
	}
	if !slices.Equal(kvHeaders, refHeaders) {
		t.Errorf("sections:\n kvserver %q\n redis    %q", kvHeaders, refHeaders)
	}

	kvFields := map[string][]string{}
	for _, s := range kvSecs {
		kvFields[s.header] = s.fields
	}
	for _, rs := range refSecs {
		ks, ok := kvFields[rs.header]
		if !ok {
			t.Errorf("section %s missing", rs.header)
			continue
		}
		var missing, extra []string
		for _, f := range rs.fields {
			if slices.Contains(ks, f) {
				if why, listed := infoRedisOnly[f]; listed {
					t.Errorf("%s %s is listed as left out (%s) but kvserver has it: update the list", rs.header, f, why)
				}
				continue
			}
			if _, out := infoRedisOnly[f]; !out {
				missing = append(missing, f)
			}
		}
		for _, f := range ks {
			if slices.Contains(rs.fields, f) {
				if why, listed := infoKvserverOnly[f]; listed && !strings.HasPrefix(why, "Redis 7.") {
					t.Errorf("%s %s is listed as kvserver's own but redis-server has it: update the list", rs.header, f)
				}
				continue
			}
			if _, ok := infoKvserverOnly[f]; !ok {
				extra = append(extra, f)
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s: redis-server's fields missing from kvserver: %v", rs.header, missing)
		}
		if len(extra) > 0 {
			t.Errorf("%s: kvserver's fields redis-server lacks, not listed: %v", rs.header, extra)
		}
		// The fields both have come in the same order.
		var kvCommon, refCommon []string
		for _, f := range ks {
			if slices.Contains(rs.fields, f) {
				kvCommon = append(kvCommon, f)
			}
		}
		for _, f := range rs.fields {
			if slices.Contains(ks, f) {
				refCommon = append(refCommon, f)
			}
		}
		if !slices.Equal(kvCommon, refCommon) {
			t.Errorf("%s: field order differs:\n kvserver %v\n redis    %v", rs.header, kvCommon, refCommon)
		}
	}
	// Every listed kvserver-only field is there (a stale list entry is a mistake too).
	var all []string
	for _, s := range kvSecs {
		all = append(all, s.fields...)
	}
	var stale []string
	for f := range infoKvserverOnly {
		if !slices.Contains(all, f) {
			stale = append(stale, f)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("listed kvserver-only fields kvserver does not write: %v", stale)
	}
	t.Logf("kvserver: %d sections, %d fields; redis-server: %d sections, %d fields",
		len(kvSecs), countFields(kvSecs), len(refSecs), countFields(refSecs))
}

func countFields(secs []infoSection) int {
	n := 0
	for _, s := range secs {
		n += len(s.fields)
	}
	return n
}

// TestInfo72Fields: Redis 7.2's listenerN lines and acl_access_denied_auth, which the 7.0.15
// reference does not have, say what the server does: its sockets, and failed AUTHs (which
// CONFIG RESETSTAT zeroes).
func TestInfo72Fields(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis 7.2 fields: the reference redis-server is 7.0.15")
	sock := t.TempDir() + "/kv.sock"
	srv := startServer(t, "--unixsocket", sock)
	c := srv.RawConn(t)
	c.Do("CONFIG", "SET", "requirepass", "secret")
	if r := c.Do("AUTH", "secret"); r.Str != "OK" {
		t.Fatalf("AUTH secret: %s", formatReply(r, false))
	}
	wantListeners := map[string]string{
		"listener0": "name=tcp,bind=127.0.0.1,port=" + strconv.Itoa(srv.Port),
		"listener1": "name=unix,bind=" + sock,
	}
	info := parseInfoText(c.Do("INFO", "server").Str)
	for k, v := range wantListeners {
		if info[k] != v {
			t.Errorf("%s = %q, want %q", k, info[k], v)
		}
	}
	for _, args := range [][]string{{"AUTH", "wrong"}, {"AUTH", "nouser", "secret"}, {"HELLO", "3", "AUTH", "default", "wrong"}} {
		if r := c.Do(args...); !strings.HasPrefix(r.Str, "WRONGPASS") {
			t.Fatalf("%v: %s", args, formatReply(r, false))
		}
	}
	if got := parseInfoText(c.Do("INFO", "stats").Str)["acl_access_denied_auth"]; got != "3" {
		t.Errorf("acl_access_denied_auth after 3 failed AUTHs = %q, want 3", got)
	}
	c.Do("CONFIG", "RESETSTAT")
	if got := parseInfoText(c.Do("INFO", "stats").Str)["acl_access_denied_auth"]; got != "0" {
		t.Errorf("acl_access_denied_auth after CONFIG RESETSTAT = %q, want 0", got)
	}
}

// parseInfoText returns the fields of an INFO reply's text.
func parseInfoText(text string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(text, "\r\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "#") {
			m[k] = v
		}
	}
	return m
}

// TestInfoReadsWrites: total_reads_processed and total_writes_processed count a read and a
// write for each command of a client that waits for each reply.
func TestInfoReadsWrites(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	counts := func() (int64, int64) {
		m := parseInfoText(c.Do("INFO", "stats").Str)
		r, err1 := strconv.ParseInt(m["total_reads_processed"], 10, 64)
		w, err2 := strconv.ParseInt(m["total_writes_processed"], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("INFO stats: total_reads_processed %q, total_writes_processed %q", m["total_reads_processed"], m["total_writes_processed"])
		}
		return r, w
	}
	const n = 20
	r0, w0 := counts()
	for i := 0; i < n; i++ {
		if r := c.Do("PING"); r.Str != "PONG" {
			t.Fatalf("PING: %s", formatReply(r, false))
		}
	}
	r1, w1 := counts()
	// n PINGs and one INFO between the two readings; nothing else talks to the server.
	if d := r1 - r0; d < n+1 || d > n+3 {
		t.Errorf("total_reads_processed grew by %d over %d commands", d, n+1)
	}
	if d := w1 - w0; d < n+1 || d > n+3 {
		t.Errorf("total_writes_processed grew by %d over %d commands", d, n+1)
	}
}
