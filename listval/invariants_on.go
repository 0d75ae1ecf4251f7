//go:build invariants

package listval

// invariantsOn makes every write check the whole list afterwards (Check): O(size) per write,
// for tests only.
const invariantsOn = true
