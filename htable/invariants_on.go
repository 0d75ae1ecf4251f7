//go:build invariants || race

package htable

// invariantsOn compiles in the table's cheap self-checks. Built with the invariants tag or
// -race, like alloc's and keyspace's.
const invariantsOn = true
