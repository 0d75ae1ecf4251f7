// Package setfamily is Redis's @set commands (t_set.c of Redis 7.2) on the command pipeline:
// SADD SREM SCARD SISMEMBER SMISMEMBER SMEMBERS SPOP SRANDMEMBER SMOVE SINTER SINTERCARD
// SINTERSTORE SUNION SUNIONSTORE SDIFF SDIFFSTORE SSCAN, with Redis 7.2's replies, error texts,
// keyspace events (class NotifySet) and encodings (package setval).
//
// Every row locks its keys' shards (command.LockKeys, from Redis's key specs): SMOVE and the
// *STORE commands hold the destination's shard too, which may not be a source's, so a
// destination is always built in its own shard's arena, and the sources are read each in its
// own. A set is only ever changed after a lookup for write (ctx.LookupWrite), and its record
// stays in place: UpdateLocked(h, h) counts the change and touches WATCH. An emptied set
// deletes its key (with a `del` event).
//
// Files: commands.go (the rows), errors.go, lookup.go (typed lookups), basic.go (SADD SREM
// SCARD SISMEMBER SMISMEMBER SMEMBERS), random.go (SPOP SRANDMEMBER), smove.go, algebra.go
// (SINTER SINTERCARD SINTERSTORE SUNION SUNIONSTORE SDIFF SDIFFSTORE), sscan.go.
package setfamily
