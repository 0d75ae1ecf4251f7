package latency

import (
	"fmt"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/resp"
)

// Env is what the LATENCY rows need from the rest of the server.
type Env struct {
	// Histograms writes LATENCY HISTOGRAM's reply for the commands named (every command with
	// a histogram when names is empty): the statistics package keeps the histograms.
	Histograms func(w *resp.Writer, names [][]byte)
	// SlowlogSlowerThan is slowlog-log-slower-than in µs, for DOCTOR's advice.
	SlowlogSlowerThan func() int64
	// Hz is the configured hz, for DOCTOR's advice.
	Hz func() int
}

// Commands returns the LATENCY rows, which read and reset m.
func Commands(m *Monitor, env Env) []*command.Command {
	return []*command.Command{
		{Name: "latency", Locking: command.LockNone, Subcommands: []*command.Command{
			{Name: "latest", Locking: command.LockNone, Handler: m.latestCommand},
			{Name: "history", Locking: command.LockNone, Handler: m.historyCommand},
			{Name: "reset", Locking: command.LockNone, Handler: m.resetCommand},
			{Name: "graph", Locking: command.LockNone, Handler: m.graphCommand},
			{Name: "doctor", Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
				ctx.W.Verbatim("txt", m.Doctor(env.SlowlogSlowerThan(), env.Hz()))
			}},
			{Name: "histogram", Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
				names := make([][]byte, 0, ctx.Args.Len()-2)
				for i := 2; i < ctx.Args.Len(); i++ {
					names = append(names, ctx.Args.Arg(i))
				}
				env.Histograms(ctx.W, names)
			}},
			{Name: "help", Locking: command.LockNone, Handler: helpCommand},
		}},
	}
}

// latestCommand: LATENCY LATEST — [event, time, latest ms, all-time highest ms] per event.
func (m *Monitor) latestCommand(ctx *command.Ctx) {
	latest := m.Latest()
	ctx.W.Array(len(latest))
	for _, l := range latest {
		ctx.W.Array(4)
		ctx.W.BulkString(l.Event)
		ctx.W.Int(l.Time)
		ctx.W.Int(l.Latency)
		ctx.W.Int(l.Max)
	}
}

// historyCommand: LATENCY HISTORY event — its [time, ms] samples, oldest first.
func (m *Monitor) historyCommand(ctx *command.Ctx) {
	samples, _ := m.History(string(ctx.Args.Arg(2)))
	ctx.W.Array(len(samples))
	for _, s := range samples {
		ctx.W.Array(2)
		ctx.W.Int(s[0])
		ctx.W.Int(s[1])
	}
}

// resetCommand: LATENCY RESET [event ...] — how many series were dropped.
func (m *Monitor) resetCommand(ctx *command.Ctx) {
	events := make([]string, 0, ctx.Args.Len()-2)
	for i := 2; i < ctx.Args.Len(); i++ {
		events = append(events, string(ctx.Args.Arg(i)))
	}
	if len(events) == 0 {
		ctx.W.Int(int64(m.Reset()))
		return
	}
	ctx.W.Int(int64(m.Reset(events...)))
}

// graphCommand: LATENCY GRAPH event — the ASCII graph, or Redis's error for an event
// without samples.
func (m *Monitor) graphCommand(ctx *command.Ctx) {
	event := string(ctx.Args.Arg(2))
	graph, ok := m.Graph(event)
	if !ok {
		ctx.W.Error(fmt.Sprintf("ERR No samples available for event '%s'", event))
		return
	}
	ctx.W.Verbatim("txt", graph)
}

// helpCommand: LATENCY HELP, Redis 7.2's text.
func helpCommand(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "LATENCY", []string{
		"DOCTOR",
		"    Return a human readable latency analysis report.",
		"GRAPH <event>",
		"    Return an ASCII latency graph for the <event> class.",
		"HISTORY <event>",
		"    Return time-latency samples for the <event> class.",
		"LATEST",
		"    Return the latest latency samples for all events.",
		"RESET [<event> ...]",
		"    Reset latency data of one or more <event> classes.",
		"    (default: reset all data for all event classes)",
		"HISTOGRAM [COMMAND ...]",
		"    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.",
		"    If no commands are specified then all histograms are replied.",
	})
}
