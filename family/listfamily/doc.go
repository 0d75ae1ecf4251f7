// Package listfamily is Redis's @list commands (t_list.c) on the command pipeline: LPUSH
// RPUSH LPUSHX RPUSHX LINSERT LSET LPOP RPOP LMPOP LLEN LRANGE LINDEX LPOS LREM LTRIM LMOVE
// RPOPLPUSH, and the blocking BLPOP BRPOP BLMPOP BLMOVE BRPOPLPUSH, with Redis 7.2's replies,
// error texts and keyspace events (class l: lpush, rpush, linsert, lset, lpop, rpop, lrem,
// ltrim; del when a list is emptied; LMOVE raises the destination's push before the source's
// pop, as lmoveGenericCommand does).
//
// The list itself is package listval's (encodings and their conversions); this package looks
// keys up, checks their type, keeps the keyspace told (a new key is inserted, an in-place
// change is reported with UpdateLocked, an emptied list deletes its key) and writes the
// replies. Every row locks its keys' shards (command.LockKeys); LMOVE's destination may be in
// another shard, and is made in that shard's arena.
//
// Blocking commands serve at once, exactly as their non-blocking forms, when a key has
// elements; otherwise they call ctx.Block (command/blocking.go) and write nothing — the
// pipeline re-runs them when a key becomes a list — or, where they cannot block (MULTI), the
// Block call answers the timeout reply.
//
// Files: commands.go (the rows), errors.go, lookup.go (lookups with the type check, the
// create-on-write, the end of a removal), push.go (LPUSH RPUSH LPUSHX RPUSHX LINSERT LSET),
// pop.go (LPOP RPOP LMPOP BLPOP BRPOP BLMPOP), read.go (LLEN LRANGE LINDEX LPOS), remove.go
// (LREM LTRIM), move.go (LMOVE RPOPLPUSH BLMOVE BRPOPLPUSH).
package listfamily
