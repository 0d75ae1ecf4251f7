// Package keyfamily is the keyspace family of commands (Redis's "generic" group): DEL, UNLINK,
// EXISTS, TOUCH, TYPE, RENAME, RENAMENX, COPY, MOVE, SWAPDB, RANDOMKEY, DBSIZE, FLUSHDB,
// FLUSHALL, KEYS, SCAN, the expire commands (EXPIRE … PERSIST, TTL … PEXPIRETIME) and OBJECT.
// (MEMORY is in family/debugfamily, with DEBUG.)
//
// Commands lists the rows; the command pipeline runs them. Each row declares which shards the
// pipeline locks for it (command.Locking): one shard per key for the commands on keys (a key's
// shard is the same in every database, so COPY … DB and MOVE need no more), every shard for the
// commands that must see the whole keyspace at one instant (FLUSHALL, FLUSHDB, SWAPDB, KEYS),
// none for DBSIZE (it reads counters), and a Shards function for SCAN (the shards from its
// cursor's on, as many as COUNT needs) and RANDOMKEY (the shard it draws). Handlers never lock:
// they parse their arguments, call an operation (the op… functions: shard work, a value or a
// sentinel error back, no reply) and write the reply.
//
// Every text a client sees is Redis 7.2's, word for word (errors.go).
package keyfamily
