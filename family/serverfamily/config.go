package serverfamily

import (
	"strings"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/logging"
	"github.com/kvserver/kvserver/replyerr"
)

// configGetCommand: CONFIG GET pattern [pattern ...] — a map of every matching parameter.
func configGetCommand(ctx *command.Ctx) {
	patterns := make([]string, 0, ctx.Args.Len()-2)
	for i := 2; i < ctx.Args.Len(); i++ {
		patterns = append(patterns, string(ctx.Args.Arg(i)))
	}
	pairs := ctx.Cfg.Get(patterns...)
	ctx.W.Map(len(pairs))
	for _, p := range pairs {
		ctx.W.BulkString(p.Name)
		ctx.W.BulkString(p.Value)
	}
}

// configSetCommand: CONFIG SET name value [name value ...], applied all or nothing. Protected
// settings (enable-debug-command …) may be set from a local connection only (config.SetLocal).
func (f family) configSetCommand(ctx *command.Ctx) {
	args, cfg := ctx.Args, ctx.Cfg
	if args.Len()%2 != 0 {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	pairs := make([][2]string, 0, (args.Len()-2)/2)
	var old [][]string // values before, to undo a maxclients the system cannot take
	for i := 2; i < args.Len(); i += 2 {
		pairs = append(pairs, [2]string{string(args.Arg(i)), string(args.Arg(i + 1))})
		if strings.EqualFold(pairs[len(pairs)-1][0], "maxclients") {
			old = currentValues(ctx, pairs)
		}
	}
	var err error
	if isLocal(ctx) {
		err = cfg.SetLocal(pairs...)
	} else {
		err = cfg.Set(pairs...)
	}
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if old != nil {
		// updateMaxclients: the descriptor limit must allow the new maxclients, else every
		// value of the command is put back.
		if why := f.h.MaxClientsRefusal(int64(cfg.MaxClients())); why != "" {
			_ = cfg.Load(old)
			ctx.W.Error("ERR CONFIG SET failed (possibly related to argument 'maxclients') - " + why)
			return
		}
	}
	ctx.W.OK()
}

// currentValues returns the current values of the parameters named in pairs, as directives
// that Load can apply again.
func currentValues(ctx *command.Ctx, pairs [][2]string) [][]string {
	out := make([][]string, 0, len(pairs))
	for _, p := range pairs {
		if v, ok := ctx.Cfg.Value(p[0]); ok {
			out = append(out, []string{p[0], v})
		}
	}
	return out
}

func (f family) configResetStatCommand(ctx *command.Ctx) {
	f.h.ResetStats()
	ctx.W.OK()
}

// configRewriteCommand: CONFIG REWRITE writes the running configuration back to the file
// the server was started with (config.Rewrite has the rules).
func (f family) configRewriteCommand(ctx *command.Ctx) {
	file := f.h.ConfigFile()
	if file == "" {
		ctx.W.Error("ERR The server is running without a config file")
		return
	}
	if err := ctx.Cfg.Rewrite(file, f.h.ACLUserLines()); err != nil {
		f.h.Log().Warn("CONFIG REWRITE failed: " + err.Error())
		ctx.W.Error("ERR Rewriting config file: " + logging.Strerror(err))
		return
	}
	f.h.Log().Info("CONFIG REWRITE executed with success.", zap.String("file", file))
	ctx.W.OK()
}

func configHelpCommand(ctx *command.Ctx) {
	command.ReplyHelp(ctx.W, "CONFIG", []string{
		"GET <pattern>", "    Return parameters matching the glob-like <pattern> and their values.",
		"SET <directive> <value>", "    Set the configuration <directive> to <value>.",
		"RESETSTAT", "    Reset statistics reported by the INFO command.",
		"REWRITE", "    Rewrite the configuration file.",
	})
}
