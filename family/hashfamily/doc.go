// Package hashfamily is Redis's @hash commands (t_hash.c) on the command pipeline: HSET HSETNX
// HMSET HGET HMGET HDEL HLEN HSTRLEN HEXISTS HKEYS HVALS HGETALL HINCRBY HINCRBYFLOAT
// HRANDFIELD HSCAN, with Redis 7.2's replies, error texts and keyspace events (class h:
// hset, hdel, hincrby, hincrbyfloat; del when HDEL empties a hash).
//
// The hash itself is package hashval's (encodings, conversions, random picks, scans); this
// package looks keys up, checks their type, keeps the keyspace told (a new key is inserted, an
// in-place change is reported with UpdateLocked, an emptied hash deletes its key) and writes
// the replies. Every row locks its key's shard (command.LockKeys), so a handler finds it held.
//
// As in package stringfamily, operations (op…) are apart from the handlers: they take the
// context, the shard and the parsed arguments, and return a value or an error from errors.go
// or replyerr. Views of fields and values are valid under the shard's lock, until the hash
// changes; replies copy them.
//
// Files: commands.go (the rows), errors.go, lookup.go (lookups with the type check, the
// create-on-write and the end of a write), write.go (HSET HMSET HSETNX HDEL), read.go (HGET
// HMGET HLEN HSTRLEN HEXISTS HKEYS HVALS HGETALL), incr.go (HINCRBY HINCRBYFLOAT), random.go
// (HRANDFIELD), scan.go (HSCAN).
package hashfamily
