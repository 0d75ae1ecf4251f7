//go:build !race

package listval

const raceOn = false
