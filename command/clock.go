package command

import _ "unsafe" // go:linkname

// Nanotime is the runtime's monotonic clock in nanoseconds (runtime.nanotime): what the
// pipeline times commands with. It costs about half of time.Now, which reads the wall clock
// too; only differences between two readings mean anything.
//
//go:linkname Nanotime runtime.nanotime
func Nanotime() int64
