// Package zsetfamily is Redis's @sortedset commands (t_zset.c) on the command pipeline: ZADD
// ZINCRBY ZREM ZCARD ZCOUNT ZLEXCOUNT ZSCORE ZMSCORE ZRANK ZREVRANK, the ZRANGE family (ZRANGE
// ZRANGESTORE ZREVRANGE Z[REV]RANGEBYSCORE Z[REV]RANGEBYLEX), ZREMRANGEBYRANK/SCORE/LEX,
// ZPOPMIN ZPOPMAX ZMPOP and the blocking BZPOPMIN BZPOPMAX BZMPOP, ZRANDMEMBER, the algebra
// (ZUNION ZINTER ZDIFF, their STORE forms, ZINTERCARD) and ZSCAN, with Redis 7.2's replies
// (doubles in the shortest round-trip form; RESP3 doubles and [member, score] pairs), error
// texts and keyspace events (class z: zadd, zincr, zrem, zremrangebyrank/score/lex,
// zpopmin/zpopmax, zunionstore/zinterstore/zdiffstore/zrangestore; `del` when a set is emptied
// or a STORE's result is empty; `new` when a key is made).
//
// The sorted set itself is package zsetval's (listpack and skiplist encodings, conversions,
// range parsing); this package parses the command lines, looks keys up, keeps the keyspace
// told (a new key is inserted, an in-place change reported with UpdateLocked, an emptied set
// deletes its key) and writes the replies. Every row locks its keys' shards; a STORE's
// destination may be in another shard than its sources, and its result is built in the
// destination's arena. The algebra's intermediate results live on the Go heap for the one
// command.
//
// Blocking commands serve at once when a key holds a sorted set, exactly as ZPOPMIN or ZMPOP;
// otherwise they call ctx.Block (command/blocking.go) and write nothing — the pipeline runs
// them again when a key becomes a sorted set — or, where they cannot block (MULTI), the Block
// call answers the null array.
//
// Files: commands.go (the rows), errors.go, args.go (the option grammars), lookup.go (lookups,
// the end of a removal, a STORE's result), write.go (ZADD ZINCRBY ZREM ZREMRANGEBY*), read.go
// (ZCARD ZCOUNT ZLEXCOUNT ZSCORE ZMSCORE ZRANK ZREVRANK), range.go (the ZRANGE family), pop.go
// (ZPOPMIN ZPOPMAX ZMPOP and the blocking pops), random.go (ZRANDMEMBER), algebra.go (ZUNION
// ZINTER ZDIFF ZINTERCARD and the STORE forms), scan.go (ZSCAN).
package zsetfamily
