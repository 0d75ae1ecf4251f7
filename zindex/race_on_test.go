//go:build race

package zindex

// raceEnabled: the race detector runs the tests ten times slower, so they check the whole
// index now and then rather than after every step (zindex has no goroutines of its own).
const raceEnabled = true
