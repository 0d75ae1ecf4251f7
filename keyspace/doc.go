// Package keyspace holds every database's keys: shards, one hash table and one TTL index per
// database per shard, lazy and active expiry, SCAN and RANDOMKEY, and the locks.
//
// # Model
//
// A Keyspace has NumShards shards (a power of two; by default 4 × GOMAXPROCS, at least 16)
// and Databases databases (16). A key belongs to the shard its hash selects (ShardFor) in every
// database, so each shard holds one table and one TTL index per database: MOVE and SWAPDB never
// cross shards, and SWAPDB swaps the two databases' structures in every shard under all locks.
//
// A key's record (package object: type, encoding, LRU clock, expire, key, value) lives in its
// shard's arena; the table holds the record's 32-bit handle and reads the key from the record
// when it compares, so a key is stored once. The table (package htable) is Valkey 8.1's shape with
// 32-bit handles: 64-byte buckets of 12 handles and 12 hash tags, chained when full; it grows
// past 110% fill and shrinks under 13.75%, moving a bounded number of buckets per operation,
// and it costs 7.5 to 9.3 bytes per key outside a resize (about 17 during one, while both
// arrays exist). SCAN's cursor (scan.go, over htable's Scan) is Redis's
// reverse-binary one with the shard index in its top bits. The TTL index (expires.go) is a
// B+tree of (expire ms, key hash) that finds due keys in time order.
//
// # Locks
//
// Each shard has one exclusive lock (Shard.Lock): even a read writes — it sets the LRU clock,
// may delete an expired key, and takes a rehash step. Methods ending in Locked require the lock
// of their shard (or, on Keyspace, of every shard: LockAll). A command holds the locks of all
// the shards it touches for its whole run, taken in ascending order (LockShards sorts and
// deduplicates; LockAll takes them all), so that it is atomic and cannot deadlock.
//
// The counters (Keys, Expires, ExpiredKeys, AvgTTL, UsedMemory) are atomics written under the
// locks and read without them: INFO and DBSIZE never wait for a shard.
//
// # Handles and views
//
// A []byte view of a record or a value (object.Key, object.Value) is valid only under its
// shard's lock, and only until the next call that may free or move the record: a handler
// copies what it replies while it holds the lock, whatever the size. A handle returned by a
// lookup is valid under the same rules. Only the tables hold handles for longer — the TTL index
// names keys by hash — which keeps a later compaction of the arenas possible: it would move
// records and update the tables, nothing else.
//
// # Memory
//
// Everything of a shard — records, separate values, table arrays and child buckets, TTL index
// nodes — is allocated from, and charged to, the shard's arena, outside the Go heap (with the
// mmap backend): the garbage collector never sees the keys, and used_memory_dataset
// (UsedMemory) is exact. The Go heap holds O(shards × databases) structs. Flushing a database
// gives all of its memory back.
//
// # Lazy freeing
//
// A deleted hash or set kept as a table of more than LazyFreeThreshold entries may leave its
// table at once and be freed later, a bounded amount per cron step under its shard's lock
// (lazyfree.go): UNLINK, FLUSHALL/FLUSHDB ASYNC, and the deletes the lazyfree-* options name.
// Its record is freed at once; only the value's root waits in a small per-shard queue.
//
// # Time
//
// The keyspace reads time from the clock function it was given (unix ms); tests pass a fake one
// and advance it. A key expires when the clock passes its expire (Redis's now > when): lazily
// when a lookup meets it, and actively when the cron runs ActiveExpireCycle, which takes due
// keys off the TTL index in time order. While notify-keyspace-events has the x class, each
// shard logs the keys it expired for their `expired` events, which the lock holder publishes
// after unlocking (events.go).
//
// # WATCH
//
// Each shard keeps a table of the keys connections WATCH (watch.go). Every write point — a key
// added, replaced, changed in place, deleted, its expire set or removed, its expiry (lazy,
// active, or met by RANDOMKEY and SCAN), eviction's delete, FLUSHDB, FLUSHALL and SWAPDB —
// marks the watchers of the key it changes dirty, so that their EXEC fails. A shard that
// watches nothing pays one atomic load per write.
package keyspace
