//go:build !race

package zindex

const raceEnabled = false
