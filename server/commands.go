package server

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/debugfamily"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/persistfamily"
	"github.com/kvserver/kvserver/family/serverfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/info"
	"github.com/kvserver/kvserver/querybuf"
)

// commandFamilies lists every family's rows; command.New joins them into the table. The
// families live in their own packages (family/…), INFO in package info; the commands about
// connections (CLIENT, HELLO, AUTH, SELECT …) and the server's life (SHUTDOWN) stay here,
// beside the clients and loops they act on.
func (s *Server) commandFamilies() [][]*command.Command {
	return [][]*command.Command{
		connectionCommands(),
		stringfamily.Commands(),
		keyfamily.Commands(),
		serverCommands(),
		syncCommands(),
		serverfamily.Commands(serverHost{s}),
		persistfamily.Commands(s.persist),
		info.Commands((*infoSource)(s)),
		authCommands(),
		debugfamily.Commands(debugHooks{s}),
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
