package server

import (
	"github.com/kvserver/kvserver/command"
	"net"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// configCommands is CONFIG and its subcommands.
func configCommands() []*command.Command {
	return []*command.Command{
		{Name: "config", Subcommands: []*command.Command{
			{Name: "get", Handler: clientCommand(configGetCommand)},
			{Name: "set", Flags: command.MayReplicate | command.Protected, Handler: clientCommand(configSetCommand)},
			{Name: "resetstat", Handler: clientCommand(configResetStatCommand)},
			{Name: "rewrite", Handler: clientCommand(configRewriteCommand)},
			{Name: "help", Handler: clientCommand(configHelpCommand)},
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
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	pairs := make([][2]string, 0, (args.Len()-2)/2)
	var old [][]string // values before, to undo a maxclients the system cannot take
	for i := 2; i < args.Len(); i += 2 {
		pairs = append(pairs, [2]string{string(args.Arg(i)), string(args.Arg(i + 1))})
		if strings.EqualFold(pairs[len(pairs)-1][0], "maxclients") {
			old = c.srv.configValues(pairs)
		}
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
	if old != nil {
		// updateMaxclients: the descriptor limit must allow the new maxclients, else every
		// value of the command is put back.
		want := int64(c.srv.cfg.MaxClients())
		if allowed, _, _ := openFilesLimit(want); allowed < want {
			_ = c.srv.cfg.Load(old)
			c.w.Error("ERR CONFIG SET failed (possibly related to argument 'maxclients') - " + errMaxClientsOS(allowed))
			return
		}
	}
	c.w.OK()
}

// configValues returns the current values of the parameters named in pairs, as directives
// that Load can apply again.
func (s *Server) configValues(pairs [][2]string) [][]string {
	out := make([][]string, 0, len(pairs))
	for _, p := range pairs {
		if v, ok := s.cfg.Value(p[0]); ok {
			out = append(out, []string{p[0], v})
		}
	}
	return out
}

// isLocal reports whether the client is on this machine, as Redis's islocalClient: a Unix
// socket, or a loopback address.
func (c *client) isLocal() bool {
	if c.conn == nil {
		return c.peer.isLoopback()
	}
	if _, ok := c.conn.RemoteAddr().(*net.UnixAddr); ok {
		return true
	}
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

// configRewriteCommand: CONFIG REWRITE writes the running configuration back to the file
// the server was started with (config.Rewrite has the rules).
func configRewriteCommand(c *client, args querybuf.Args) {
	if c.srv.configFile == "" {
		c.w.Error("ERR The server is running without a config file")
		return
	}
	if err := c.srv.cfg.Rewrite(c.srv.configFile); err != nil {
		c.srv.log.Warn("CONFIG REWRITE failed: " + err.Error())
		c.w.Error("ERR Rewriting config file: " + errnoText(err))
		return
	}
	c.srv.log.Info("CONFIG REWRITE executed with success.", zap.String("file", c.srv.configFile))
	c.w.OK()
}

// errnoText is strerror's text of the system error under err ("Permission denied"), or err's
// own text.
func errnoText(err error) string {
	var errno interface{ Error() string }
	for e := err; e != nil; {
		errno = e
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	t := errno.Error()
	if t != "" {
		return strings.ToUpper(t[:1]) + t[1:]
	}
	return strconv.Quote(err.Error())
}

func configHelpCommand(c *client, args querybuf.Args) {
	c.helpReply("CONFIG", []string{
		"GET <pattern>", "    Return parameters matching the glob-like <pattern> and their values.",
		"SET <directive> <value>", "    Set the configuration <directive> to <value>.",
		"RESETSTAT", "    Reset statistics reported by the INFO command.",
		"REWRITE", "    Rewrite the configuration file.",
	})
}
