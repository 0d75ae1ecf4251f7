//go:build !invariants

package command

// crashOnPanic: outside invariants builds a handler's panic is recovered by the pipeline.
const crashOnPanic = false

// checkLocked is a no-op outside invariants builds.
func (*Ctx) checkLocked(int) {}
