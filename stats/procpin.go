package stats

import _ "unsafe" // go:linkname

// procPin pins the goroutine to its P and returns the P's id; procUnpin ends it. While pinned
// the goroutine cannot be preempted or moved, so the stripe of its P is its own: counters are
// written with a plain load and store rather than a locked add (sync.Pool does the same).
// Nothing that may block runs while pinned.
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()
