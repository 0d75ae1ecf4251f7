//go:build !invariants

package persist

// invariantsBuild: see invariants_on_test.go.
const invariantsBuild = false
