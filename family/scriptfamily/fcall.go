package scriptfamily

import (
	"strings"
	"sync"
	"sync/atomic"
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

// fcallShards is the Shards of the FCALL rows: its declared keys' shards for a vetted function
// (vettedSet), else every shard.
func (f *Family) fcallShards(ctx *command.Ctx, dst []int) []int {
	return scriptShards(ctx, dst, !f.vettedFunctions.has(ctx.Args.Arg(1)))
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
	f.vettedFunctions.note(strings.ToLower(fn.Name), undeclared)
}

// fcallStripes is the number of locks the FCALLs in progress are spread over: FCALLs on many
// cores take different ones (as command.Scripts' registry of runs); FUNCTION STATS takes all.
const fcallStripes = 16

// fcallRuns are the FCALLs in progress, for FUNCTION STATS's running_script. Kept by value
// and found by id, so that recording a run allocates nothing.
type fcallRuns struct {
	next    atomic.Uint64
	stripes [fcallStripes]struct {
		mu   sync.Mutex
		runs []fcallRun // in the order they started
		_    [32]byte   // apart from the next stripe's lock
	}
}

// fcallRun is one FCALL in progress: its args are the command line, valid until the run ends
// (its entry is removed first), and read under its stripe's lock only.
type fcallRun struct {
	id    uint64
	name  string
	args  querybuf.Args
	start time.Time
}

// begin records an FCALL of function name starting and returns its id for end.
func (fr *fcallRuns) begin(name string, args querybuf.Args) uint64 {
	id := fr.next.Add(1)
	st := &fr.stripes[id%fcallStripes]
	start := time.Now()
	st.mu.Lock()
	st.runs = append(st.runs, fcallRun{id: id, name: name, args: args, start: start})
	st.mu.Unlock()
	return id
}

// end removes the run id.
func (fr *fcallRuns) end(id uint64) {
	st := &fr.stripes[id%fcallStripes]
	st.mu.Lock()
	for i := range st.runs {
		if st.runs[i].id == id {
			n := copy(st.runs[i:], st.runs[i+1:])
			st.runs[i+n] = fcallRun{} // no reference to an ended command line
			st.runs = st.runs[:i+n]
			break
		}
	}
	st.mu.Unlock()
}

// oldest calls fn with the FCALL in progress that started first, every stripe locked (its args
// are valid meanwhile); it reports whether there was one.
func (fr *fcallRuns) oldest(fn func(r *fcallRun)) bool {
	for i := range fr.stripes {
		fr.stripes[i].mu.Lock()
		defer fr.stripes[i].mu.Unlock()
	}
	var first *fcallRun
	for i := range fr.stripes {
		if runs := fr.stripes[i].runs; len(runs) > 0 && (first == nil || runs[0].start.Before(first.start)) {
			first = &runs[0]
		}
	}
	if first == nil {
		return false
	}
	fn(first)
	return true
}
