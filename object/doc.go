// Package object lays out kvserver's values: one record per key, in the shard's alloc arena,
// holding the key, the value's type and encoding, an LRU/LFU clock, an optional expire and —
// while the whole record fits in 128 bytes — the value itself.
//
// # Layout
//
//	offset 0  type (low 4 bits) | encoding (high 4 bits)
//	       1  flags: expire slot present, expire set, snapshot mark
//	       2  LRU/LFU clock, 24 bits little-endian
//	       5  key length (255: a uvarint after the fixed part holds it)
//	       6  embedded value length (255: a uvarint holds it)
//	       7  zero
//	       8  expire, unix ms, 8 bytes — only when the expire slot is present
//	          [key length uvarint] [value length uvarint]
//	          key bytes
//	          value: the bytes (embstr), a 4-byte sds handle (raw), or 8 bytes int64 (int)
//
// The record's size follows from its own header, so Free needs nothing but the handle.
//
// # Encodings
//
// Embeds is the one rule for embedding: a SET-family write embeds the value when the whole
// record fits in MaxEmbeddedRecord (128) bytes — Valkey 9.1's rule, so OBJECT ENCODING says
// "embstr" up to there, a deliberate difference from Redis 7.2's 44 bytes. Canonical int64
// strings are stored as int. APPEND, SETRANGE and SETBIT make the value raw (a separate sds with
// room to grow) whatever its size, as Redis does; the next SET embeds again. When a record's
// size class leaves 8 spare bytes the expire slot is reserved, so a later EXPIRE does not move
// the record.
//
// # Validity
//
// Handles are owned by the keyspace's table. Views (Key, Value) are valid only under the
// shard's lock and until the record is changed or freed: copy to keep. Functions that may move a
// record return its new handle; the caller updates the table. Records hold no Go pointers.
package object
