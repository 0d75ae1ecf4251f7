//go:build invariants || race

package keyspace

// invariantsOn compiles in the keyspace's cheap self-checks (a record's TTL entry must exist
// when it leaves; a replacing record must carry the key it replaces). Built with the
// invariants tag or -race, like alloc's.
const invariantsOn = true
