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
// The Table value itself is a Go struct of about 100 bytes plus one Go slice of segment
// descriptors per array: one per keyspace database per shard, which the Go heap affords. A hash
// or set that outgrows its listpack must cost the Go heap nothing, so its root is to live in the
// arena too. The plan (not built yet): each array keeps, instead of the Go slice, one handle —
// its only segment while it has at most 32,768 buckets (every table of up to 432,000 entries),
// else a directory allocation of segment handles — and the address of segment 0, the one
// non-storable field, recomputed from its handle (Arena.Bytes: an add for a slab or page-run
// handle). Every other field is a plain number, so the table's state is a fixed header of
// about 64 bytes: a hash or set allocates it in the arena and keeps its 32-bit handle in the
// key's record, and a command builds a Table on its stack from (arena, KeyFunc, header), works
// on it, and writes the header back; the keyspace keeps its Tables as they are. An index past
// segment 0 then costs one more load (the directory, hot in cache) than today.
//
// # Locks
//
// A table belongs to its owner: every method requires the owner's lock (a keyspace shard's),
// except Len, which reads an atomic. Views of entries and Positions are valid until the table is
// next changed; the table keeps no Go pointer to an entry, only handles, so the owner may move an
// entry and fix the table with ReplaceAt.
package htable
