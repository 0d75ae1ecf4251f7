//go:build race

package keyspace

// raceEnabled shrinks the biggest tests under the race detector, which runs them ten times
// slower.
const raceEnabled = true
