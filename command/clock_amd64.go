package command

// hasRDTSC: the time-stamp counter can be read (clock.go says when it is used).
const hasRDTSC = true

// rdtsc reads the time-stamp counter (clock_amd64.s).
func rdtsc() int64
