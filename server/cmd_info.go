package server

import (
	"fmt"
	"github.com/kvserver/kvserver/command"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/querybuf"
)

func infoCommands() []*command.Command {
	return []*command.Command{
		{Name: "info", Handler: clientCommand(infoCommand)},
	}
}

// infoSection writes one INFO section's fields.
type infoSection struct {
	name      string
	isDefault bool // part of bare INFO and of "default"
	write     func(s *Server, b *strings.Builder)
}

// infoSections in Redis's order.
var infoSections = []infoSection{
	{"server", true, (*Server).infoServer},
	{"clients", true, (*Server).infoClients},
	{"memory", true, (*Server).infoMemory},
	{"persistence", true, (*Server).infoPersistence},
	{"stats", true, (*Server).infoStats},
	{"replication", true, (*Server).infoReplication},
	{"cpu", true, (*Server).infoCPU},
	{"modules", false, func(*Server, *strings.Builder) {}},
	{"commandstats", false, func(s *Server, b *strings.Builder) { s.observe.cmdStats.WriteCommandStats(b) }},
	{"errorstats", true, func(s *Server, b *strings.Builder) { s.observe.cmdStats.WriteErrorStats(b) }},
	{"latencystats", false, func(s *Server, b *strings.Builder) { s.observe.cmdStats.WriteLatencyStats(b) }},
	{"cluster", true, func(_ *Server, b *strings.Builder) { b.WriteString("cluster_enabled:0\r\n") }},
	{"keyspace", true, (*Server).infoKeyspace},
}

// infoCommand: INFO [section ...]. Bare INFO and "default" give the default sections, "all"
// every section but modules, "everything" all; an unknown section adds nothing.
func infoCommand(c *client, args querybuf.Args) {
	want := map[string]bool{}
	all, everything := false, false
	if args.Len() == 1 {
		want["default"] = true
	}
	for i := 1; i < args.Len(); i++ {
		name := strings.ToLower(string(args.Arg(i)))
		switch name {
		case "all":
			all = true
		case "everything":
			everything = true
		default:
			want[name] = true
		}
	}
	var b strings.Builder
	for _, sec := range infoSections {
		include := everything || want[sec.name] || (want["default"] && sec.isDefault) ||
			(all && sec.name != "modules")
		if !include {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString("# " + strings.ToUpper(sec.name[:1]) + sec.name[1:] + "\r\n")
		sec.write(c.srv, &b)
	}
	c.w.Verbatim("txt", b.String())
}

func field(b *strings.Builder, name string, v any) {
	fmt.Fprintf(b, "%s:%v\r\n", name, v)
}

func (s *Server) infoServer(b *strings.Builder) {
	now := time.Now()
	uptime := int64(now.Sub(s.started).Seconds())
	var uts syscall.Utsname
	osName := runtime.GOOS
	if syscall.Uname(&uts) == nil {
		osName = fmt.Sprintf("%s %s %s", utsString(uts.Sysname[:]), utsString(uts.Release[:]), utsString(uts.Machine[:]))
	}
	port := s.cfg.Port()
	field(b, "redis_version", RedisVersion)
	field(b, "redis_git_sha1", "00000000")
	field(b, "redis_git_dirty", 0)
	field(b, "redis_build_id", "0")
	field(b, "redis_mode", "standalone")
	field(b, "os", osName)
	field(b, "arch_bits", strconv.IntSize)
	field(b, "monotonic_clock", "POSIX clock_gettime")
	field(b, "multiplexing_api", "epoll")
	field(b, "atomicvar_api", "c11-builtin")
	field(b, "gcc_version", "0.0.0")
	field(b, "process_id", pid)
	field(b, "process_supervised", "no")
	field(b, "run_id", s.runID)
	field(b, "tcp_port", port)
	field(b, "server_time_usec", s.now().UnixMicro())
	field(b, "uptime_in_seconds", uptime)
	field(b, "uptime_in_days", uptime/86400)
	field(b, "hz", s.cfg.Hz())
	field(b, "configured_hz", s.cfg.Hz())
	field(b, "lru_clock", s.ks.LRUClock())
	field(b, "executable", s.executable)
	field(b, "config_file", s.configFile)
	field(b, "io_threads_active", 0)
	field(b, "kvserver_version", Version)
	field(b, "go_version", runtime.Version())
}

func utsString(f []int8) string {
	var sb strings.Builder
	for _, ch := range f {
		if ch == 0 {
			break
		}
		sb.WriteByte(byte(ch))
	}
	return sb.String()
}

func (s *Server) infoClients(b *strings.Builder) {
	var maxIn, maxOut int64
	for _, c := range s.clientsSnapshot() {
		maxIn = max(maxIn, c.qbufCap.Load()+c.argvMem.Load())
		maxOut = max(maxOut, c.replyBufSize.Load())
	}
	field(b, "connected_clients", s.connected.Load())
	field(b, "cluster_connections", 0)
	field(b, "maxclients", s.cfg.MaxClients())
	field(b, "client_recent_max_input_buffer", maxIn)
	field(b, "client_recent_max_output_buffer", maxOut)
	field(b, "parked_clients", s.parkedClients()) // kvserver's own: idle clients without a goroutine
	field(b, "blocked_clients", 0)
	field(b, "tracking_clients", 0)
	field(b, "clients_in_timeout_table", 0)
	field(b, "total_blocking_keys", 0)
	field(b, "total_blocking_keys_on_nokey", 0)
}

// bytesHuman formats like Redis's bytesToHuman: 1.50K, 2.00M, …
func bytesHuman(n int64) string {
	f := float64(n)
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.2fK", f/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.2fM", f/(1024*1024))
	case n < 1024*1024*1024*1024:
		return fmt.Sprintf("%.2fG", f/(1024*1024*1024))
	default:
		return fmt.Sprintf("%.2fT", f/(1024*1024*1024*1024))
	}
}

// rssBytes reads the process's resident set size from /proc/self/statm (0 if unavailable).
func rssBytes() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(fields[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

func (s *Server) infoMemory(b *strings.Builder) {
	used := s.usedMemory()
	rss := rssBytes()
	peak := max(s.stats.usedMemoryPeak.Load(), used)
	dataset := s.ks.UsedMemory()
	maxmem := int64(s.cfg.MaxMemory())
	field(b, "used_memory", used)
	field(b, "used_memory_human", bytesHuman(used))
	field(b, "used_memory_rss", rss)
	field(b, "used_memory_rss_human", bytesHuman(rss))
	field(b, "used_memory_peak", peak)
	field(b, "used_memory_peak_human", bytesHuman(peak))
	field(b, "used_memory_peak_perc", fmt.Sprintf("%.2f%%", 100*float64(used)/float64(max(peak, 1))))
	field(b, "used_memory_overhead", used-dataset)
	field(b, "used_memory_startup", 0)
	field(b, "used_memory_dataset", dataset)
	field(b, "used_memory_dataset_perc", fmt.Sprintf("%.2f%%", 100*float64(dataset)/float64(max(used, 1))))
	field(b, "used_memory_go_runtime", s.cron.goRuntime.Load())
	field(b, "maxmemory", maxmem)
	field(b, "maxmemory_human", bytesHuman(maxmem))
	field(b, "maxmemory_policy", s.cfg.MaxMemoryPolicy())
	field(b, "mem_fragmentation_ratio", fmt.Sprintf("%.2f", float64(rss)/float64(max(used, 1))))
	field(b, "mem_fragmentation_bytes", rss-used)
	field(b, "mem_clients_normal", s.clientsMemory())
	field(b, "mem_allocator", "kvserver-slab-"+alloc.Backend)
	field(b, "lazyfree_pending_objects", 0)
}

// clientsMemory is mem_clients_normal: the buffers the clients hold.
func (s *Server) clientsMemory() int64 {
	var n int64
	for _, c := range s.clientsSnapshot() {
		n += c.totalMemory()
	}
	return n
}

// infoPersistence reports, until persistence exists, only what is true of a server that has
// never saved: no save in progress, none done (rdb_saves:0, rdb_last_save_time:0,
// rdb_last_bgsave_time_sec:-1 as Redis prints "never"), no AOF. The status fields of saves
// and AOF writes that never ran (rdb_last_bgsave_status:ok, aof_last_write_status:ok) and
// rdb_changes_since_last_save are left out rather than claim a save.
func (s *Server) infoPersistence(b *strings.Builder) {
	field(b, "loading", 0)
	field(b, "async_loading", 0)
	field(b, "current_cow_peak", 0)
	field(b, "rdb_bgsave_in_progress", 0)
	field(b, "rdb_saves", 0)
	field(b, "rdb_last_save_time", 0)
	field(b, "rdb_last_bgsave_time_sec", -1)
	field(b, "aof_enabled", 0)
	field(b, "aof_rewrite_in_progress", 0)
	field(b, "aof_rewrite_scheduled", 0)
}

func (s *Server) infoStats(b *strings.Builder) {
	in, out := s.stats.closedNetIn.Load(), s.stats.closedNetOut.Load()
	for _, c := range s.clientsSnapshot() {
		in += c.netIn.Load()
		out += c.netOut.Load()
	}
	field(b, "total_connections_received", s.stats.connectionsReceived.Load())
	field(b, "total_commands_processed", s.totalCommands())
	field(b, "instantaneous_ops_per_sec", s.cron.opsPerSec.Load())
	field(b, "total_net_input_bytes", in)
	field(b, "total_net_output_bytes", out)
	field(b, "rejected_connections", s.stats.rejectedConnections.Load())
	field(b, "expired_keys", s.ks.ExpiredKeys()-s.stats.expiredBase.Load())
	field(b, "evicted_keys", 0)
	field(b, "keyspace_hits", s.keyspaceHits()-s.stats.hitsBase.Load())
	field(b, "keyspace_misses", s.keyspaceMisses()-s.stats.missesBase.Load())
	field(b, "pubsub_channels", 0)
	field(b, "pubsub_patterns", 0)
	field(b, "unexpected_error_replies", s.observe.cmdStats.UnexpectedErrorReplies())
	field(b, "total_error_replies", s.observe.cmdStats.TotalErrorReplies())
	field(b, "client_query_buffer_limit_disconnections", s.stats.queryBufLimitDisconnections.Load())
	field(b, "client_output_buffer_limit_disconnections", s.stats.outputLimitDisconnections.Load())
	rp := s.readPool.Stats()
	s.clientArenaMu.Lock()
	qbReallocs := s.clientArena.Stats().Reallocs
	s.clientArenaMu.Unlock()
	// kvserver's own: shared read buffers taken and not returned (0 when every client is idle),
	// those allocated because the free list was empty, and private query buffer reallocations.
	field(b, "shared_read_buffers_out", rp.Gets-rp.Puts)
	field(b, "shared_read_buffer_fallbacks", rp.Fallbacks)
	field(b, "client_query_buffer_reallocs", qbReallocs)
	field(b, "big_argument_adoptions", s.stats.bigArgAdoptions.Load())
	field(b, "big_argument_copies", s.stats.bigArgCopies.Load())
	// Handler panics the pipeline recovered, and the shards they poisoned (their commands
	// answer an error until a restart; the other shards serve).
	field(b, "command_panics", s.pipeline.Panics())
	field(b, "poisoned_shards", s.ks.PoisonedShards())
}

func (s *Server) infoReplication(b *strings.Builder) {
	field(b, "role", "master")
	field(b, "connected_slaves", 0)
	field(b, "master_failover_state", "no-failover")
	field(b, "master_replid", s.runID)
	field(b, "master_replid2", "0000000000000000000000000000000000000000")
	field(b, "master_repl_offset", 0)
	field(b, "second_repl_offset", -1)
	field(b, "repl_backlog_active", 0)
}

func (s *Server) infoCPU(b *strings.Builder) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	tv := func(t syscall.Timeval) string { return fmt.Sprintf("%d.%06d", t.Sec, t.Usec) }
	field(b, "used_cpu_sys", tv(ru.Stime))
	field(b, "used_cpu_user", tv(ru.Utime))
}

func (s *Server) infoKeyspace(b *strings.Builder) {
	for db := 0; db < s.ks.Databases(); db++ {
		keys := s.ks.Keys(db)
		if keys == 0 {
			continue
		}
		fmt.Fprintf(b, "db%d:keys=%d,expires=%d,avg_ttl=%d\r\n", db, keys, s.ks.Expires(db), s.ks.AvgTTL(db))
	}
}
