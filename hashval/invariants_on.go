//go:build invariants

package hashval

// invariantsOn makes every write check the whole hash afterwards (Check): O(size) per write,
// for tests only.
const invariantsOn = true
