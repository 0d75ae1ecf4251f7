package scriptfamily

import (
	"strings"
	"sync"
	"time"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/funclib"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/scripting"
)

// errBadNumKeys is FCALL's reply to a numkeys that is not an integer (EVAL answers
// replyerr.NotInteger).
const errBadNumKeys replyerr.Error = "ERR Bad number of keys provided"

// fcallCommand: FCALL function numkeys [key ...] [arg ...].
func (f *Family) fcallCommand(ctx *command.Ctx) { f.fcallGenericCommand(ctx, false) }

// fcallRoCommand: FCALL_RO function numkeys [key ...] [arg ...] — a function that may write
// is refused, and so are write commands.
func (f *Family) fcallRoCommand(ctx *command.Ctx) { f.fcallGenericCommand(ctx, true) }

// fcallShards is the Shards of the FCALL rows: every shard for a function known to touch keys
// it does not declare, else its declared keys' shards.
func (f *Family) fcallShards(ctx *command.Ctx, dst []int) []int {
	lockAll := f.undeclared.n.Load() != 0 && f.undeclared.has(ctx.Args.Arg(1))
	return scriptShards(ctx, dst, lockAll)
}

// fcallGenericCommand is Redis's fcallCommandGeneric: the function (by name, without case),
// then numkeys, then the checks of the function's flags — a function always has flags, as a
// script with a shebang — and the run.
func (f *Family) fcallGenericCommand(ctx *command.Ctx, ro bool) {
	fn := f.Functions.Lookup(ctx.Args.Arg(1))
	if fn == nil {
		ctx.W.Error(funclib.ErrFunctionNotFound.Error())
		return
	}
	if _, ok := conv.String2ll(ctx.Args.Arg(2)); !ok {
		ctx.W.Error(errBadNumKeys.Error())
		return
	}
	keys, argv, ok := KeysArgs(ctx)
	if !ok {
		return
	}
	o, refuseOOM, errText := scriptOptions(fn.Flags, true, ro)
	if errText != "" {
		ctx.W.Error(errText)
		return
	}
	o.Function, o.Name = true, fn.Name
	defer f.fcalls.end(f.fcalls.begin(fn.Name, ctx.Args))
	undeclared := f.run(ctx, keys, argv, o, refuseOOM, func(c scripting.Caller, opts scripting.RunOpts) {
		f.Engine.CallFunction(fn, c, opts, ctx.W)
	})
	if undeclared {
		f.undeclared.add(strings.ToLower(fn.Name))
	}
}

// fcallRuns are the FCALLs in progress, for FUNCTION STATS's running_script. Kept by value
// and found by id, so that recording a run allocates nothing.
type fcallRuns struct {
	mu   sync.Mutex
	next uint64
	runs []fcallRun // in the order they started
}

// fcallRun is one FCALL in progress: its args are the command line, valid until the run ends
// (its entry is removed first), and read under fcallRuns.mu only.
type fcallRun struct {
	id    uint64
	name  string
	args  querybuf.Args
	start time.Time
}

// begin records an FCALL of function name starting and returns its id for end.
func (fr *fcallRuns) begin(name string, args querybuf.Args) uint64 {
	start := time.Now()
	fr.mu.Lock()
	fr.next++
	id := fr.next
	fr.runs = append(fr.runs, fcallRun{id: id, name: name, args: args, start: start})
	fr.mu.Unlock()
	return id
}

// end removes the run id.
func (fr *fcallRuns) end(id uint64) {
	fr.mu.Lock()
	for i := range fr.runs {
		if fr.runs[i].id == id {
			n := copy(fr.runs[i:], fr.runs[i+1:])
			fr.runs[i+n] = fcallRun{} // no reference to an ended command line
			fr.runs = fr.runs[:i+n]
			break
		}
	}
	fr.mu.Unlock()
}

// oldest calls fn with the FCALL in progress that started first, under the lock (its args
// are valid meanwhile); it reports whether there was one.
func (fr *fcallRuns) oldest(fn func(r *fcallRun)) bool {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if len(fr.runs) == 0 {
		return false
	}
	fn(&fr.runs[0])
	return true
}
