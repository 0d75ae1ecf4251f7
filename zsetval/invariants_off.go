//go:build !invariants

package zsetval

// invariantsOn is off outside invariants builds: writes do not check the set.
const invariantsOn = false
