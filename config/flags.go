package config

import (
	"strings"

	"github.com/spf13/pflag"
)

// serverFlags are the directives kvserver acts on, in the order --help lists them.
var serverFlags = []string{
	"port", "bind", "protected-mode", "requirepass", "maxclients", "timeout", "tcp-keepalive",
	"databases", "hz", "proto-max-bulk-len", "client-query-buffer-limit", "maxmemory",
	"maxmemory-policy", "loglevel", "logfile", "pidfile", "daemonize", "dir", "dbfilename",
	"save", "appendonly",
}

var flagUsage = map[string]string{
	"port":                      "TCP port to accept connections on (0: none)",
	"bind":                      "addresses to listen on; a leading '-' marks one that may be unavailable",
	"protected-mode":            "refuse non-loopback clients while no password is set",
	"requirepass":               "password clients must AUTH with",
	"maxclients":                "maximum number of connected clients",
	"timeout":                   "close a client idle for this many seconds (0: never)",
	"tcp-keepalive":             "TCP keep-alive period of client connections, in seconds (0: off)",
	"databases":                 "number of databases",
	"hz":                        "background tasks per second (1-500)",
	"proto-max-bulk-len":        "maximum size of one bulk string argument",
	"client-query-buffer-limit": "maximum size of a client's query buffer",
	"maxmemory":                 "memory limit (0: none)",
	"maxmemory-policy":          "what to do at maxmemory: " + enumList(maxmemoryPolicyEnum),
	"loglevel":                  "log verbosity: " + enumList(loglevelEnum),
	"logfile":                   "log file (empty: standard output)",
	"pidfile":                   "file to write the process id to",
	"daemonize":                 "run in the background",
	"dir":                       "working directory, where snapshots are written (default: the current directory)",
	"dbfilename":                "snapshot file name",
	"save":                      "snapshot rules: <seconds> <changes> pairs; \"\" disables",
	"appendonly":                "enable the append-only file",
}

func enumList(vs []EnumValue) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

// FlagSet returns pflag definitions of the directives the server acts on (port, bind,
// protected-mode, requirepass, maxclients, timeout, tcp-keepalive, databases, hz,
// proto-max-bulk-len, client-query-buffer-limit, maxmemory, maxmemory-policy,
// loglevel, logfile, pidfile, daemonize, dir, dbfilename, save, appendonly), each
// named as its directive, with Redis's default, so that --help lists them. The flags are bound to c: setting one
// (fs.Set("port", "6380"), or parsing "--port=6380") is Load of that directive, with
// the same checks and errors, and a flag's value is the parameter's current value. A
// MultiArg flag takes its words in one argument ("--bind=127.0.0.1 ::1").
func (c *Config) FlagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet("kvserver", pflag.ContinueOnError)
	fs.SortFlags = false
	for _, name := range serverFlags {
		p, _ := Lookup(name)
		f := fs.VarPF(&flagValue{c: c, p: p}, name, "", flagUsage[name])
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
