// Package htable is the bucketed hash table of 32-bit handles that the keyspace keeps its keys
// in, and that big hashes and sets will keep their entries in: Valkey 8.1's shape, all of it in
// an alloc arena.
//
// # Model
//
// A Table maps keys to entries. An entry is one allocation of the owner's arena, named by its
// 32-bit alloc.Handle, that holds its own key: a keyspace record holds the key (package
// object), a hash's entry will hold field and value, a set's entry its member. The table stores
// only the handle and an 8-bit tag of the key's hash, and reads the key through the KeyFunc its
// owner gives (New) when a tag matches, so a key is stored once. The caller hashes (Hash): Find,
// Insert and FindMatch take the hash, and a resize hashes each moved key again.
//
// Buckets are 64-byte cache lines of 12 handles and 12 tags (bucket.go); a full bucket chains a
// child bucket, and every bucket of a chain belongs to one bucket index, so an entry never
// leaves the chain its hash selects. The table grows past 110% fill and shrinks under 13.75%,
// incrementally: every Find, Insert, DeleteAt and Random does one bounded rehash step
// (resize.go), and the owner's cron finishes idle resizes with Rehash. Scan (scan.go) is
// Redis's reverse-binary cursor, with its guarantee: every entry present for a whole scan is
// returned at least once, whatever resizes happen between calls. Random and FindMatch serve
// eviction's sampling and the TTL index's back references.
//
// # Memory
//
// Bucket arrays (in segments of at most 2 MiB, each one allocation) and child buckets are
// allocations of the owner's arena, charged to it; Bytes says how much. Outside a resize a table
// of a few hundred entries or more costs 7.5 to 9.3 bytes per entry (TestBigTableBytesPerKey),
// about twice that while a growth holds both arrays. At 1,000,000 entries (TestTableBytesAt1M)
// it is 8.79: 131,072 buckets 63.6% full (8.39) and 6,245 child buckets (0.40). The issue's
// targets add the entry: a 17-byte set member (18 bytes with its length) takes a 32-byte slot,
// 40.8 in all against 38; a hash field of 16 bytes with a 32-byte value (50 bytes) a 64-byte
// slot, 72.8 against 72. Growing at 128% instead of 110% would keep 65,536 buckets at 1,000,000
// entries (7.44 B/entry simulated, 1.30 bucket lines read per hit instead of 1.02, and only at
// that point of the doubling cycle); 8-byte size classes below 128 bytes reach both targets
// at any fill (24 + 8.8 and 56 + 8.8).
//
// A table's whole state is a pointer-free 64-byte header (root.go, table.go): per array its
// size and one handle — its only segment while it has at most 32,768 buckets (every table of up
// to 432,000 entries), else a directory allocation of its segments' handles (4 bytes each: 16
// bytes at 1,000,000 entries) — the resize's progress, counts. A Table is a view of a header:
// the header's address, the arena, the KeyFunc and the address of each array's handle (the one
// value a header cannot store, recomputed when the view is made: Arena.Bytes, an add for a slab
// or page-run handle). An index past segment 0 costs one more load (the directory, hot in
// cache). The two forms share every line of code:
//
//   - New keeps the header beside the Table on the Go heap (one allocation of about 120 bytes):
//     the keyspace's tables, one per database per shard.
//   - Create puts the header in a 64-byte allocation of the arena and returns its handle, the
//     root a hash's or set's record holds; it never moves. Open makes a view of it on the
//     caller's stack (no Go allocation: TestRootedNoGoAllocs) for one command; the view writes
//     through to the header, so there is nothing to write back. Destroy frees the whole table.
//     Header and directory cost 64 bytes up to 432,000 entries, 80 at 1,000,000
//     (TestRootedHeaderBytes); Bytes includes them, for MEMORY USAGE.
//
// # Locks
//
// A table belongs to its owner: every method requires the owner's lock (a keyspace shard's),
// except Len, which reads an atomic. Views of entries and Positions are valid until the table is
// next changed; the table keeps no Go pointer to an entry, only handles, so the owner may move an
// entry and fix the table with ReplaceAt.
package htable
