//go:build race

package htable

// raceEnabled shrinks the biggest tests under the race detector, which runs them ten times
// slower.
const raceEnabled = true
