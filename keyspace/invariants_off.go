//go:build !invariants && !race

package keyspace

// invariantsOn is false: the self-checks of the invariants build tag compile to nothing.
const invariantsOn = false
