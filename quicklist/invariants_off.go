//go:build !invariants

package quicklist

// invariantsOn is off: writes do not check the list.
const invariantsOn = false
