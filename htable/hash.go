package htable

import "hash/maphash"

// hashSeed is the process's one seed: a key hashes the same in every table for the life of the
// process, and differently in the next one (hash flooding needs the seed).
var hashSeed = maphash.MakeSeed()

// Hash is the 64-bit hash of a key that tables use. A table takes its bucket index from bits
// 0..31 (it never has more than 2^29 buckets) and an entry's 8-bit tag from bits 56..63; bits
// 32..55 are left to the owner (the keyspace takes its shard index from bits 32..47), so no two
// uses depend on each other.
func Hash(key []byte) uint64 { return maphash.Bytes(hashSeed, key) }

// Tag is the 8-bit tag a bucket keeps for an entry of hash h: a lookup compares key bytes only
// where the tag matches, which is once in 256 for another key.
func Tag(h uint64) uint8 { return uint8(h >> 56) }
