package server

import (
	"net"

	"github.com/kvserver/kvserver/querybuf"
)

// configCommands is CONFIG and its subcommands.
func configCommands() []*command {
	return []*command{
		{Name: "config", Arity: -2, Subcommands: []*command{
			{Name: "get", Arity: -3, Flags: cmdAdmin | cmdNoScript | cmdLoading | cmdStale, Proc: configGetCommand},
			{Name: "set", Arity: -4, Flags: cmdAdmin | cmdNoScript | cmdLoading | cmdStale | cmdMayReplicate | cmdProtected, Proc: configSetCommand},
			{Name: "resetstat", Arity: 2, Flags: cmdAdmin | cmdNoScript | cmdLoading | cmdStale, Proc: configResetStatCommand},
			{Name: "rewrite", Arity: 2, Flags: cmdAdmin | cmdNoScript | cmdLoading | cmdStale, Proc: configRewriteCommand},
			{Name: "help", Arity: 2, Flags: cmdLoading | cmdStale, Proc: configHelpCommand},
		}},
	}
}

// configGetCommand: CONFIG GET pattern [pattern ...] — a map of every matching parameter.
func configGetCommand(c *client, args querybuf.Args) {
	patterns := make([]string, 0, args.Len()-2)
	for i := 2; i < args.Len(); i++ {
		patterns = append(patterns, string(args.Arg(i)))
	}
	pairs := c.srv.cfg.Get(patterns...)
	c.w.Map(len(pairs))
	for _, p := range pairs {
		c.w.BulkString(p.Name)
		c.w.BulkString(p.Value)
	}
}

// configSetCommand: CONFIG SET name value [name value ...], applied all or nothing.
func configSetCommand(c *client, args querybuf.Args) {
	if args.Len()%2 != 0 {
		c.w.Error(errSyntax)
		return
	}
	pairs := make([][2]string, 0, (args.Len()-2)/2)
	for i := 2; i < args.Len(); i += 2 {
		pairs = append(pairs, [2]string{string(args.Arg(i)), string(args.Arg(i + 1))})
	}
	var err error
	if c.isLocal() {
		err = c.srv.cfg.SetLocal(pairs...)
	} else {
		err = c.srv.cfg.Set(pairs...)
	}
	if err != nil {
		c.w.Error(err.Error())
		return
	}
	c.w.OK()
}

// isLocal reports whether the client connected over loopback.
func (c *client) isLocal() bool {
	host, _, err := net.SplitHostPort(c.remoteAddr())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func configResetStatCommand(c *client, args querybuf.Args) {
	c.srv.resetStats()
	c.w.OK()
}

func configRewriteCommand(c *client, args querybuf.Args) {
	if c.srv.configFile == "" {
		c.w.Error("ERR The server is running without a config file")
		return
	}
	c.w.Error("ERR Rewriting config file: not supported yet")
}

func configHelpCommand(c *client, args querybuf.Args) {
	c.helpReply("CONFIG", []string{
		"GET <pattern>", "    Return parameters matching the glob-like <pattern> and their values.",
		"SET <directive> <value>", "    Set the configuration <directive> to <value>.",
		"RESETSTAT", "    Reset statistics reported by the INFO command.",
		"REWRITE", "    Rewrite the configuration file.",
	})
}
