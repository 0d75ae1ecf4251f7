//go:build !invariants

package listval

const invariantsOn = false
