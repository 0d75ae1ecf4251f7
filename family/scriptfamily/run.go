package scriptfamily

import (
	"sync"
	"sync/atomic"

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
	return f.Scripts.Run(ctx, o, refuseOOM, func(r *command.ScriptRun) {
		exec(r, scripting.RunOpts{Keys: keys, Argv: argv, Proto: ctx.W.Proto(), Ctx: r.Context()})
	})
}

// scriptShards is the Shards of a script's row (LockFunc): the declared keys' shards (after
// numkeys), or every shard when lockAll says the script touches keys it does not declare, or
// inside MULTI (command.ScriptShards). A malformed numkeys declares nothing: the handler
// answers the error.
func scriptShards(ctx *command.Ctx, dst []int, lockAll bool) []int {
	n, errText := numKeys(ctx)
	if errText != "" {
		n = 0
	}
	return command.ScriptShards(ctx, dst, 3, n, lockAll)
}

// undeclaredSet remembers, by name (a script's SHA, a function's name), the scripts that
// touched keys they did not declare. Looked up on every run of a script before its locks: an
// atomic count makes the lookup free while the set is empty, the common case.
type undeclaredSet struct {
	n  atomic.Int32
	mu sync.RWMutex
	m  map[string]struct{}
}

// has reports whether name is remembered; name is lower-cased first (SHAs arrive in any case).
func (u *undeclaredSet) has(name []byte) bool {
	if u.n.Load() == 0 {
		return false
	}
	var buf [64]byte
	key := buf[:0]
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		key = append(key, c)
	}
	u.mu.RLock()
	_, ok := u.m[string(key)]
	u.mu.RUnlock()
	return ok
}

// add remembers name (lower case).
func (u *undeclaredSet) add(name string) {
	u.mu.Lock()
	if u.m == nil {
		u.m = make(map[string]struct{})
	}
	if _, ok := u.m[name]; !ok {
		u.m[name] = struct{}{}
		u.n.Add(1)
	}
	u.mu.Unlock()
}

// reset forgets every name (SCRIPT FLUSH).
func (u *undeclaredSet) reset() {
	u.mu.Lock()
	u.m = nil
	u.n.Store(0)
	u.mu.Unlock()
}
