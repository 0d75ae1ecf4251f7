package scriptfamily

import (
	"sync"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/scripting"
)

// Errors of numkeys (EVAL's and FCALL's), Redis's words.
const (
	errNumKeysTooMany  replyerr.Error = "ERR Number of keys can't be greater than number of args"
	errNumKeysNegative replyerr.Error = "ERR Number of keys can't be negative"
)

// numKeys reads the numkeys argument at index 2 of a script's command line (EVAL script
// numkeys key… arg…, FCALL function numkeys …): ok false for a malformed one, with Redis's
// error as errText ("" while only locking, which ignores it).
func numKeys(ctx *command.Ctx) (n int, errText string) {
	v, ok := conv.String2ll(ctx.Args.Arg(2))
	switch {
	case !ok:
		return 0, replyerr.NotInteger.Error()
	case v > int64(ctx.Args.Len()-3):
		return 0, errNumKeysTooMany.Error()
	case v < 0:
		return 0, errNumKeysNegative.Error()
	}
	return int(v), ""
}

// KeysArgs returns the keys and the other arguments of a script's command line (after
// numkeys), or writes Redis's numkeys error and returns ok false. The slices point into the
// command line: valid while the handler runs.
func KeysArgs(ctx *command.Ctx) (keys, argv [][]byte, ok bool) {
	n, errText := numKeys(ctx)
	if errText != "" {
		ctx.W.Error(errText)
		return nil, nil, false
	}
	all := make([][]byte, ctx.Args.Len()-3)
	for i := range all {
		all[i] = ctx.Args.Arg(3 + i)
	}
	return all[:n:n], all[n:], true
}

// run runs a script or a function for the command ctx runs — EVAL, EVALSHA, their _RO forms,
// FCALL, FCALL_RO — with keys and argv (KeysArgs): exec runs the engine once with the Caller
// and RunOpts it is given, writing the result to ctx.W (Engine.Run or Engine.CallFunction). It
// may be called twice when the first run is aborted to be run again holding every shard
// (command.Scripts.Run). refuseOOM: the script declared flags that let it write without
// allow-oom, so it is refused over maxmemory. It reports whether the run touched keys it did
// not declare: the caller remembers the script so that its later runs lock every shard
// (ScriptShards' lockAll).
func (f *Family) run(ctx *command.Ctx, keys, argv [][]byte, o command.ScriptOptions, refuseOOM bool,
	exec func(c scripting.Caller, opts scripting.RunOpts)) (undeclared bool) {
	o.Keys = keys
	return f.Scripts.Run(ctx, o, refuseOOM, func(r *command.ScriptRun) {
		exec(r, scripting.RunOpts{Keys: keys, Argv: argv, Proto: ctx.W.Proto(), Ctx: r.Context()})
	})
}

// scriptShards is the Shards of a script's row (LockFunc): the declared keys' shards (after
// numkeys), or every shard when lockAll says the script is not vetted (vettedSet), or inside
// MULTI (command.ScriptShards). A malformed numkeys declares nothing: the handler
// answers the error.
func scriptShards(ctx *command.Ctx, dst []int, lockAll bool) []int {
	n, errText := numKeys(ctx)
	if errText != "" {
		n = 0
	}
	return command.ScriptShards(ctx, dst, 3, n, lockAll)
}

// vettedSet remembers, by name (a script's SHA, a function's name), the scripts whose last run
// touched only their declared keys' shards: their runs lock those shards only. Any other script
// — new, or known to touch keys it does not declare (BullMQ builds its job keys inside its
// scripts) — locks every shard, so that a key it did not declare never finds its shard held by
// another client after the script has written (command/script.go). A script is vetted by its
// first run, which holds every shard; a vetted script that strays is unvetted by that run.
type vettedSet struct {
	mu sync.RWMutex
	m  map[string]struct{}
}

// has reports whether name is vetted; name is lower-cased first (SHAs arrive in any case).
func (v *vettedSet) has(name []byte) bool {
	var buf [64]byte
	key := buf[:0]
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		key = append(key, c)
	}
	v.mu.RLock()
	_, ok := v.m[string(key)]
	v.mu.RUnlock()
	return ok
}

// note records a run of name (lower case): vetted unless it touched undeclared keys.
func (v *vettedSet) note(name string, undeclared bool) {
	v.mu.RLock()
	_, ok := v.m[name]
	v.mu.RUnlock()
	if ok != undeclared {
		return // vetted and still clean, or unvetted and still straying: nothing changes
	}
	v.mu.Lock()
	if undeclared {
		delete(v.m, name)
	} else {
		if v.m == nil {
			v.m = make(map[string]struct{})
		}
		v.m[name] = struct{}{}
	}
	v.mu.Unlock()
}

// reset forgets every name (SCRIPT FLUSH; any change of the function libraries, which may give
// a name another body).
func (v *vettedSet) reset() {
	v.mu.Lock()
	v.m = nil
	v.mu.Unlock()
}
