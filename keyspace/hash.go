package keyspace

import "hash/maphash"

// hashSeed is the process's one seed: a key hashes the same in every shard and table for the
// life of the process, and differently in the next one (hash flooding needs the seed).
var hashSeed = maphash.MakeSeed()

// Hash is the 64-bit hash of a key that every part of the keyspace uses. Its bits are split so
// that no two uses depend on each other:
//
//	bits  0..31  bucket index in a table (a table never has more than 2^29 buckets)
//	bits 32..47  shard index (ShardFor; at most MaxShards shards)
//	bits 56..63  the bucket's 8-bit tag for the entry
func Hash(key []byte) uint64 { return maphash.Bytes(hashSeed, key) }

// tagOf is the 8-bit tag a bucket keeps for an entry of hash h: a lookup compares key bytes
// only where the tag matches, which is once in 256 for another key.
func tagOf(h uint64) uint8 { return uint8(h >> 56) }

// shardShift is where ShardFor takes a key's shard index from its hash (bits 32 and up).
const shardShift = 32
