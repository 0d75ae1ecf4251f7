//go:build invariants || race

package zindex

// invariantsOn compiles in the index's cheap self-checks (Append's order); the tests also run
// Check after every operation. Built with the invariants tag or -race, like htable's.
const invariantsOn = true
