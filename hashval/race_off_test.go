//go:build !race

package hashval

// raceOn: the race detector is off.
const raceOn = false
