//go:build invariants

package command

// crashOnPanic: in invariants builds a handler's panic ends the process at once (see crash).
const crashOnPanic = true

// checkShards: Ctx.Shard hashes every key to check that its shard is held (invariants builds).
const checkShards = true

// checkLocked panics when a handler reaches a shard the pipeline did not lock for it: its row's
// key positions or Shards function miss a key.
func (ctx *Ctx) checkLocked(i int) {
	for _, j := range ctx.locked {
		if j == i {
			return
		}
	}
	panic("command: " + ctx.Cmd.FullName + " reached a shard the pipeline did not lock")
}
