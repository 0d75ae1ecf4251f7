//go:build race

package hashval

// raceOn: the race detector is on (tests skip the million-field measurement, 20 times slower).
const raceOn = true
