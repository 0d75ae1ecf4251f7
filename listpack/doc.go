// Package listpack implements Redis's listpack, byte for byte: the compact encoding of small
// hashes, sets, sorted sets and list nodes, and what DUMP and RDB carry for them (types 16, 17,
// 18, 20). The same bytes live in a shard's arena, so serialising a small collection is a copy
// and a dump from Redis loads as it is.
//
// # Format
//
// A listpack is a 6-byte header — the total size in bytes (uint32, little-endian) and the
// number of entries (uint16; 65535 means "unknown, count by walking") — then the entries, then
// one 0xFF byte. An entry is an encoding byte (with the data's length or a small integer folded
// in), its data, and a back-length: the size of encoding+data in 1 to 5 bytes, read from the end
// backwards, so the list can be walked in both directions. Encodings:
//
//	0xxxxxxx                      7-bit unsigned integer 0..127
//	10xxxxxx + data               string of up to 63 bytes
//	110xxxxx yyyyyyyy             13-bit signed integer
//	1110xxxx yyyyyyyy + data      string of up to 4095 bytes
//	11110000 + 4-byte len + data  string of up to 2^32-1 bytes
//	0xF1 / 0xF2 / 0xF3 / 0xF4     16-, 24-, 32-, 64-bit signed integer, little-endian
//	0xFF                          end of the listpack
//
// A string is stored as an integer when it is the canonical decimal form of an int64 (see
// StringToInt64: "123" and "-5" are, "0123", "+1", " 1", "-0" are not), in the smallest of the
// integer encodings that holds it — Redis's lpEncodeGetType.
//
// # Two layers
//
// Reading, finding, random picks and validation are pure functions over a []byte holding a
// listpack (Redis's own or one of ours): they never write and, apart from Validate, assume the
// bytes are well formed. Writing goes through a Listpack, a handle to one allocation in an
// alloc.Arena whose size class is always that of the listpack's total bytes: every change
// reallocates to the exact size (Redis does the same through jemalloc), which is amortised by
// the allocator's geometric classes and costs nothing when the size stays within its class; so
// the allocation's size is always the header's, and Free needs nothing else.
//
// # Positions
//
// An entry is named by its byte offset in the listpack (an int): First, Next, Prev, Last and Seek
// return offsets, or -1 past either end. Offsets are invalidated by any write; the writing calls
// return the offset to carry on from, as Redis's do.
//
// # Validity
//
// A Listpack is valid until Free, or until a write returns a different one. A []byte view
// (Bytes, and strings returned by Get) is valid until the next write, and only under the arena
// owner's serialisation (a shard's lock): copy what must outlive it.
package listpack
