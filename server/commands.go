package server

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/querybuf"
)

// commandFamilies lists every family's rows; command.New joins them into the table. The string
// and keyspace families live in their own packages (family/…); the commands about connections
// and the server itself (CLIENT, HELLO, CONFIG, INFO, DEBUG, COMMAND …) stay here, beside the
// clients they act on.
func (s *Server) commandFamilies() [][]*command.Command {
	return [][]*command.Command{
		connectionCommands(),
		stringfamily.Commands(),
		keyfamily.Commands(),
		serverCommands(),
		configCommands(),
		infoCommands(),
		authCommands(),
		debugCommands(),
		s.observeCommands(),
		testOnlyCommands(),
	}
}

// clientCommand adapts a handler of the server's own commands, which act on the connection
// itself (its name, protocol, database, authentication), to the pipeline: it receives the
// client behind the context. The client's database goes in and comes back (SELECT, RESET).
func clientCommand(fn func(c *client, args querybuf.Args)) command.Handler {
	return func(ctx *command.Ctx) {
		c := ctx.Conn.(*client)
		c.db = ctx.DB
		fn(c, ctx.Args)
		ctx.DB = c.db
	}
}
