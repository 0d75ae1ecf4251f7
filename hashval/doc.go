// Package hashval is the hash type (Redis's t_hash.c without the commands): a hash's fields
// and values in the shard's arena, in one of two encodings, behind the record that
// object.NewCollection makes. It knows nothing of commands, replies or the keyspace: callers
// look the record up for write, call these functions, and tell the keyspace (UpdateLocked,
// DeleteLocked when Len reaches 0).
//
// # Encodings
//
//   - listpack (object.EncListpack): one listpack of field,value pairs in insertion order,
//     byte for byte Redis's (package listpack): what DUMP and RDB write for a small hash.
//   - hashtable (object.EncHashtable): an htable rooted in the arena (htable.Create) whose
//     entries are one slab allocation each holding the field and the value (entry.go):
//     uvarint field length, field, uvarint value length, value. An overwrite rewrites the value
//     in place when the new entry has the old one's size class, else makes a new entry and puts
//     it in the old one's slot (ReplaceAt).
//
// A hash starts as a listpack and becomes a hashtable at Redis 7.2's rules (limits.go): a field
// or value longer than hash-max-listpack-value (64), more fields than
// hash-max-listpack-entries (512), a listpack about to pass listpack.MaxSafetySize, or a write
// of more new pairs than the entries limit at once (TryConversion). It never converts back.
//
// # Memory
//
// Everything is in the arena: the listpack, or the table's header, buckets and entries. No Go
// memory is held per hash or per field; a command's view of a table (htable.Open) lives on its
// stack. The type's object.CollectionOps (ops.go) free, measure and copy a hash for package
// object: AllocSize is exactly what the allocations are charged.
//
// Measured (TestMemoryPerElement, in a one-shard keyspace, key table included): one hash of
// 1,000,000 fields `field:%010d` with 32-byte values costs 64.8 bytes per field — a 50-byte
// entry in a 56-byte slot (alloc's 8-byte classes below 128) plus 8.8 of table — against the
// issue's 72; 100,000 hashes of ten fields with 16-byte values cost 287.6 bytes per hash — a
// 227-byte listpack in a 256-byte slot, a 24-byte record, 8.8 of key table — against 290. A
// listpack embedded in a small record would save the record's own slot and share one rounding
// (about 20 bytes per hash), at the cost of a record that moves as the hash grows.
//
// # Validity
//
// Every function requires the arena owner's serialisation (the shard's lock). Views returned
// or passed to callbacks (fields, values) are valid until the hash is next changed; an
// integer of a listpack is formatted into the caller's scratch buffer. A write may move the
// listpack or change the encoding: the record (which never moves) is updated in place
// (object.SetRoot), so the caller keeps its record handle.
package hashval
