//go:build invariants

package zsetval

// invariantsOn makes every write check the whole set afterwards (Check): O(size) per write,
// for tests only.
const invariantsOn = true
