//go:build race

package listval

// raceOn: the race detector is on (tests skip the million-element measurement).
const raceOn = true
