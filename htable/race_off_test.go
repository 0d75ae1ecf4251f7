//go:build !race

package htable

const raceEnabled = false
