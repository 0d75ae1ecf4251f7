//go:build !amd64

package command

// hasRDTSC: no time-stamp counter reader on this architecture; Ticks is Nanotime.
const hasRDTSC = false

func rdtsc() int64 { return 0 }
