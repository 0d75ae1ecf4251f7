// Package intset implements Redis's intset, byte for byte: the encoding of a small set whose
// members are all integers, and what DUMP and RDB carry for it (type 11). The same bytes live in
// a shard's arena, so serialising such a set is a copy and a dump from Redis loads as it is.
//
// # Format
//
// An 8-byte header — the encoding (uint32: 2, 4 or 8, the byte width of every member) and the
// length (uint32) — then the members, sorted ascending, distinct, little-endian, each in the
// encoding's width. The encoding is the narrowest that holds every member ever added: adding a
// wider integer upgrades the whole set (intsetUpgradeAndAdd), and removing one never downgrades
// it, as in Redis.
//
// # Two layers
//
// Reading (Len, Get, Find, Random) and validation are pure functions over a []byte holding an
// intset. Writing goes through an Intset, a handle to one allocation in an alloc.Arena whose
// size class is always that of the intset's bytes (8 + length × encoding): every change
// reallocates to the exact size, as Redis's intsetResize does, which the allocator's geometric
// classes amortise; so Free needs nothing but the header.
//
// # Validity
//
// An Intset is valid until Free, or until a write returns a different one. A []byte view
// (Bytes) is valid until the next write, and only under the arena owner's serialisation (a
// shard's lock).
package intset
