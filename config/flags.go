package config

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// serverFlags are the parameters kvserver acts on, in the order --help lists them: the
// Acted rows of the support table that are parameters.
var serverFlags = []string{
	"port", "bind", "unixsocket", "unixsocketperm", "protected-mode", "requirepass", "aclfile",
	"acllog-max-len", "acl-pubsub-default", "maxclients",
	"timeout", "tcp-keepalive", "databases", "hz", "proto-max-bulk-len", "client-query-buffer-limit",
	"hash-max-listpack-entries", "hash-max-listpack-value",
	"maxmemory", "maxmemory-policy", "maxmemory-samples", "maxmemory-eviction-tenacity",
	"lfu-log-factor", "lfu-decay-time", "client-output-buffer-limit", "maxmemory-clients",
	"loglevel", "logfile", "log-format", "pidfile", "dir",
	"save", "dbfilename", "rdbcompression", "rdbchecksum", "stop-writes-on-bgsave-error",
	"rdb-save-incremental-fsync", "rdb-key-save-delay", "key-load-delay", "shutdown-on-sigterm",
	"shutdown-on-sigint", "repl-diskless-sync",
	"enable-debug-command", "enable-protected-configs", "shutdown-timeout",
	"slowlog-log-slower-than", "slowlog-max-len", "latency-monitor-threshold", "latency-tracking",
	"latency-tracking-info-percentiles", "notify-keyspace-events",
	"lazyfree-lazy-user-del", "lazyfree-lazy-user-flush", "lazyfree-lazy-server-del", "lazyfree-lazy-expire",
	"set-max-intset-entries", "set-max-listpack-entries", "set-max-listpack-value",
	"list-max-listpack-size",
	"zset-max-listpack-entries", "zset-max-listpack-value",
	"busy-reply-threshold",
}

func enumList(vs []EnumValue) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

// FlagSet returns pflag definitions of the parameters the server acts on (serverFlags), each
// named as its directive, with Redis's default, so that --help lists them. The flags are bound
// to c: setting one (fs.Set("port", "6380"), or parsing "--port=6380") is Load of that
// directive, with the same checks and errors, and a flag's value is the parameter's current
// value. A MultiArg flag takes its words in one argument ("--bind=127.0.0.1 ::1").
func (c *Config) FlagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet("kvserver", pflag.ContinueOnError)
	fs.SortFlags = false
	for _, name := range serverFlags {
		p, _ := Lookup(name)
		f := fs.VarPF(&flagValue{c: c, p: p}, name, "", acted[name])
		f.DefValue = p.Default
		if p.Type == Bool {
			f.NoOptDefVal = "yes" // "--appendonly" alone means yes
		}
	}
	return fs
}

// flagValue is a pflag.Value backed by a Config parameter.
type flagValue struct {
	c *Config
	p Param
}

func (v *flagValue) String() string {
	if v.c == nil {
		return v.p.Default
	}
	s, _ := v.c.Value(v.p.Name)
	return s
}

func (v *flagValue) Set(s string) error {
	return v.c.Load([][]string{{v.p.Name, s}})
}

func (v *flagValue) Type() string {
	switch v.p.Type {
	case Bool:
		return "yes|no"
	case Integer:
		return "int"
	case Memory:
		return "bytes"
	}
	return "string"
}

// HelpText is the directive part of --help: the parameters acted on with their defaults (the
// flags), then the directives acted on that are not parameters, the ones refused until they
// are implemented, and the ones accepted with no effect — the support table, whole.
func (c *Config) HelpText() string {
	var b strings.Builder
	b.WriteString("Directives kvserver acts on:\n")
	b.WriteString(c.FlagSet().FlagUsages())
	var refusedRows, inertRows []DirectiveSupport
	for _, d := range Directives() {
		switch {
		case d.Support == Acted && !d.Param:
			fmt.Fprintf(&b, "      %-36s%s\n", d.Name, d.Note)
		case d.Support == Refused:
			refusedRows = append(refusedRows, d)
		case d.Support == Inert:
			inertRows = append(inertRows, d)
		}
	}
	b.WriteString("\nRefused at any value but the default (the server does not start; CONFIG SET fails):\n")
	for _, d := range refusedRows {
		fmt.Fprintf(&b, "      %-36s%s\n", d.Name, d.Note)
	}
	b.WriteString("\nAccepted for compatibility, no effect (a warning is logged when one is set):\n")
	for _, d := range inertRows {
		fmt.Fprintf(&b, "      %-36s%s\n", d.Name, d.Note)
	}
	return b.String()
}
