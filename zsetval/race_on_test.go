//go:build race

package zsetval

// raceOn skips the million-member measurements under -race (slow, and the figures would be
// the race detector's).
const raceOn = true
