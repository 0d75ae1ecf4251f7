package keyspace

import "github.com/kvserver/kvserver/htable"

// Hash is the 64-bit hash of a key that every part of the keyspace uses (htable.Hash: one seed
// per process). Its bits are split so that no two uses depend on each other:
//
//	bits  0..31  bucket index in a table (a table never has more than 2^29 buckets)
//	bits 32..47  shard index (ShardFor; at most MaxShards shards)
//	bits 56..63  the bucket's 8-bit tag for the entry
func Hash(key []byte) uint64 { return htable.Hash(key) }

// shardShift is where ShardFor takes a key's shard index from its hash (bits 32 and up).
const shardShift = 32
