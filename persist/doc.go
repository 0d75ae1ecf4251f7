// Package persist saves the keyspace as Redis's RDB file and loads it back: SAVE, BGSAVE, the
// save points, the snapshot a shutdown writes, and loading at start-up (DESIGN §7).
//
// A save is a point-in-time snapshot without fork (package keyspace, snapshot.go): every shard
// starts it at one instant under all locks, then walker goroutines — one per core — encode each
// shard's records a few hundred at a time, releasing the shard's lock between steps, while a
// write that reaches a record before its walker has it writes the record first. One writer
// goroutine puts the walkers' chunks into the file in arrival order, through the CRC-64, to a
// temporary file that is synced and renamed over dbfilename only when whole (Redis's
// rdbSave). The chunks of different shards interleave: each starts with its database's SELECTDB,
// which Redis's loader accepts anywhere.
//
// Hashes and sets are written in Redis 7.2's types: a listpack or intset as its bytes, a hash
// table as its elements (values.go). A hash table is encoded whole in one step, under its
// shard's lock: a hash of a million fields holds that lock for the time it takes (about 0.6 s
// here with rdbcompression on, half of it LZF on each value), where Redis's forked child blocks
// nothing. A list is written as Redis 7.2's type 18, node by node (lists.go): a
// listpack-encoded list as one packed node, a quicklist's nodes as they are, plain ones included.
// A sorted set is written as Redis 7.2 does (zsets.go): a listpack as type 17, a skiplist as type
// 5, its pairs from the highest score down, encoded whole under its shard's lock like a hash table.
// The function libraries (Persister.Functions, functions.go) are written before the databases,
// as Redis writes them (opcode 245), with their codes as of the snapshot's start; a load
// creates them again, and one that fails fails the load.
//
// Loading decodes the file in one goroutine and inserts in several, each owning a fixed subset
// of the shards, so that no two inserters share a lock. A value stored as elements streams
// through: its elements (a list's nodes) go to the inserter in batches like any key, and the
// inserter builds the record in the arena across batches — no Go value per element. A file that cannot be loaded whole — a
// corrupt or truncated one, a bad checksum, a type kvserver does not have — is an error: the
// server stops rather than serve part of a dataset.
package persist
