// Package scriptfamily is the scripting family: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT
// (and, in function*.go and fcall.go, FUNCTION and FCALL). Scripts are compiled, cached and run
// by package scripting; the pipeline's side of a run — redis.call's checks and commands, the
// locks, BUSY, SCRIPT KILL, frozen time — is command.Scripts (command/script.go). The handlers
// here parse the arguments, find the script and run it through run (run.go), which FCALL
// shares.
package scriptfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/funclib"
	"github.com/kvserver/kvserver/scripting"
)

// Family holds what the handlers reach: the Lua engine (with its script cache), the
// pipeline's scripts state and the function libraries. The server makes one
// (server/scripting.go) and sets Functions (server/functions.go).
type Family struct {
	Engine    *scripting.Engine
	Scripts   *command.Scripts
	Functions *funclib.Registry

	// vettedScripts and vettedFunctions are the scripts and functions whose runs lock their
	// declared keys' shards only (run.go).
	vettedScripts, vettedFunctions vettedSet
	fcalls                         fcallRuns // the FCALLs in progress, for FUNCTION STATS (fcall.go)
}

// New returns the family over engine e and the scripts' state s.
func New(e *scripting.Engine, s *command.Scripts) *Family {
	return &Family{Engine: e, Scripts: s}
}

// Commands returns the family's rows, fresh on each call (command.New finishes them in place).
// Arity, flags and key positions come from Redis 7.2's metadata. The scripts' rows lock the
// shards of their declared keys, or every shard (ScriptShards); none is Inline, so a script
// never runs on a readiness loop, where a busy one would stall the loop's other clients.
func (f *Family) Commands() []*command.Command {
	none := command.LockNone
	return []*command.Command{
		{Name: "eval", Locking: command.LockFunc, Shards: f.evalShards(false), Handler: f.evalCommand},
		{Name: "evalsha", Locking: command.LockFunc, Shards: f.evalShards(true), Handler: f.evalShaCommand},
		{Name: "eval_ro", Locking: command.LockFunc, Shards: f.evalShards(false), Handler: f.evalRoCommand},
		{Name: "evalsha_ro", Locking: command.LockFunc, Shards: f.evalShards(true), Handler: f.evalShaRoCommand},
		{Name: "fcall", Locking: command.LockFunc, Shards: f.fcallShards, Handler: f.fcallCommand},
		{Name: "fcall_ro", Locking: command.LockFunc, Shards: f.fcallShards, Handler: f.fcallRoCommand},
		f.functionCommand(),
		{Name: "script", Subcommands: []*command.Command{
			{Name: "load", Locking: none, Handler: f.scriptLoadCommand},
			{Name: "exists", Locking: none, Handler: f.scriptExistsCommand},
			{Name: "flush", Locking: none, Handler: f.scriptFlushCommand},
			{Name: "kill", Locking: none, Handler: f.scriptKillCommand},
			{Name: "debug", Locking: none, Handler: scriptDebugCommand},
			{Name: "help", Locking: none, Handler: scriptHelpCommand},
		}},
	}
}
