package info

import (
	"bytes"
	"fmt"
	"github.com/kvserver/kvserver/persist"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// fakeSource is a Source with figures a test sets.
type fakeSource struct {
	process Process
	clients Clients
	memory  Memory
	stats   Stats
	hooks   Hooks
	persist persist.Stats
}

func (f *fakeSource) Process() Process { return f.process }
func (f *fakeSource) Clients() Clients { return f.clients }
func (f *fakeSource) Memory() Memory   { return f.memory }
func (f *fakeSource) Stats() Stats     { return f.stats }
func (f *fakeSource) Hooks() Hooks     { return f.hooks }

func (f *fakeSource) Persistence() persist.Stats { return f.persist }

// startMs is the fake clock (unix ms).
const startMs = 1_700_000_000_000

// world is a keyspace, a configuration, a table of INFO and the string family, and a pipeline.
type world struct {
	t   *testing.T
	src *fakeSource
	ks  *keyspace.Keyspace
	cfg *config.Config
	tab *command.Table
	p   *command.Pipeline
	ctx *command.Ctx
	w   resp.Writer
	kst command.KeyStats
}

type authedConn struct{}

func (authedConn) AuthRequired() bool { return false }
func (authedConn) DebugAllowed() bool { return false }

func newWorld(t *testing.T) *world {
	t.Helper()
	ks, err := keyspace.New(keyspace.Options{Shards: 4, Clock: func() int64 { return startMs }, ArenaReserve: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	src := &fakeSource{
		process: Process{RunID: strings.Repeat("ab", 20), ReplID: strings.Repeat("ab", 20),
			ReplID2: strings.Repeat("0", 40), Executable: "/usr/bin/kvserver",
			Started: time.Now().Add(-90 * time.Second), Now: time.UnixMilli(startMs)},
		memory:  Memory{Used: 4 << 20, Peak: 5 << 20, Startup: 1 << 20, GoRuntime: 3 << 20, Clients: 1024},
		persist: persist.Stats{LastBgsaveOK: true, LastBgsaveTimeSec: -1, CurrentBgsaveTimeSec: -1, ChangesSinceLastSave: 7},
	}
	wd := &world{t: t, src: src, ks: ks, cfg: config.New()}
	wd.tab = command.New(Commands(src), stringfamily.Commands())
	wd.p = &command.Pipeline{KS: ks}
	wd.ctx = &command.Ctx{W: &wd.w, KS: ks, Cfg: wd.cfg, Stats: &wd.kst}
	return wd
}

// do runs one command and returns its raw reply bytes.
func (wd *world) do(args ...string) []byte {
	wd.t.Helper()
	var req bytes.Buffer
	fmt.Fprintf(&req, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&req, "$%d\r\n%s\r\n", len(a), a)
	}
	parser := querybuf.NewParser(querybuf.DefaultLimits())
	if _, err := parser.Parse(req.Bytes()); err != nil || parser.NumCommands() != 1 {
		wd.t.Fatalf("parse %q: %v", args, err)
	}
	parsed := parser.Command(0)
	cmd, lookupErr := wd.tab.Lookup(parsed)
	wd.ctx.Args, wd.ctx.Cmd = parsed, cmd
	wd.w.Reset()
	wd.p.Run(wd.ctx, authedConn{}, lookupErr, false)
	return append([]byte(nil), wd.w.Bytes()...)
}

// info runs INFO args and returns its text (the bulk string's contents).
func (wd *world) info(args ...string) string {
	wd.t.Helper()
	r := wd.do(append([]string{"INFO"}, args...)...)
	if len(r) == 0 || r[0] != '$' {
		wd.t.Fatalf("INFO %v: %q", args, r)
	}
	head, body, _ := bytes.Cut(r, []byte("\r\n"))
	n, _ := strconv.Atoi(string(head[1:]))
	if len(body) != n+2 {
		wd.t.Fatalf("INFO %v: length %d, body %d bytes", args, n, len(body))
	}
	return string(body[:n])
}

// headers lists the "# Section" headers of an INFO text.
func headers(text string) []string {
	var hs []string
	for _, line := range strings.Split(text, "\r\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			hs = append(hs, h)
		}
	}
	return hs
}

// parse returns the fields of an INFO text.
func parse(text string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(text, "\r\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "#") {
			m[k] = v
		}
	}
	return m
}

// TestSelection: Redis 7.2's rules for which sections INFO writes, in which order.
func TestSelection(t *testing.T) {
	wd := newWorld(t)
	defaults := "Server Clients Memory Persistence Stats Replication CPU Modules Errorstats Cluster Keyspace"
	all := "Server Clients Memory Persistence Stats Replication CPU Modules Errorstats Cluster Keyspace"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, defaults},
		{[]string{"default"}, defaults},
		{[]string{"DEFAULT"}, defaults},
		{[]string{"all"}, all},
		{[]string{"everything"}, all},
		{[]string{"cpu"}, "CPU"},
		{[]string{"Keyspace", "server"}, "Server Keyspace"}, // Redis's order, not the request's
		{[]string{"server", "server"}, "Server"},
		{[]string{"module_list"}, "Modules"},
		{[]string{"modules"}, "Modules"},
		{[]string{"default", "commandstats"}, defaults}, // no hook: commandstats is left out
		{[]string{"nosuchsection"}, ""},
		{[]string{"debug"}, ""},
	} {
		got := strings.Join(headers(wd.info(tc.args...)), " ")
		if got != tc.want {
			t.Errorf("INFO %v: sections %q, want %q", tc.args, got, tc.want)
		}
	}
	// Sections are separated by one empty line; the text ends with a field's CRLF.
	text := wd.info("server", "clients")
	if !strings.Contains(text, "\r\n\r\n# Clients\r\n") || strings.HasSuffix(text, "\r\n\r\n") || !strings.HasPrefix(text, "# Server\r\n") {
		t.Errorf("INFO server clients layout:\n%q", text)
	}
	if got := wd.info("nosuchsection"); got != "" {
		t.Errorf("INFO nosuchsection = %q, want empty", got)
	}
}

// TestHooks: the statistics package's sections appear where Redis has them once their hooks
// are set; commandstats and latencystats only in "all" or by name.
func TestHooks(t *testing.T) {
	wd := newWorld(t)
	wd.src.hooks = Hooks{
		CommandStats: func(b *strings.Builder) { b.WriteString("cmdstat_get:calls=1\r\n") },
		ErrorStats:   func(b *strings.Builder) { b.WriteString("errorstat_ERR:count=2\r\n") },
		LatencyStats: func(b *strings.Builder) { b.WriteString("latency_percentiles_usec_get:p50=1.001\r\n") },
		ErrorReplies: func() (int64, int64) { return 7, 1 },
	}
	want := "Server Clients Memory Persistence Stats Replication CPU Modules Commandstats Errorstats Latencystats Cluster Keyspace"
	if got := strings.Join(headers(wd.info("all")), " "); got != want {
		t.Errorf("INFO all: %q, want %q", got, want)
	}
	if got := strings.Join(headers(wd.info()), " "); strings.Contains(got, "Commandstats") || strings.Contains(got, "Latencystats") {
		t.Errorf("INFO: %q has a non-default section", got)
	}
	m := parse(wd.info("everything"))
	for k, v := range map[string]string{"cmdstat_get": "calls=1", "errorstat_ERR": "count=2",
		"latency_percentiles_usec_get": "p50=1.001", "total_error_replies": "7", "unexpected_error_replies": "1"} {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	if got := wd.info("commandstats"); got != "# Commandstats\r\ncmdstat_get:calls=1\r\n" {
		t.Errorf("INFO commandstats = %q", got)
	}
	// Without the hooks: errorstats is its header, the counters are absent.
	wd.src.hooks = Hooks{}
	if got := wd.info("errorstats"); got != "# Errorstats\r\n" {
		t.Errorf("INFO errorstats without a hook = %q", got)
	}
	if _, ok := parse(wd.info("stats"))["total_error_replies"]; ok {
		t.Error("total_error_replies written without its hook")
	}
}

// TestFieldValues: figures from the Source, the keyspace and the configuration land in their
// fields, in Redis's formats.
func TestFieldValues(t *testing.T) {
	wd := newWorld(t)
	wd.src.process.ConfigFile = "/etc/kvserver.conf"
	wd.src.process.Listeners = []Listener{
		{Index: 0, Name: "tcp", Binds: []string{"*", "-::*"}, Port: 6379},
		{Index: 1, Name: "unix", Binds: []string{"/run/kv.sock"}},
	}
	wd.src.clients = Clients{Connected: 3, RecentMaxInput: 20480, RecentMaxOutput: 16384, Parked: 2}
	wd.src.stats = Stats{ConnectionsReceived: 9, Commands: 42, OpsPerSec: 5, NetInput: 1000, NetOutput: 2000,
		InputKbps: 1.5, OutputKbps: 0.25, Rejected: 1, ExpiredKeys: 4, ExpireCapReached: 2,
		ExpireCycleTime: 1500 * time.Microsecond, KeyspaceHits: 6, KeyspaceMisses: 7, AuthFailures: 3,
		CommandPanics: 1, ReadsProcessed: 11, WritesProcessed: 12}
	if err := wd.cfg.Set([2]string{"hz", "25"}); err != nil {
		t.Fatal(err)
	}
	if r := string(wd.do("SET", "a", "1")); r != "+OK\r\n" {
		t.Fatalf("SET: %q", r)
	}
	wd.do("SET", "b", "1", "EX", "100")
	wd.do("SET", "c", "1")
	m := parse(wd.info("everything"))
	want := map[string]string{
		"redis_version":                  config.RedisVersion,
		"kvserver_version":               Version,
		"run_id":                         strings.Repeat("ab", 20),
		"master_replid":                  strings.Repeat("ab", 20),
		"executable":                     "/usr/bin/kvserver",
		"config_file":                    "/etc/kvserver.conf",
		"server_time_usec":               strconv.FormatInt(startMs*1000, 10),
		"uptime_in_seconds":              "90",
		"uptime_in_days":                 "0",
		"hz":                             "25",
		"configured_hz":                  "25",
		"tcp_port":                       "6379",
		"listener0":                      "name=tcp,bind=*,bind=-::*,port=6379",
		"listener1":                      "name=unix,bind=/run/kv.sock",
		"connected_clients":              "3",
		"maxclients":                     "10000",
		"client_recent_max_input_buffer": "20480",
		"parked_clients":                 "2",
		"used_memory":                    "4194304",
		"used_memory_human":              "4.00M",
		"used_memory_peak":               "5242880",
		"used_memory_peak_human":         "5.00M",
		"used_memory_peak_perc":          "80.00%",
		"used_memory_startup":            "1048576",
		"used_memory_go_runtime":         "3145728",
		"mem_clients_normal":             "1024",
		"maxmemory_human":                "0B",
		"used_memory_lua_human":          "0B",
		"maxmemory_policy":               "noeviction",
		"repl_backlog_size":              "1048576",
		"rdb_last_bgsave_time_sec":       "-1",
		"rdb_last_bgsave_status":         "ok",
		"rdb_changes_since_last_save":    "7",
		"total_connections_received":     "9",
		"total_commands_processed":       "42",
		"instantaneous_input_kbps":       "1.50",
		"instantaneous_output_kbps":      "0.25",
		"expired_keys":                   "4",
		"expired_time_cap_reached_count": "2",
		"expire_cycle_cpu_milliseconds":  "1",
		"keyspace_hits":                  "6",
		"acl_access_denied_auth":         "3",
		"command_panics":                 "1",
		"total_reads_processed":          "11",
		"total_writes_processed":         "12",
		"cluster_enabled":                "0",
		"db0":                            "keys=3,expires=1,avg_ttl=100000",
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	// used_memory_dataset is the keyspace's charge; overhead is the rest.
	dataset, _ := strconv.ParseInt(m["used_memory_dataset"], 10, 64)
	overhead, _ := strconv.ParseInt(m["used_memory_overhead"], 10, 64)
	if dataset != wd.ks.UsedMemory() || dataset <= 0 || dataset+overhead != 4<<20 {
		t.Errorf("used_memory_dataset %d + overhead %d, keyspace %d, used_memory %d", dataset, overhead, wd.ks.UsedMemory(), 4<<20)
	}
	// Fields that would claim an AOF write are absent: there is no append-only file.
	for _, k := range []string{"aof_last_bgrewrite_status", "aof_last_write_status"} {
		if _, ok := m[k]; ok {
			t.Errorf("%s is written: it would claim persistence work", k)
		}
	}
	if strings.Count(m["used_cpu_sys"], ".") != 1 || len(m["used_cpu_sys"][strings.Index(m["used_cpu_sys"], ".")+1:]) != 6 {
		t.Errorf("used_cpu_sys = %q, want %%ld.%%06ld", m["used_cpu_sys"])
	}
}

// TestVerbatim: RESP3 clients get INFO as a verbatim string of format txt.
func TestVerbatim(t *testing.T) {
	wd := newWorld(t)
	wd.w.SetProto(3)
	r := wd.do("INFO", "cluster")
	want := "=" + strconv.Itoa(len("txt:# Cluster\r\ncluster_enabled:0\r\n")) + "\r\ntxt:# Cluster\r\ncluster_enabled:0\r\n\r\n"
	if string(r) != want {
		t.Errorf("RESP3 INFO cluster = %q, want %q", r, want)
	}
}

func TestBytesHuman(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0B"}, {1023, "1023B"}, {1024, "1.00K"}, {1536, "1.50K"}, {940936, "918.88K"},
		{1 << 20, "1.00M"}, {25276510208, "23.54G"}, {1 << 40, "1.00T"}, {1 << 50, "1.00P"},
		{1 << 62, "4611686018427387904B"},
	} {
		if got := bytesHuman(tc.n); got != tc.want {
			t.Errorf("bytesHuman(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestTimeval: used_cpu_* are seconds with six digits of microseconds.
func TestTimeval(t *testing.T) {
	for _, tc := range []struct {
		sec, usec int64
		want      string
	}{{0, 0, "0.000000"}, {1, 5, "1.000005"}, {12, 345678, "12.345678"}} {
		if got := timeval(tv(tc.sec, tc.usec)); got != tc.want {
			t.Errorf("timeval(%d, %d) = %q, want %q", tc.sec, tc.usec, got, tc.want)
		}
	}
}

func tv(sec, usec int64) syscall.Timeval { return syscall.Timeval{Sec: sec, Usec: usec} }
