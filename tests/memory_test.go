package tests

import (
	"strings"
	"testing"
)

// End-to-end tests of MEMORY, run against kvserver and (KVSERVER_TARGET=redis) redis-server:
// the shapes, field names and texts are Redis 7.2's; the figures are each server's own.

// memoryStatsFields are MEMORY STATS' fields in Redis's order, db.N maps aside.
var memoryStatsFields = []string{"peak.allocated", "total.allocated", "startup.allocated",
	"replication.backlog", "clients.slaves", "clients.normal", "cluster.links", "aof.buffer",
	"lua.caches", "functions.caches", "overhead.total", "keys.count", "keys.bytes-per-key",
	"dataset.bytes", "dataset.percentage", "peak.percentage", "allocator.allocated",
	"allocator.active", "allocator.resident", "allocator-fragmentation.ratio",
	"allocator-fragmentation.bytes", "allocator-rss.ratio", "allocator-rss.bytes",
	"rss-overhead.ratio", "rss-overhead.bytes", "fragmentation", "fragmentation.bytes"}

// memoryStatsDoubles are the fields Redis sends as doubles.
var memoryStatsDoubles = map[string]bool{"dataset.percentage": true, "peak.percentage": true,
	"allocator-fragmentation.ratio": true, "allocator-rss.ratio": true, "rss-overhead.ratio": true,
	"fragmentation": true}

// TestMemoryStats: Redis's map in RESP3 (a flat array in RESP2), field for field and type for
// type, with a db.N map of three integers for each database that holds keys, and figures that
// hold together.
func TestMemoryStats(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	c.Do("SET", "a", "1")
	c.Do("SELECT", "2")
	c.Do("SET", "b", "2", "EX", "100")
	c.Do("SET", "c", strings.Repeat("x", 5000))
	for _, proto := range []string{"2", "3"} {
		c.Do("HELLO", proto)
		r := c.Do("MEMORY", "STATS")
		wantKind := byte('%')
		if proto == "2" {
			wantKind = '*'
		}
		if r.Kind != wantKind || len(r.Elems) != 2*(len(memoryStatsFields)+2) {
			t.Fatalf("RESP%s MEMORY STATS: %s", proto, formatReply(r, false))
		}
		var names []string
		values := map[string]*Reply{}
		for i := 0; i < len(r.Elems); i += 2 {
			name := r.Elems[i].Str
			names = append(names, name)
			values[name] = r.Elems[i+1]
		}
		want := append(append(append([]string{}, memoryStatsFields[:10]...), "db.0", "db.2"), memoryStatsFields[10:]...)
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Fatalf("RESP%s fields:\n%v\nwant\n%v", proto, names, want)
		}
		for name, v := range values {
			switch {
			case strings.HasPrefix(name, "db."):
				if len(v.Elems) != 6 || v.Elems[0].Str != "overhead.hashtable.main" || v.Elems[2].Str != "overhead.hashtable.expires" ||
					v.Elems[4].Str != "overhead.hashtable.slot-to-keys" || v.Elems[1].Kind != ':' || v.Elems[3].Kind != ':' {
					t.Errorf("RESP%s %s: %s", proto, name, formatReply(v, false))
				}
			case memoryStatsDoubles[name]:
				if (proto == "3" && v.Kind != ',') || (proto == "2" && v.Kind != '$') {
					t.Errorf("RESP%s %s is not a double: %s", proto, name, formatReply(v, false))
				}
			case v.Kind != ':':
				t.Errorf("RESP%s %s is not an integer: %s", proto, name, formatReply(v, false))
			}
		}
		if values["keys.count"].Int != 3 || values["total.allocated"].Int <= 0 || values["peak.allocated"].Int < values["total.allocated"].Int ||
			values["overhead.total"].Int+values["dataset.bytes"].Int != values["total.allocated"].Int || values["clients.normal"].Int < 0 ||
			values["dataset.bytes"].Int < 5000 || values["replication.backlog"].Int != 0 {
			t.Errorf("RESP%s figures: %s", proto, formatReply(r, false))
		}
		if v := values["db.2"]; v.Elems[3].Int <= 0 {
			t.Errorf("db.2 has a key with a TTL but no expires overhead: %s", formatReply(v, false))
		}
	}
	if got := formatReply(c.Do("MEMORY", "STATS", "x"), false); got != "(error) ERR wrong number of arguments for 'memory|stats' command\n" {
		t.Errorf("MEMORY STATS x: %s", got)
	}
}

// TestMemoryDoctor: a fresh instance uses too little memory for the doctor, in both servers;
// the report is a verbatim text in RESP3, a bulk string in RESP2.
func TestMemoryDoctor(t *testing.T) {
	t.Parallel()
	if raceBuilt() {
		t.Skip("the race build keeps the arenas in the Go heap, whose size the doctor's thresholds do not expect")
	}
	c := startServer(t).RawConn(t)
	empty := "Hi Sam, this instance is empty or is using very little memory, my issues detector can't be used in these conditions. " +
		"Please, leave for your mission on Earth and fill it with some data. The new Sam and I will be back to our programming as soon as I finished rebooting.\n"
	if r := c.Do("MEMORY", "DOCTOR"); r.Kind != '$' || r.Str != empty {
		t.Errorf("MEMORY DOCTOR: %s", formatReply(r, false))
	}
	c.Do("HELLO", "3")
	c.Send(encodeCommand("MEMORY", "DOCTOR"))
	if got, want := string(c.ReadN(len(empty)+12)), "=272\r\ntxt:"+empty+"\r\n"; got != want {
		t.Errorf("RESP3 MEMORY DOCTOR: %q", got)
	}
	if got := formatReply(c.Do("MEMORY", "DOCTOR", "x"), false); got != "(error) ERR wrong number of arguments for 'memory|doctor' command\n" {
		t.Errorf("MEMORY DOCTOR x: %s", got)
	}
}

// TestMemoryDoctorHealthy: with enough data that the process's fixed memory (the binary, the
// Go runtime's metadata: about 10 MB) is a small part of it, and nothing wrong, the doctor says
// so: kvserver's arenas hold the data with little waste.
func TestMemoryDoctorHealthy(t *testing.T) {
	requireKvserver(t, "what the doctor finds depends on the allocator")
	t.Parallel()
	if raceBuilt() {
		t.Skip("the race build keeps the arenas in the Go heap, whose size the doctor's thresholds do not expect")
	}
	c := startServer(t).RawConn(t)
	c.Do("DEBUG", "POPULATE", "100000", "key", "500")
	want := "Hi Sam, I can't find any memory issue in your instance. I can only account for what occurs on this base.\n"
	if r := c.Do("MEMORY", "DOCTOR"); r.Str != want {
		t.Errorf("MEMORY DOCTOR with 50 MB of data: %s\nMEMORY STATS: %s", r.Str, formatReply(c.Do("MEMORY", "STATS"), false))
	}
}

// TestMemoryMallocStats: the allocator's report, between begin and end lines shaped as
// jemalloc's ("___ Begin jemalloc statistics ___" … "--- End jemalloc statistics ---"); in
// kvserver its arenas and size classes.
func TestMemoryMallocStats(t *testing.T) {
	t.Parallel()
	c := startServer(t).RawConn(t)
	c.Do("SET", "k", strings.Repeat("v", 300))
	r := c.Do("MEMORY", "MALLOC-STATS")
	if r.Kind != '$' || !strings.HasPrefix(r.Str, "___ Begin ") || !strings.HasSuffix(r.Str, " statistics ---\n") {
		t.Fatalf("MEMORY MALLOC-STATS: %.300q", r.Str)
	}
	c.Do("HELLO", "3")
	if r := c.Do("MEMORY", "MALLOC-STATS"); r.Kind != '=' {
		t.Errorf("RESP3 MEMORY MALLOC-STATS: kind %c", r.Kind)
	}
	if !targetRedis {
		for _, want := range []string{"Backend: ", "Arena shard.0: allocated ", "Arena clients: ", "Arena total: ", "      size    spans        slots"} {
			if !strings.Contains(r.Str, want) {
				t.Errorf("MALLOC-STATS lacks %q:\n%s", want, r.Str)
			}
		}
	}
}

// TestMemoryHelpAndPurge: MEMORY HELP's lines are Redis's; PURGE answers OK.
func TestMemoryHelpAndPurge(t *testing.T) {
	t.Parallel()
	c := startServer(t).RawConn(t)
	want := `1) MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:
 2) DOCTOR
 3)     Return memory problems reports.
 4) MALLOC-STATS
 5)     Return internal statistics report from the memory allocator.
 6) PURGE
 7)     Attempt to purge dirty pages for reclamation by the allocator.
 8) STATS
 9)     Return information about the memory usage of the server.
10) USAGE <key> [SAMPLES <count>]
11)     Return memory in bytes used by <key> and its value. Nested values are
12)     sampled up to <count> times (default: 5, 0 means sample all).
13) HELP
14)     Prints this help.
`
	if got := formatReply(c.Do("MEMORY", "HELP"), false); strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("MEMORY HELP:\n%s", got)
	}
	for _, s := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"MEMORY", "PURGE"}, "OK\n"},
		{[]string{"MEMORY", "NOSUCH"}, "(error) ERR unknown subcommand 'NOSUCH'. Try MEMORY HELP.\n"},
		{[]string{"MEMORY"}, "(error) ERR wrong number of arguments for 'memory' command\n"},
		{[]string{"MEMORY", "MALLOC-STATS", "x"}, "(error) ERR wrong number of arguments for 'memory|malloc-stats' command\n"},
	} {
		if got := formatReply(c.Do(s.cmd...), false); got != s.want {
			t.Errorf("%q: %q, want %q", s.cmd, got, s.want)
		}
	}
}
