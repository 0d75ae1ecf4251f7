// Package persistfamily is SAVE, BGSAVE and LASTSAVE: the commands that write the snapshot file
// (package persist does the work). None of them touches keys through the pipeline: a save walks
// the shards itself, a few records per lock, so nothing is locked for them.
package persistfamily

import (
	"errors"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/persist"
	"github.com/kvserver/kvserver/replyerr"
)

// Commands returns the family's rows, fresh on each call; p runs the saves.
func Commands(p *persist.Persister) []*command.Command {
	f := family{p}
	return []*command.Command{
		{Name: "save", Locking: command.LockNone, Handler: f.saveCommand},
		{Name: "bgsave", Locking: command.LockNone, Handler: f.bgsaveCommand},
		{Name: "lastsave", Locking: command.LockNone, Handler: f.lastsaveCommand},
	}
}

type family struct{ p *persist.Persister }

// saveCommand: SAVE — a snapshot written before the reply. Other clients go on meanwhile (it
// is a point-in-time snapshot, not Redis's blocked server); a failure answers Redis's bare
// -ERR, and the log says why.
func (f family) saveCommand(ctx *command.Ctx) {
	err := f.p.Save()
	switch {
	case err == nil:
		ctx.W.OK()
	case errors.Is(err, persist.ErrSaveInProgress):
		ctx.W.Error(err.Error())
	default:
		ctx.W.Error("ERR")
	}
}

// bgsaveCommand: BGSAVE [SCHEDULE]. With no append-only file SCHEDULE changes nothing (Redis
// schedules a BGSAVE only behind an AOF rewrite): while a save runs both answer the error.
func (f family) bgsaveCommand(ctx *command.Ctx) {
	if ctx.Args.Len() > 1 && (ctx.Args.Len() > 2 || !conv.EqFold(ctx.Args.Arg(1), "schedule")) {
		ctx.W.Error(replyerr.Syntax.Error())
		return
	}
	status, err := f.p.BGSave()
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Simple(status)
}

// lastsaveCommand: LASTSAVE — the unix time of the last successful save.
func (f family) lastsaveCommand(ctx *command.Ctx) { ctx.W.Int(f.p.LastSave()) }
