package slowlog

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
)

// Peer is what an entry records of the client that ran the command: the command.Conn the
// pipeline hands over has these methods when it is a real client.
type Peer interface {
	PeerID() string     // "ip:port", as CLIENT LIST's addr
	ClientName() string // CLIENT SETNAME's name, "" if none
}

// Commands returns the SLOWLOG rows, which read and reset l.
func Commands(l *Log) []*command.Command {
	return []*command.Command{
		{Name: "slowlog", Locking: command.LockNone, Subcommands: []*command.Command{
			{Name: "get", Locking: command.LockNone, Handler: l.getCommand},
			{Name: "len", Locking: command.LockNone, Handler: func(ctx *command.Ctx) { ctx.W.Int(int64(l.Len())) }},
			{Name: "reset", Locking: command.LockNone, Handler: func(ctx *command.Ctx) { l.Reset(); ctx.W.OK() }},
			{Name: "help", Locking: command.LockNone, Handler: helpCommand},
		}},
	}
}

// getCommand: SLOWLOG GET [count] — the newest count entries (10 by default, -1 for all), each
// [id, time, duration, [args…], peer, name].
func (l *Log) getCommand(ctx *command.Ctx) {
	if ctx.Args.Len() > 3 {
		command.ReplySubcommandSyntaxError(ctx.W, ctx.Args)
		return
	}
	count := int64(10)
	if ctx.Args.Len() == 3 {
		n, ok := conv.String2ll(ctx.Args.Arg(2))
		if !ok || n < -1 {
			ctx.W.Error("ERR count should be greater than or equal to -1")
			return
		}
		count = n
	}
	if count > int64(l.Len()) || count < 0 {
		count = -1
	}
	entries := l.Newest(int(count))
	w := ctx.W
	w.Array(len(entries))
	for _, e := range entries {
		w.Array(6)
		w.Int(e.ID)
		w.Int(e.Time)
		w.Int(e.Duration)
		w.Array(len(e.Args))
		for _, a := range e.Args {
			w.Bulk(a)
		}
		w.BulkString(e.Peer)
		w.BulkString(e.Name)
	}
}

// helpCommand: SLOWLOG HELP, Redis 7.2's text.
func helpCommand(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "SLOWLOG", []string{
		"GET [<count>]",
		"    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
		"    Entries are made of:",
		"    id, timestamp, time in microseconds, arguments array, client IP and port,",
		"    client name",
		"LEN",
		"    Return the length of the slowlog.",
		"RESET",
		"    Reset the slowlog.",
	})
}
