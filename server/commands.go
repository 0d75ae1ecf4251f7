package server

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/aclfamily"
	"github.com/kvserver/kvserver/family/debugfamily"
	"github.com/kvserver/kvserver/family/geofamily"
	"github.com/kvserver/kvserver/family/hashfamily"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/listfamily"
	"github.com/kvserver/kvserver/family/persistfamily"
	"github.com/kvserver/kvserver/family/serverfamily"
	"github.com/kvserver/kvserver/family/setfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/family/txfamily"
	"github.com/kvserver/kvserver/family/zsetfamily"
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
		s.pubsubCommands(),
		stringfamily.Commands(),
		hashfamily.Commands(),
		setfamily.Commands(),
		listfamily.Commands(),
		zsetfamily.Commands(),
		s.keyCommands(),
		serverCommands(),
		syncCommands(),
		serverfamily.Commands(serverHost{s}),
		persistfamily.Commands(s.persist),
		info.Commands((*infoSource)(s)),
		authCommands(),
		aclfamily.Commands(aclHost{s}),
		debugfamily.Commands(debugHooks{s}),
		s.observeCommands(),
		testOnlyCommands(),
		txfamily.Commands(),
		geofamily.Commands(),
		s.scripting.family.Commands(),
	}
}

// clientCommand adapts a handler of the server's own commands, which act on the connection
// itself (its name, protocol, database, authentication), to the pipeline: it receives the
// client behind the context. The client's database goes in and comes back (SELECT, RESET).
func clientCommand(fn func(c *client, args querybuf.Args)) command.Handler {
	return func(ctx *command.Ctx) {
		c := ctx.Conn.(*client)
		c.db = int32(ctx.DB)
		fn(c, ctx.Args)
		ctx.DB = int(c.db)
	}
}

// keyCommands is the keyspace family, with FLUSHALL followed by what Redis 7 does after it
// (persist.FlushedAll, under FLUSHALL's locks): a running BGSAVE is cancelled, and while save
// points exist the emptied dataset is saved, so that a restart does not bring back what was
// flushed.
func (s *Server) keyCommands() []*command.Command {
	rows := keyfamily.Commands()
	for _, r := range rows {
		if r.Name != "flushall" {
			continue
		}
		flush := r.Handler
		r.Handler = func(ctx *command.Ctx) {
			start := ctx.W.Len()
			flush(ctx)
			if b := ctx.W.Bytes(); len(b) > start && b[start] == '+' {
				s.persist.FlushedAll()
			}
		}
	}
	return rows
}
