package config

import (
	"sort"
	"strings"
)

// Support says what kvserver does with a directive. Every directive Redis 7.2 knows is in
// exactly one of the three lists, so that none is silently ignored.
type Support uint8

const (
	// Acted directives change what the server does.
	Acted Support = iota
	// Inert directives are accepted for compatibility and have no effect. They are harmless
	// to ignore (a tuning knob, a feature kvserver does not have and that nothing relies on
	// for safety); the server logs a warning the first time one is set to a value other than
	// its default.
	Inert
	// Refused directives would weaken security or lose data if they were ignored: a value
	// other than the default stops the server from starting and makes CONFIG SET fail, until
	// the feature exists.
	Refused
)

var supportNames = [...]string{"acted on", "accepted, no effect", "refused"}

func (s Support) String() string { return supportNames[s] }

// DirectiveSupport is one row of the support table.
type DirectiveSupport struct {
	Name    string  // the canonical name
	Support Support // what kvserver does with it
	// Note says why, for Inert and Refused rows: what is missing. For a Refused row it ends
	// the error a refused value gets.
	Note string
	// Param is false for a directive that is not a parameter (include, rename-command, user,
	// loadmodule): CONFIG GET and CONFIG SET do not know it.
	Param bool
}

// acted lists the directives the server acts on, each with what it does.
var acted = map[string]string{
	"busy-reply-threshold":              "milliseconds a script (EVAL, FCALL) runs before other clients are answered BUSY and SCRIPT KILL / FUNCTION KILL may stop it (alias lua-time-limit)",
	"port":                              "TCP port to accept connections on (0: no TCP listener)",
	"bind":                              "addresses to listen on; a leading '-' marks one that may be unavailable",
	"unixsocket":                        "path of a Unix socket to accept connections on",
	"unixsocketperm":                    "permissions of the Unix socket (octal)",
	"protected-mode":                    "refuse non-loopback clients while no password is set",
	"requirepass":                       "the default user's password (CONFIG SET changes it, as ACL SETUSER default resetpass >pass)",
	"user":                              "an ACL user and its rules, as ACL SETUSER, at start-up (not with aclfile)",
	"aclfile":                           "the file of ACL users loaded at start-up and by ACL LOAD, written by ACL SAVE",
	"acllog-max-len":                    "entries the ACL LOG keeps",
	"acl-pubsub-default":                "the channels of new users: resetchannels (none) or allchannels",
	"maxclients":                        "maximum number of connected clients",
	"timeout":                           "close a client idle for this many seconds (0: never)",
	"tcp-keepalive":                     "TCP keep-alive period of client connections, in seconds (0: off)",
	"databases":                         "number of databases",
	"hash-max-listpack-entries":         "a hash with more fields becomes a hash table (never back)",
	"hash-max-listpack-value":           "a hash with a longer field or value becomes a hash table (never back)",
	"hz":                                "background tasks per second (1-500)",
	"proto-max-bulk-len":                "maximum size of one bulk string argument",
	"client-query-buffer-limit":         "maximum size of a client's query buffer",
	"maxmemory":                         "memory limit in bytes (0: none): over it, keys are evicted by maxmemory-policy, then writes refused",
	"maxmemory-policy":                  "which keys eviction takes: " + enumList(maxmemoryPolicyEnum),
	"maxmemory-samples":                 "keys sampled per database and round by LRU and LFU eviction",
	"maxmemory-eviction-tenacity":       "how long one command may evict before the cron goes on (0-100; 100: no limit)",
	"lfu-log-factor":                    "how slowly LFU access counters grow",
	"lfu-decay-time":                    "minutes without access for an LFU counter to lose one",
	"client-output-buffer-limit":        "close a client whose unread output passes its class's hard limit, or its soft limit for that many seconds: normal clients' replies, pubsub clients' queued messages (replica class: no replicas yet)",
	"maxmemory-clients":                 "close the clients using the most memory while all clients' buffers pass this (bytes, or a percentage of maxmemory)",
	"slowlog-log-slower-than":           "commands at least this slow (µs) go to the slow log (-1: off, 0: every command)",
	"slowlog-max-len":                   "entries the slow log keeps",
	"latency-monitor-threshold":         "events at least this slow (ms) go to the latency monitor (0: off)",
	"latency-tracking":                  "per-command latency histograms (INFO latencystats, LATENCY HISTOGRAM)",
	"latency-tracking-info-percentiles": "the percentiles INFO latencystats shows",
	"loglevel":                          "log verbosity: " + enumList(loglevelEnum),
	"logfile":                           "log file (empty: standard output)",
	"log-format":                        "log line format: legacy (Redis's), logfmt or json",
	"pidfile":                           "file to write the process id to",
	"dir":                               "working directory; relative paths are taken from it",
	"enable-debug-command":              "who may run DEBUG: no, yes or local (loopback and Unix socket clients)",
	"enable-protected-configs":          "who may CONFIG SET dir and dbfilename: no, yes or local",
	"shutdown-timeout":                  "seconds a shutdown waits for running commands before the process exits",
	"include":                           "read another configuration file (or every file a glob matches)",
	"rename-command":                    "rename a command, or disable it with \"\" (configuration file only)",
	"save":                              "save points: a background save after <seconds> if at least <changes> writes (\"\": none); a shutdown saves when there are any",
	"dbfilename":                        "the snapshot file (in dir), loaded at start-up and written by SAVE, BGSAVE and shutdown",
	"rdbcompression":                    "LZF-compress strings over 20 bytes in the snapshot",
	"rdbchecksum":                       "write and check the snapshot's CRC-64",
	"stop-writes-on-bgsave-error":       "refuse writes (MISCONF) while the last background save failed and save points exist",
	"rdb-save-incremental-fsync":        "start writeback every 4 MB while a snapshot is written",
	"rdb-key-save-delay":                "microseconds slept per key saved (a test knob: makes saves observable)",
	"key-load-delay":                    "microseconds slept per key loaded (a test knob: makes loading observable)",
	"repl-diskless-sync":                "SYNC (redis-cli --rdb) streams the snapshot to clients that read that form (yes), or sends it from a temporary file (no)",
	"shutdown-on-sigterm":               "what SIGTERM does: default (save if save points exist), save, nosave, force",
	"shutdown-on-sigint":                "what SIGINT does: default (save if save points exist), save, nosave, force",
	"lazyfree-lazy-user-del":            "DEL leaves a big hash, set or list (a table of more than 64 entries, a quicklist of more than 64 nodes) for the cron to free, as UNLINK does",
	"lazyfree-lazy-user-flush":          "FLUSHALL and FLUSHDB without SYNC or ASYNC leave big values for the cron to free, as ASYNC does",
	"lazyfree-lazy-server-del":          "overwrites, RENAME's replaced key and other server-side deletes leave a big value for the cron to free",
	"lazyfree-lazy-expire":              "keys removed by expiry leave a big value for the cron to free",
	"notify-keyspace-events":            "keyspace notification classes (K E g $ l s h z x e t m d n A) published to __keyspace@<db>__:<key> and __keyevent@<db>__:<event>",
	"set-max-intset-entries":            "an intset (a set of integers) with more members becomes a hash table (never back)",
	"set-max-listpack-entries":          "a small set of strings is a listpack up to this many members, then a hash table (never back)",
	"set-max-listpack-value":            "a set with a longer member is not a listpack: it becomes a hash table (never back)",
	"zset-max-listpack-entries":         "a sorted set is a listpack up to this many members, then a skiplist (a hash table and a counted index); results of ZUNIONSTORE, ZRANGESTORE… and loads go back to a listpack within the limits",
	"zset-max-listpack-value":           "a sorted set with a longer member is not a listpack: it becomes a skiplist",
	"list-max-listpack-size":            "a list is one listpack up to this size (-1…-5: 4…64 KB; positive: entries), then a quicklist of such nodes, back to a listpack at half of it",
}

// refused lists the directives refused at any value but their default, with what is missing.
var refused = map[string]string{
	"appendonly":               "kvserver has no append-only file yet; writes would not be persisted",
	"replicaof":                "kvserver has no replication yet",
	"cluster-enabled":          "kvserver has no cluster mode",
	"loadmodule":               "kvserver does not load Redis modules",
	"tls-port":                 "kvserver has no TLS yet; connections would be in plaintext",
	"tls-replication":          "kvserver has no TLS yet",
	"tls-cluster":              "kvserver has no TLS yet",
	"tls-cert-file":            "kvserver has no TLS yet",
	"tls-key-file":             "kvserver has no TLS yet",
	"tls-key-file-pass":        "kvserver has no TLS yet",
	"tls-client-cert-file":     "kvserver has no TLS yet",
	"tls-client-key-file":      "kvserver has no TLS yet",
	"tls-client-key-file-pass": "kvserver has no TLS yet",
	"tls-dh-params-file":       "kvserver has no TLS yet",
	"tls-ca-cert-file":         "kvserver has no TLS yet",
	"tls-ca-cert-dir":          "kvserver has no TLS yet",
	"daemonize":                "kvserver does not daemonize itself: run it in the foreground under a supervisor such as systemd (see scripts/kvserver.service)",
}

// inertNotes explain the inert directives whose reason is not "a feature kvserver lacks".
var inertNotes = map[string]string{
	"sanitize-dump-payload":  "payloads and RDB files are always checked deep (listpacks and intsets walked whole, no field or member twice), as Redis's yes",
	"rdb-del-sync-files":     "SYNC's disk form deletes its temporary file at once: there is no other file to delete",
	"active-expire-effort":   "active expiry runs at its default effort",
	"activerehashing":        "tables always rehash incrementally, in the cron and on writes",
	"dynamic-hz":             "the cron runs at hz; it does not scale with the client count",
	"always-show-logo":       "no ASCII-art logo is printed",
	"set-proc-title":         "the process title is not changed",
	"proc-title-template":    "the process title is not changed",
	"server_cpulist":         "threads are not pinned to CPUs",
	"bio_cpulist":            "threads are not pinned to CPUs",
	"aof_rewrite_cpulist":    "threads are not pinned to CPUs",
	"bgsave_cpulist":         "threads are not pinned to CPUs",
	"bind-source-addr":       "no outgoing connections (replication) yet",
	"crash-log-enabled":      "a crash prints Go's own report",
	"crash-memcheck-enabled": "a crash prints Go's own report",
	"use-exit-on-panic":      "a crash prints Go's own report",
	"watchdog-period":        "no software watchdog",
	"disable-thp":            "the allocator already asks for no transparent huge pages (MADV_NOHUGEPAGE)",
	"jemalloc-bg-thread":     "kvserver's allocator is not jemalloc",
	"ignore-warnings":        "kvserver prints none of Redis's kernel warnings",
	"locale-collate":         "strings compare as bytes",
	"socket-mark-id":         "sockets are not marked",
	"lazyfree-lazy-eviction": "eviction deletes as other server-side deletes do: lazily under lazyfree-lazy-server-del",
	"supervised":             "no systemd or upstart notification; run it with Type=simple (scripts/kvserver.service)",
	"tcp-backlog":            "listeners use the system's backlog (somaxconn)",
	"list-compress-depth":    "accepted, inner nodes are not compressed",
}

// supportOf classifies a canonical directive name.
func supportOf(name string) Support {
	if _, ok := acted[name]; ok {
		return Acted
	}
	if _, ok := refused[name]; ok {
		return Refused
	}
	return Inert
}

// refusal is the reason a value of parameter p is refused, or "" if it is accepted: a
// Refused parameter takes its default only.
func (p *Param) refusal(v string) string {
	switch {
	case supportOf(p.Name) == Refused:
		if v != p.Default {
			return "'" + p.Name + "' is not supported: " + refused[p.Name]
		}
	}
	return ""
}

// refusedDirectiveReason is the start-up error of a refused directive that is not a
// parameter (user, loadmodule), or "".
func refusedDirectiveReason(name string) string {
	if note, ok := refused[name]; ok {
		if _, isParam := lookup(name); !isParam {
			return "'" + name + "' is not supported: " + note
		}
	}
	return ""
}

// Directives is the support table: every Redis 7.2 parameter, kvserver's own (log-format)
// and the directives that are not parameters, sorted by name.
func Directives() []DirectiveSupport {
	var out []DirectiveSupport
	for _, p := range params {
		out = append(out, directiveRow(p.Name, true))
	}
	for _, name := range []string{"include", "rename-command", "user", "loadmodule"} {
		out = append(out, directiveRow(name, false))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func directiveRow(name string, param bool) DirectiveSupport {
	d := DirectiveSupport{Name: name, Support: supportOf(name), Param: param}
	switch d.Support {
	case Acted:
		d.Note = acted[name]
	case Refused:
		d.Note = refused[name]
	case Inert:
		d.Note = inertNotes[name]
		if d.Note == "" {
			d.Note = inertReason(name)
		}
	}
	return d
}

// inertReason says, by the name's family, what is missing behind an inert directive.
func inertReason(name string) string {
	prefixes := []struct{ prefix, why string }{
		{"repl", "no replication yet"}, {"replica", "no replication yet"}, {"slave", "no replication yet"},
		{"master", "no replication yet"}, {"min-replicas", "no replication yet"},
		{"cluster-", "no cluster mode"}, {"tls-", "no TLS yet"},
		{"aof-", "no append-only file yet"}, {"append", "no append-only file yet"},
		{"auto-aof", "no append-only file yet"}, {"no-appendfsync", "no append-only file yet"},
		{"loading-", "loading reports no progress events"},
		{"replica-lazy-flush", "no replication yet"},
		{"active-defrag", "no active defragmentation: the allocator's slabs are size-classed"},
		{"activedefrag", "no active defragmentation: the allocator's slabs are size-classed"},
		{"stream-", "no streams yet"}, {"hll-", "no HyperLogLog yet"},
		{"maxmemory-", "no memory limit is enforced yet"},
		{"acl", "no ACL yet"},
		{"tracking-", "no client tracking yet"},
		{"syslog-", "logs go to logfile or standard output only"},
		{"io-threads", "readiness loops are sized by the CPU count"},
		{"enable-module", "no modules"}, {"propagation-error", "no replication yet"},
		{"oom-score", "the OOM score is not adjusted"},
	}
	for _, p := range prefixes {
		if strings.HasPrefix(name, p.prefix) {
			return p.why
		}
	}
	return "no effect"
}
