package debugfamily

import (
	"strconv"
	"strings"
	"testing"
)

func TestMemory(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET m:k hello -> OK
MEMORY USAGE m:missing -> (nil)
MEMORY USAGE m:k SAMPLES -> (error) ERR syntax error
MEMORY USAGE m:k SAMPLES x -> (error) ERR value is not an integer or out of range
MEMORY USAGE m:k SAMPLES -1 -> (error) ERR syntax error
MEMORY USAGE m:k FOO 1 -> (error) ERR syntax error
MEMORY USAGE m:missing FOO 1 -> (error) ERR syntax error
MEMORY USAGE -> (error) ERR wrong number of arguments for 'memory|usage' command
MEMORY PURGE -> OK
MEMORY PURGE x -> (error) ERR wrong number of arguments for 'memory|purge' command
`)
	small := c.do("MEMORY USAGE m:k SAMPLES 5 SAMPLES 0")
	c.do("SET m:big " + strings.Repeat("x", 5000))
	big := c.do("MEMORY USAGE m:big")
	if !strings.HasPrefix(small, "(integer) ") || !strings.HasPrefix(big, "(integer) ") || len(big) <= len(small) {
		t.Errorf("MEMORY USAGE: %s for 5 bytes, %s for 5000", small, big)
	}
	// MEMORY USAGE does not count a hit or miss, nor expire the key.
	if c.stats.Hits.Load() != 0 || c.stats.Misses.Load() != 0 {
		t.Errorf("MEMORY USAGE counted hits %d misses %d", c.stats.Hits.Load(), c.stats.Misses.Load())
	}
	c.do("SET m:gone v PX 1")
	wd.advance(2)
	if got := c.do("MEMORY USAGE m:gone"); !strings.HasPrefix(got, "(integer) ") {
		t.Errorf("MEMORY USAGE of a key past its time: %s", got)
	}
}

// TestMemoryHelp: Redis's lines.
func TestMemoryHelp(t *testing.T) {
	c := newWorld(t).conn(t)
	got := c.do("MEMORY HELP")
	want := "[MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:, DOCTOR,     Return memory problems reports., " +
		"MALLOC-STATS,     Return internal statistics report from the memory allocator., PURGE,     Attempt to purge dirty pages for reclamation by the allocator., " +
		"STATS,     Return information about the memory usage of the server., USAGE <key> [SAMPLES <count>], " +
		"    Return memory in bytes used by <key> and its value. Nested values are,     sampled up to <count> times (default: 5, 0 means sample all)., " +
		"HELP,     Prints this help.]"
	if got != want {
		t.Errorf("MEMORY HELP:\n%s\nwant\n%s", got, want)
	}
}

// statsMap reads MEMORY STATS (RESP3) into field → reply, db.N maps rendered flat.
func statsMap(t *testing.T, c *conn) (fields []string, m map[string]string) {
	t.Helper()
	c.w.SetProto(3)
	defer c.w.SetProto(2)
	b := c.raw("MEMORY", "STATS")
	r, err := readRESP3(b)
	if err != nil {
		t.Fatalf("MEMORY STATS: %v: %q", err, b)
	}
	m = map[string]string{}
	for i := 0; i+1 < len(r); i += 2 {
		fields = append(fields, r[i])
		m[r[i]] = r[i+1]
	}
	return fields, m
}

// TestMemoryStats: Redis 7.2's fields in its order, a db.N map for each database holding
// keys, and figures that add up: the dataset is the records, the rest is overhead.
func TestMemoryStats(t *testing.T) {
	wd := newWorld(t)
	wd.srv.mem = ServerMemory{Used: 10 << 20, Peak: 12 << 20, Startup: 2 << 20, Clients: 5000, NClients: 2, RSS: 20 << 20, GoRuntime: 3 << 20, GoResident: 4 << 20}
	c := wd.conn(t)
	c.do("SET a hello")
	c.do("SELECT 5")
	c.do("SET b " + strings.Repeat("x", 1000))
	c.do("SET c v PX 100000")
	fields, m := statsMap(t, c)
	want := []string{"peak.allocated", "total.allocated", "startup.allocated", "replication.backlog",
		"clients.slaves", "clients.normal", "cluster.links", "aof.buffer", "lua.caches", "functions.caches",
		"db.0", "db.5", "overhead.total", "keys.count", "keys.bytes-per-key", "dataset.bytes",
		"dataset.percentage", "peak.percentage", "allocator.allocated", "allocator.active",
		"allocator.resident", "allocator-fragmentation.ratio", "allocator-fragmentation.bytes",
		"allocator-rss.ratio", "allocator-rss.bytes", "rss-overhead.ratio", "rss-overhead.bytes",
		"fragmentation", "fragmentation.bytes"}
	if strings.Join(fields, " ") != strings.Join(want, " ") {
		t.Fatalf("fields:\n%v\nwant\n%v", fields, want)
	}
	var records int64
	for i := range testShards {
		records += wd.ks.Shard(i).Arena().Used()
	}
	var tables int64
	for db := range wd.ks.Databases() {
		for i := range testShards {
			a, b := wd.ks.Shard(i).OverheadLocked(db)
			tables += a + b
		}
	}
	for field, v := range map[string]string{
		"peak.allocated": ":12582912", "total.allocated": ":10485760", "startup.allocated": ":2097152",
		"clients.normal": ":5000", "keys.count": ":3", "functions.caches": ":0",
		"dataset.bytes":       ":" + itoa(int(records-tables)),
		"overhead.total":      ":" + itoa(int(10<<20-(records-tables))),
		"keys.bytes-per-key":  ":" + itoa((8<<20)/3),
		"allocator.allocated": ":10485760",
		"fragmentation":       ",2", "fragmentation.bytes": ":10485760",
		"peak.percentage": ",83.33333333333334",
	} {
		if m[field] != v {
			t.Errorf("%s: %s, want %s", field, m[field], v)
		}
	}
	if !strings.HasPrefix(m["db.5"], "%3 overhead.hashtable.main :") || !strings.Contains(m["db.5"], "overhead.hashtable.slot-to-keys :0") ||
		strings.Contains(m["db.5"], "overhead.hashtable.expires :0 ") {
		t.Errorf("db.5: %s", m["db.5"])
	}
	// resident is active with all the Go runtime holds instead of what it uses; the rest of
	// the RSS is the process's own.
	active, _ := strconv.ParseInt(m["allocator.active"][1:], 10, 64)
	resident, _ := strconv.ParseInt(m["allocator.resident"][1:], 10, 64)
	if resident-active != 1<<20 || m["rss-overhead.bytes"] != ":"+strconv.FormatInt(20<<20-resident, 10) ||
		m["allocator-rss.bytes"] != ":1048576" {
		t.Errorf("active %d, resident %d, rss-overhead.bytes %s", active, resident, m["rss-overhead.bytes"])
	}
	if _, ok := m["db.1"]; ok {
		t.Error("an empty database is listed")
	}
	// RESP2: a flat array, the doubles as bulk strings.
	b := string(c.raw("MEMORY", "STATS"))
	if !strings.HasPrefix(b, "*58\r\n$14\r\npeak.allocated\r\n:12582912\r\n") || !strings.Contains(b, "$13\r\nfragmentation\r\n$1\r\n2\r\n") {
		t.Errorf("RESP2 MEMORY STATS: %q", b)
	}
}

// TestDoctorReport: Redis's rules on the figures.
func TestDoctorReport(t *testing.T) {
	healthy := memoryOverhead{ServerMemory: ServerMemory{Used: 100 << 20, Peak: 110 << 20, RSS: 112 << 20, Clients: 1 << 10, NClients: 1}, active: 105 << 20, resident: 108 << 20}
	for _, tc := range []struct {
		name string
		edit func(m *memoryOverhead)
		want []string
	}{
		{"healthy", func(*memoryOverhead) {}, []string{doctorHealthy}},
		{"empty", func(m *memoryOverhead) { m.Used, m.Peak = 4<<20, 400<<20 }, []string{doctorEmpty}},
		{"peak", func(m *memoryOverhead) { m.Peak = 151 << 20 }, []string{doctorIntro, doctorBigPeak, doctorOutro}},
		{"rss", func(m *memoryOverhead) { m.RSS = 160 << 20 }, []string{doctorIntro, doctorHighFrag, doctorProcRSS, doctorOutro}},
		{"allocator", func(m *memoryOverhead) { m.active, m.resident, m.RSS = 120<<20, 122<<20, 125<<20 }, []string{doctorIntro, doctorAllocFrag, doctorOutro}},
		{"allocator rss", func(m *memoryOverhead) { m.resident, m.RSS = 130<<20, 135<<20 }, []string{doctorIntro, doctorAllocRSS, doctorOutro}},
		{"clients", func(m *memoryOverhead) { m.Clients, m.NClients = 3<<20, 10 }, []string{doctorIntro, doctorBigClient, doctorOutro}},
		{"small ratios", func(m *memoryOverhead) {
			m.Used, m.Peak, m.RSS, m.active, m.resident = 6<<20, 6<<20, 15<<20, 6<<20, 7<<20
		}, []string{doctorHealthy}},
	} {
		m := healthy
		tc.edit(&m)
		if got := doctorReport(&m); got != strings.Join(tc.want, "") {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}

// TestMemoryDoctorAndMallocStats: the replies' types; MALLOC-STATS names every arena and the
// classes in use.
func TestMemoryDoctorAndMallocStats(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`MEMORY DOCTOR -> "` + strings.ReplaceAll(doctorEmpty, "\n", `\n`) + `"`)
	c.w.SetProto(3)
	if got := string(c.raw("MEMORY", "DOCTOR")); !strings.HasPrefix(got, "=272\r\ntxt:Hi Sam, this instance is empty") {
		t.Errorf("RESP3 MEMORY DOCTOR: %q", got)
	}
	c.w.SetProto(2)
	c.do("SET k " + strings.Repeat("v", 200))
	got := c.do("MEMORY MALLOC-STATS")
	for _, want := range []string{"___ Begin kvserver allocator statistics ___", "Arena shard.0:", "Arena shard.7:",
		"Arena clients:", "Arena total:", "--- End kvserver allocator statistics ---"} {
		if !strings.Contains(got, want) {
			t.Errorf("MALLOC-STATS lacks %q:\n%s", want, got)
		}
	}
	// The 200-byte value (its sds header included) is in the 224-byte class: one slot.
	if !strings.Contains(got, `\n       224        1            1            224`) {
		t.Errorf("MALLOC-STATS does not show the record's class:\n%s", got)
	}
	c.script(`
MEMORY STATS x -> (error) ERR wrong number of arguments for 'memory|stats' command
MEMORY NOSUCH -> (error) ERR unknown subcommand 'NOSUCH'. Try MEMORY HELP.
`)
}

// readRESP3 flattens one RESP3 reply into its scalars; a nested aggregate becomes one string
// "%n a b …" of its elements.
func readRESP3(b []byte) ([]string, error) {
	var out []string
	p := &resp3Reader{b: b}
	n, err := p.header('%')
	if err != nil {
		return nil, err
	}
	for range 2 * n {
		s, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
