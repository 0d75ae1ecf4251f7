//go:build invariants

package persist

// invariantsBuild: the type packages check themselves after every write (hashval's Check walks
// the whole hash), so tests of big values use fewer, larger elements.
const invariantsBuild = true
