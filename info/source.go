package info

import (
	"strings"
	"time"

	"github.com/kvserver/kvserver/persist"
)

// Source is what the server supplies to INFO: the facts of its process, clients and counters
// that no other package holds. Each method returns a snapshot; INFO calls each at most once per
// request, from the goroutine running the command, with no lock held.
type Source interface {
	// Process: run id, paths, start time, the commands' clock, listeners.
	Process() Process
	// Clients: the connections and their buffers.
	Clients() Clients
	// Memory: used_memory and the parts of it the server keeps.
	Memory() Memory
	// Stats: the server's counters, after CONFIG RESETSTAT.
	Stats() Stats
	// Hooks: the sections the statistics package writes; a nil hook leaves its section out.
	Hooks() Hooks
	// Persistence: saves and loads (package persist).
	Persistence() persist.Stats
}

// Process is the # Server section's facts about the running server.
type Process struct {
	RunID string // 40 hex characters, new at each start (run_id)
	// ReplID and ReplID2 are master_replid and master_replid2: the run id and 40 zeros until
	// DEBUG CHANGE-REPL-ID draws a new one.
	ReplID, ReplID2 string
	Executable      string    // absolute path of the binary
	ConfigFile      string    // absolute path, "" without one
	Started         time.Time // uptime is measured from it, on real time
	// Now is the time commands see (server_time_usec): a test's fake clock when one is set.
	Now       time.Time
	Listeners []Listener // listener0 … in Redis's connection-type order: tcp, unix
}

// Listener is one connection type's listening sockets, as Redis 7.2's listenerN lines show
// them: "listener0:name=tcp,bind=*,bind=-::*,port=6379".
type Listener struct {
	Index int      // Redis's connection type index: 0 tcp, 1 unix, 2 tls
	Name  string   // "tcp", "unix"
	Binds []string // bind addresses as configured ("-::*" keeps its '-'); the socket path for unix
	Port  int      // 0: none printed (unix)
}

// Clients is the # Clients section's facts.
type Clients struct {
	Connected int64 // connected_clients
	// RecentMaxInput and RecentMaxOutput are the largest input and output buffers a client
	// holds now (client_recent_max_input_buffer, client_recent_max_output_buffer).
	RecentMaxInput, RecentMaxOutput int64
	Parked                          int64 // kvserver's own: idle or blocked clients without a goroutine
	// Blocked is blocked_clients: the clients blocked in a command (BLPOP …).
	Blocked int64
	// BlockingKeys is total_blocking_keys: the keys clients block on.
	BlockingKeys int64
	// InTimeoutTable is clients_in_timeout_table: the blocked clients with a deadline.
	InTimeoutTable int64
}

// Memory is what the server knows of used_memory.
type Memory struct {
	Used      int64 // used_memory: every arena's charge plus the Go runtime's
	Peak      int64 // used_memory_peak, at least Used
	Startup   int64 // used_memory_startup: used_memory when the server began listening
	GoRuntime int64 // kvserver's own used_memory_go_runtime: the Go heap live at the last GC, and stacks
	Clients   int64 // mem_clients_normal: the buffers the clients hold
	Scripting Scripting
}

// Scripting is # Memory's scripting fields: the Lua states and caches of EVAL scripts and of
// functions. Each part of scripting fills its own fields.
type Scripting struct {
	VMEval        int64 // used_memory_vm_eval (and the deprecated used_memory_lua): EVAL's Lua states
	ScriptsEval   int64 // used_memory_scripts_eval: the cached scripts
	CachedScripts int64 // number_of_cached_scripts
	VMFunctions   int64 // used_memory_vm_functions: the functions' Lua states
	Functions     int64 // used_memory_functions: the function libraries
	NumFunctions  int64 // number_of_functions
	NumLibraries  int64 // number_of_libraries
}

// Stats are the server's counters, as INFO prints them (CONFIG RESETSTAT already applied).
type Stats struct {
	ConnectionsReceived int64 // total_connections_received
	Commands            int64 // total_commands_processed
	OpsPerSec           int64 // instantaneous_ops_per_sec
	NetInput, NetOutput int64 // total_net_input_bytes, total_net_output_bytes
	// InputKbps and OutputKbps are instantaneous_input_kbps and _output_kbps: KiB a second,
	// the mean of the cron's recent samples.
	InputKbps, OutputKbps float64
	Rejected              int64 // rejected_connections
	// ReadsProcessed and WritesProcessed are total_reads_processed and
	// total_writes_processed: reads of the clients' sockets and flushes of their replies.
	ReadsProcessed, WritesProcessed int64
	ExpiredKeys                     int64 // expired_keys
	// ExpireCapReached counts active expiry runs stopped by their time budget with due keys
	// left (expired_time_cap_reached_count); ExpireCycleTime is the time spent in them.
	ExpireCapReached int64
	ExpireCycleTime  time.Duration
	KeyspaceHits     int64
	KeyspaceMisses   int64
	EvictedKeys      int64 // evicted_keys
	EvictedClients   int64 // evicted_clients: closed by maxmemory-clients
	// EvictionExceededTotal and EvictionExceededCurrent are total_ and
	// current_eviction_exceeded_time: how long used memory has been over maxmemory in all,
	// and in the current stretch.
	EvictionExceededTotal, EvictionExceededCurrent time.Duration
	AuthFailures                                   int64 // acl_access_denied_auth: failed AUTH and HELLO AUTH
	ACLDeniedCmd, ACLDeniedKey, ACLDeniedChannel   int64 // acl_access_denied_cmd, _key, _channel: commands the ACL refused
	// QueryBufLimitDisconnections and OutputLimitDisconnections are
	// client_query_buffer_limit_disconnections and client_output_buffer_limit_disconnections.
	QueryBufLimitDisconnections, OutputLimitDisconnections int64

	// kvserver's own: shared read buffers taken and not returned (0 when every client is
	// idle), those allocated because the free list was empty, private query buffer
	// reallocations, big values stored without a copy and those copied, and handler panics
	// the pipeline recovered.
	SharedReadBuffersOut, SharedReadBufferFallbacks int64
	QueryBufReallocs                                int64
	BigArgAdoptions, BigArgCopies                   int64
	CommandPanics                                   int64

	// PubsubChannels, PubsubPatterns and PubsubShardChannels are pubsub_channels,
	// pubsub_patterns and pubsubshard_channels: channels, patterns and shard channels with
	// at least one subscriber.
	PubsubChannels, PubsubPatterns, PubsubShardChannels int64
}

// Hooks are the parts of INFO the statistics package keeps (commandstats, errorstats,
// latencystats, the error-reply counters). A section hook writes its lines, without the
// header, into b. A nil hook means the figure is not kept: its section or fields are left
// out, except errorstats, a default section, whose header stays (as before these hooks).
type Hooks struct {
	CommandStats func(b *strings.Builder) // cmdstat_<name>:calls=…,usec=…
	ErrorStats   func(b *strings.Builder) // errorstat_<CODE>:count=…
	LatencyStats func(b *strings.Builder) // latency_percentiles_usec_<name>:p50=…
	// ErrorReplies returns total_error_replies and unexpected_error_replies.
	ErrorReplies func() (total, unexpected int64)
}
