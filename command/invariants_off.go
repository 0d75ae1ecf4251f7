//go:build !invariants

package command

// crashOnPanic: outside invariants builds a handler's panic is recovered by the pipeline.
const crashOnPanic = false

// checkShards: Ctx.Shard hashes every key to check that its shard is held (off outside invariants builds).
const checkShards = false

// checkLocked is a no-op outside invariants builds.
func (*Ctx) checkLocked(int) {}
