//go:build !invariants && !race

package htable

// invariantsOn is false: the self-checks of the invariants build tag compile to nothing.
const invariantsOn = false
