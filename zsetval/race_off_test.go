//go:build !race

package zsetval

const raceOn = false
