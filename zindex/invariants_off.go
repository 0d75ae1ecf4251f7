//go:build !invariants && !race

package zindex

// invariantsOn is false: the self-checks of the invariants build tag compile to nothing.
const invariantsOn = false
