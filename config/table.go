package config

import "math"

// Type says how a parameter's value is parsed and printed.
type Type uint8

const (
	// Bool is yes or no (any case); CONFIG GET prints yes or no.
	Bool Type = iota
	// Integer is a decimal integer under string2ll's rules (no sign but '-', no leading
	// zeros, no spaces).
	Integer
	// Memory is a byte count with memtoull's units (k, kb, m, mb, g, gb, any case);
	// CONFIG GET prints plain bytes.
	Memory
	// MemoryPercent is a Memory value or a percentage "N%" (maxmemory-clients). Redis
	// stores a percentage as a negative number; so does this package.
	MemoryPercent
	// Octal is an octal integer (unixsocketperm).
	Octal
	// Enum is one of Values, any case; CONFIG GET prints the first name with that value.
	Enum
	// EnumFlags is one or more of Values separated by spaces (shutdown-on-sigint).
	EnumFlags
	// String is any string, checked by a validator for some parameters.
	String
	// Special has its own syntax: save, bind, dir, client-output-buffer-limit,
	// oom-score-adj-values, notify-keyspace-events, replicaof,
	// latency-tracking-info-percentiles.
	Special
)

var typeNames = [...]string{"bool", "integer", "memory", "memory-percent", "octal", "enum", "enum-flags", "string", "special"}

func (t Type) String() string { return typeNames[t] }

// Flag is a parameter property, named after config.c's flags.
type Flag uint16

const (
	// Immutable parameters are set at start-up only (IMMUTABLE_CONFIG).
	Immutable Flag = 1 << iota
	// Sensitive values are passwords: never log them (SENSITIVE_CONFIG).
	Sensitive
	// Protected parameters change at run time only when enable-protected-configs
	// allows it (PROTECTED_CONFIG).
	Protected
	// Hidden parameters are returned by CONFIG GET for their exact name only, never
	// for a pattern (HIDDEN_CONFIG).
	Hidden
	// MultiArg values are several words (MULTI_ARG_CONFIG): CONFIG SET splits the value
	// on spaces, a config file line passes its arguments.
	MultiArg
	// DenyLoading parameters cannot change while a dataset loads (DENY_LOADING_CONFIG).
	DenyLoading
	// Debug parameters are listed by Redis's DEBUG CONFIG (DEBUG_CONFIG).
	Debug
	// Unsigned bounds are compared as C's unsigned types are: a negative number wraps
	// to a huge one and fails the upper bound.
	Unsigned
)

// EnumValue is one allowed value of an Enum or EnumFlags parameter. Several names may
// share a value (oom-score-adj's yes and relative); CONFIG GET prints the first.
type EnumValue struct {
	Name  string
	Value int
}

// Param is one configuration parameter: a row of Redis 7.2's standardConfig
// static_configs[] in src/config.c.
type Param struct {
	Name    string      // the canonical name
	Alias   string      // the older name, or ""
	Type    Type        // how the value is parsed and printed
	Flags   Flag        // Immutable, Hidden, …
	Default string      // the default, as CONFIG GET prints it
	Min     int64       // lower bound of a numeric type (config.c's lower_bound)
	Max     int64       // upper bound; with Unsigned, read as uint64 (-1 is ULLONG_MAX)
	Values  []EnumValue // allowed values of Enum and EnumFlags, in Redis's order

	check   func(v string) string                            // String: Redis's reason for refusing v, or ""
	special func(cur string, args []string) (string, string) // Special: canonical value, or Redis's reason
	clamp   func(v int64) int64                              // numeric: adjustment made after a set (hz)
}

// Has reports whether p has all of the flags f.
func (p *Param) Has(f Flag) bool { return p.Flags&f == f }

// Limits of C's types on LP64 Linux, which config.c uses as bounds.
const (
	intMin   = math.MinInt32
	intMax   = math.MaxInt32
	uintMax  = math.MaxUint32
	longMax  = math.MaxInt64
	llongMax = math.MaxInt64
	ullMax   = -1 // ULLONG_MAX as config.c stores it in a long long bound
)

const (
	kb = 1024
	mb = 1024 * kb
	gb = 1024 * mb
)

func boolParam(name, alias string, flags Flag, def bool) Param {
	d := "no"
	if def {
		d = "yes"
	}
	return Param{Name: name, Alias: alias, Type: Bool, Flags: flags, Default: d}
}

func intParam(name, alias string, flags Flag, lo, hi, def int64) Param {
	return Param{Name: name, Alias: alias, Type: Integer, Flags: flags, Min: lo, Max: hi, Default: itoa(def)}
}

func memParam(name, alias string, flags Flag, lo, hi, def int64) Param {
	return Param{Name: name, Alias: alias, Type: Memory, Flags: flags, Min: lo, Max: hi, Default: utoa(uint64(def))}
}

func strParam(name, alias string, flags Flag, def string, check func(string) string) Param {
	return Param{Name: name, Alias: alias, Type: String, Flags: flags, Default: def, check: check}
}

func enumParam(name string, flags Flag, values []EnumValue, def string) Param {
	return Param{Name: name, Type: Enum, Flags: flags, Values: values, Default: def}
}

func specialParam(name, alias string, flags Flag, def string, parse func(cur string, args []string) (string, string)) Param {
	return Param{Name: name, Alias: alias, Type: Special, Flags: flags, Default: def, special: parse}
}

func names(ns ...string) []EnumValue {
	vs := make([]EnumValue, len(ns))
	for i, n := range ns {
		vs[i] = EnumValue{n, i}
	}
	return vs
}

// The enums of config.c, in its order (the order of the "must be one of" message).
var (
	maxmemoryPolicyEnum = names("volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl",
		"allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction")
	syslogFacilityEnum = names("user", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7")
	loglevelEnum       = names("debug", "verbose", "notice", "warning", "nothing")
	supervisedEnum     = names("upstart", "systemd", "auto", "no")
	aofFsyncEnum       = names("everysec", "always", "no")
	shutdownOnSigEnum  = []EnumValue{{"default", 0}, {"save", 1}, {"nosave", 2}, {"now", 4}, {"force", 8}}
	replDisklessLoad   = names("disabled", "on-empty-db", "swapdb")
	tlsAuthClientsEnum = names("no", "yes", "optional")
	oomScoreAdjEnum    = []EnumValue{{"no", 0}, {"yes", 1}, {"relative", 1}, {"absolute", 2}}
	aclPubsubDefault   = []EnumValue{{"allchannels", 1}, {"resetchannels", 0}}
	sanitizeDumpEnum   = names("no", "yes", "clients")
	protectedActEnum   = names("no", "yes", "local")
	endpointTypeEnum   = names("ip", "hostname", "unknown-endpoint")
	propagationErrEnum = names("ignore", "panic", "panic-on-replicas")
	// logFormatEnum is Valkey 8.1's log-format (legacy, logfmt) plus json.
	logFormatEnum = names("legacy", "logfmt", "json")
)

// Shutdown flags of shutdown-on-sigint and shutdown-on-sigterm (server.h's SHUTDOWN_*).
const (
	shutdownSave   = 1
	shutdownNoSave = 2
)

// defaultBind is kvserver's default for bind. Redis 7.2 compiled without a config file
// binds "* -::*"; the redis.conf it ships (and so every packaged Redis) says
// "127.0.0.1 -::1", and issue 4 makes that the embedded default: safe without a file.
const defaultBind = "127.0.0.1 -::1"

// params is every parameter of Redis 7.2.4, in static_configs[] order. Values and
// bounds are config.c's; the C type of each numeric row is noted where it decides the
// bounds check (Unsigned) or the printing.
var params = []Param{
	// Bool configs.
	boolParam("rdbchecksum", "", Immutable, true),
	boolParam("daemonize", "", Immutable, false),
	boolParam("io-threads-do-reads", "", Debug|Immutable, false),
	boolParam("always-show-logo", "", Immutable, false),
	boolParam("protected-mode", "", 0, true),
	boolParam("rdbcompression", "", 0, true),
	boolParam("rdb-del-sync-files", "", 0, false),
	boolParam("activerehashing", "", 0, true),
	boolParam("stop-writes-on-bgsave-error", "", 0, true),
	boolParam("set-proc-title", "", Immutable, true),
	boolParam("dynamic-hz", "", 0, true),
	boolParam("lazyfree-lazy-eviction", "", Debug, false),
	boolParam("lazyfree-lazy-expire", "", Debug, false),
	boolParam("lazyfree-lazy-server-del", "", Debug, false),
	boolParam("lazyfree-lazy-user-del", "", Debug, false),
	boolParam("lazyfree-lazy-user-flush", "", Debug, false),
	boolParam("repl-disable-tcp-nodelay", "", 0, false),
	boolParam("repl-diskless-sync", "", Debug, true),
	boolParam("aof-rewrite-incremental-fsync", "", 0, true),
	boolParam("no-appendfsync-on-rewrite", "", 0, false),
	boolParam("cluster-require-full-coverage", "", 0, true),
	boolParam("rdb-save-incremental-fsync", "", 0, true),
	boolParam("aof-load-truncated", "", 0, true),
	boolParam("aof-use-rdb-preamble", "", 0, true),
	boolParam("aof-timestamp-enabled", "", 0, false),
	boolParam("cluster-replica-no-failover", "cluster-slave-no-failover", 0, false),
	boolParam("replica-lazy-flush", "slave-lazy-flush", 0, false),
	boolParam("replica-serve-stale-data", "slave-serve-stale-data", 0, true),
	boolParam("replica-read-only", "slave-read-only", Debug, true),
	boolParam("replica-ignore-maxmemory", "slave-ignore-maxmemory", 0, true),
	boolParam("jemalloc-bg-thread", "", 0, true),
	withBoolCheck(boolParam("activedefrag", "", Debug, false), checkActiveDefrag),
	boolParam("syslog-enabled", "", Immutable, false),
	boolParam("cluster-enabled", "", Immutable, false),
	boolParam("appendonly", "", DenyLoading, false),
	boolParam("cluster-allow-reads-when-down", "", 0, false),
	boolParam("cluster-allow-pubsubshard-when-down", "", 0, true),
	boolParam("crash-log-enabled", "", 0, true),
	boolParam("crash-memcheck-enabled", "", 0, true),
	boolParam("use-exit-on-panic", "", Hidden, false),
	boolParam("disable-thp", "", Immutable, true),
	boolParam("cluster-allow-replica-migration", "", 0, true),
	boolParam("replica-announced", "", 0, true),
	boolParam("latency-tracking", "", 0, true),
	// Hidden in 7.2.x: CONFIG GET * of a 7.2 server does not list it.
	boolParam("aof-disable-auto-gc", "", Hidden, false),
	boolParam("replica-ignore-disk-write-errors", "", 0, false),

	// String configs (stringConfig and sdsConfig: CONFIG GET prints NULL as "").
	strParam("aclfile", "", Immutable, "", nil),
	strParam("unixsocket", "", Immutable, "", nil),
	strParam("pidfile", "", Immutable, "", nil),
	strParam("replica-announce-ip", "slave-announce-ip", 0, "", nil),
	strParam("masteruser", "", Sensitive, "", nil),
	strParam("cluster-announce-ip", "", 0, "", nil),
	strParam("cluster-config-file", "", Immutable, "nodes.conf", nil),
	strParam("cluster-announce-hostname", "", 0, "", checkHostname),
	strParam("cluster-announce-human-nodename", "", 0, "", checkNodename),
	strParam("syslog-ident", "", Immutable, "redis", nil),
	strParam("dbfilename", "", Protected, "dump.rdb", checkDBFilename),
	strParam("appendfilename", "", Immutable, "appendonly.aof", checkAOFFilename),
	strParam("appenddirname", "", Immutable, "appendonlydir", checkAOFDirname),
	strParam("server_cpulist", "", Immutable, "", nil),
	strParam("bio_cpulist", "", Immutable, "", nil),
	strParam("aof_rewrite_cpulist", "", Immutable, "", nil),
	strParam("bgsave_cpulist", "", Immutable, "", nil),
	strParam("ignore-warnings", "", 0, "", nil),
	strParam("proc-title-template", "", 0, "{title} {listen-addr} {server-mode}", checkProcTitleTemplate),
	strParam("bind-source-addr", "", 0, "", nil),
	strParam("logfile", "", Immutable, "", nil),
	strParam("locale-collate", "", 0, "", nil),
	strParam("masterauth", "", Sensitive, "", nil),
	strParam("requirepass", "", Sensitive, "", nil),

	// Enum configs.
	enumParam("supervised", Immutable, supervisedEnum, "no"),
	enumParam("syslog-facility", Immutable, syslogFacilityEnum, "local0"),
	enumParam("repl-diskless-load", Debug|DenyLoading, replDisklessLoad, "disabled"),
	enumParam("loglevel", 0, loglevelEnum, "notice"),
	enumParam("maxmemory-policy", 0, maxmemoryPolicyEnum, "noeviction"),
	enumParam("appendfsync", 0, aofFsyncEnum, "everysec"),
	enumParam("oom-score-adj", 0, oomScoreAdjEnum, "no"),
	enumParam("acl-pubsub-default", 0, aclPubsubDefault, "resetchannels"),
	enumParam("sanitize-dump-payload", Debug, sanitizeDumpEnum, "no"),
	enumParam("enable-protected-configs", Immutable, protectedActEnum, "no"),
	enumParam("enable-debug-command", Immutable, protectedActEnum, "no"),
	enumParam("enable-module-command", Immutable, protectedActEnum, "no"),
	enumParam("cluster-preferred-endpoint-type", 0, endpointTypeEnum, "ip"),
	enumParam("propagation-error-behavior", 0, propagationErrEnum, "ignore"),
	{Name: "shutdown-on-sigint", Type: EnumFlags, Flags: MultiArg, Values: shutdownOnSigEnum, Default: "default"},
	{Name: "shutdown-on-sigterm", Type: EnumFlags, Flags: MultiArg, Values: shutdownOnSigEnum, Default: "default"},

	// Integer configs (C int).
	intParam("databases", "", Immutable, 1, intMax, 16),
	intParam("port", "", 0, 0, 65535, 6379),
	intParam("io-threads", "", Debug|Immutable, 1, 128, 1),
	intParam("auto-aof-rewrite-percentage", "", 0, 0, intMax, 100),
	intParam("cluster-replica-validity-factor", "cluster-slave-validity-factor", 0, 0, intMax, 10),
	intParam("list-max-listpack-size", "list-max-ziplist-size", 0, intMin, intMax, -2),
	intParam("tcp-keepalive", "", 0, 0, intMax, 300),
	intParam("cluster-migration-barrier", "", 0, 0, intMax, 1),
	intParam("active-defrag-cycle-min", "", 0, 1, 99, 1),
	intParam("active-defrag-cycle-max", "", 0, 1, 99, 25),
	intParam("active-defrag-threshold-lower", "", 0, 0, 1000, 10),
	intParam("active-defrag-threshold-upper", "", 0, 0, 1000, 100),
	intParam("lfu-log-factor", "", 0, 0, intMax, 10),
	intParam("lfu-decay-time", "", 0, 0, intMax, 1),
	intParam("replica-priority", "slave-priority", 0, 0, intMax, 100),
	intParam("repl-diskless-sync-delay", "", 0, 0, intMax, 5),
	intParam("maxmemory-samples", "", 0, 1, intMax, 5),
	intParam("maxmemory-eviction-tenacity", "", 0, 0, 100, 10),
	intParam("timeout", "", 0, 0, intMax, 0),
	intParam("replica-announce-port", "slave-announce-port", 0, 0, 65535, 0),
	intParam("tcp-backlog", "", Immutable, 0, intMax, 511),
	intParam("cluster-port", "", Immutable, 0, 65535, 0),
	intParam("cluster-announce-bus-port", "", 0, 0, 65535, 0),
	intParam("cluster-announce-port", "", 0, 0, 65535, 0),
	intParam("cluster-announce-tls-port", "", 0, 0, 65535, 0),
	intParam("repl-timeout", "", 0, 1, intMax, 60),
	intParam("repl-ping-replica-period", "repl-ping-slave-period", 0, 1, intMax, 10),
	intParam("list-compress-depth", "", Debug, 0, intMax, 0),
	intParam("rdb-key-save-delay", "", Hidden, intMin, intMax, 0),
	intParam("key-load-delay", "", Hidden, intMin, intMax, 0),
	intParam("active-expire-effort", "", 0, 1, 10, 1),
	withClamp(intParam("hz", "", 0, 0, intMax, 10), clampHz),
	intParam("min-replicas-to-write", "min-slaves-to-write", 0, 0, intMax, 0),
	intParam("min-replicas-max-lag", "min-slaves-max-lag", 0, 0, intMax, 10),
	intParam("watchdog-period", "", Hidden, 0, intMax, 0),
	intParam("shutdown-timeout", "", 0, 0, intMax, 10),
	intParam("repl-diskless-sync-max-replicas", "", 0, 0, intMax, 0),

	// Unsigned int configs.
	intParam("maxclients", "", Unsigned, 1, uintMax, 10000),
	{Name: "unixsocketperm", Type: Octal, Flags: Immutable | Unsigned, Min: 0, Max: 0o777, Default: "0"},
	intParam("socket-mark-id", "", Immutable|Unsigned, 0, uintMax, 0),

	// Unsigned long configs (bounds checked as signed: config.c's unsigned list omits ULONG).
	intParam("active-defrag-max-scan-fields", "", 0, 1, longMax, 1000),
	intParam("slowlog-max-len", "", 0, 0, longMax, 128),
	intParam("acllog-max-len", "", 0, 0, longMax, 128),

	// Long long configs.
	intParam("busy-reply-threshold", "lua-time-limit", 0, 0, longMax, 5000),
	intParam("cluster-node-timeout", "", 0, 0, llongMax, 15000),
	intParam("cluster-ping-interval", "", Hidden, 0, llongMax, 0),
	intParam("slowlog-log-slower-than", "", 0, -1, llongMax, 10000),
	intParam("latency-monitor-threshold", "", 0, 0, llongMax, 0),
	memParam("proto-max-bulk-len", "", Debug, 1*mb, longMax, 512*mb),
	intParam("stream-node-max-entries", "", 0, 0, llongMax, 100),
	memParam("repl-backlog-size", "", 0, 1, llongMax, 1*mb),

	// Unsigned long long configs.
	memParam("maxmemory", "", Unsigned, 0, ullMax, 0),
	memParam("cluster-link-sendbuf-limit", "", Unsigned, 0, ullMax, 0),

	// size_t configs (unsigned).
	intParam("hash-max-listpack-entries", "hash-max-ziplist-entries", Unsigned, 0, longMax, 512),
	intParam("set-max-intset-entries", "", Unsigned, 0, longMax, 512),
	intParam("set-max-listpack-entries", "", Unsigned, 0, longMax, 128),
	intParam("set-max-listpack-value", "", Unsigned, 0, longMax, 64),
	intParam("zset-max-listpack-entries", "zset-max-ziplist-entries", Unsigned, 0, longMax, 128),
	memParam("active-defrag-ignore-bytes", "", Unsigned, 1, llongMax, 100<<20),
	memParam("hash-max-listpack-value", "hash-max-ziplist-value", Unsigned, 0, longMax, 64),
	memParam("stream-node-max-bytes", "", Unsigned, 0, longMax, 4096),
	memParam("zset-max-listpack-value", "zset-max-ziplist-value", Unsigned, 0, longMax, 64),
	memParam("hll-sparse-max-bytes", "", Unsigned, 0, longMax, 3000),
	intParam("tracking-table-max-keys", "", Unsigned, 0, longMax, 1000000),
	memParam("client-query-buffer-limit", "", Debug|Unsigned, 1*mb, longMax, 1*gb),
	// ssize_t: a memory value or a percentage of maxmemory.
	{Name: "maxmemory-clients", Type: MemoryPercent, Min: -100, Max: longMax, Default: "0"},

	// Other configs (time_t, off_t).
	intParam("repl-backlog-ttl", "", 0, 0, longMax, 3600),
	memParam("auto-aof-rewrite-min-size", "", 0, 0, llongMax, 64*mb),
	intParam("loading-process-events-interval-bytes", "", Hidden, 1024, intMax, 2*mb),

	// TLS configs: registered whether or not TLS is built in, as in 7.2.
	intParam("tls-port", "", 0, 0, 65535, 0),
	intParam("tls-session-cache-size", "", 0, 0, intMax, 20*1024),
	intParam("tls-session-cache-timeout", "", 0, 0, intMax, 300),
	boolParam("tls-cluster", "", 0, false),
	boolParam("tls-replication", "", 0, false),
	enumParam("tls-auth-clients", 0, tlsAuthClientsEnum, "yes"),
	boolParam("tls-prefer-server-ciphers", "", 0, false),
	boolParam("tls-session-caching", "", 0, true),
	strParam("tls-cert-file", "", 0, "", nil),
	strParam("tls-key-file", "", 0, "", nil),
	strParam("tls-key-file-pass", "", 0, "", nil),
	strParam("tls-client-cert-file", "", 0, "", nil),
	strParam("tls-client-key-file", "", 0, "", nil),
	strParam("tls-client-key-file-pass", "", 0, "", nil),
	strParam("tls-dh-params-file", "", 0, "", nil),
	strParam("tls-ca-cert-file", "", 0, "", nil),
	strParam("tls-ca-cert-dir", "", 0, "", nil),
	strParam("tls-protocols", "", 0, "", nil),
	strParam("tls-ciphers", "", 0, "", nil),
	strParam("tls-ciphersuites", "", 0, "", nil),

	// Special configs. dir's default is the working directory, filled in by New.
	specialParam("dir", "", Protected|DenyLoading, "", parseDir),
	specialParam("save", "", MultiArg, "3600 1 300 100 60 10000", parseSave),
	specialParam("client-output-buffer-limit", "", MultiArg,
		"normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60", parseClientOutputBufferLimit),
	specialParam("oom-score-adj-values", "", MultiArg, "0 200 800", parseOOMScoreAdjValues),
	specialParam("notify-keyspace-events", "", 0, "", parseNotifyKeyspaceEvents),
	specialParam("bind", "", MultiArg, defaultBind, parseBind),
	specialParam("replicaof", "slaveof", Immutable|MultiArg, "", parseReplicaOf),
	specialParam("latency-tracking-info-percentiles", "", MultiArg, "50 99 99.9", parseLatencyPercentiles),

	// kvserver's own, not in Redis 7.2: Valkey 8.1's log-format, with json added.
	enumParam("log-format", 0, logFormatEnum, "legacy"),
}

// kvserverParams are the parameters above that Redis 7.2 does not have.
var kvserverParams = map[string]bool{"log-format": true}

func withBoolCheck(p Param, check func(string) string) Param { p.check = check; return p }
func withClamp(p Param, clamp func(int64) int64) Param       { p.clamp = clamp; return p }

// clampHz is updateHZ: hz is a hint, so values out of range are accepted and capped to
// CONFIG_MIN_HZ..CONFIG_MAX_HZ (1..500).
func clampHz(v int64) int64 { return min(max(v, 1), 500) }
