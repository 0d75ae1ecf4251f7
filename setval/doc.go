// Package setval is the set type's value, knowing nothing of commands: Redis 7.2's three
// encodings of a set, all of them in a shard's arena, and the rules that move a set from one to
// the next (t_set.c of Redis 7.2 / Valkey 8.0).
//
// # Encodings
//
//   - intset (object.EncIntset): every member an integer, sorted (package intset), while the set
//     has at most set-max-intset-entries (512) members.
//   - listpack (object.EncListpack): members in insertion order (package listpack), while the
//     set has at most set-max-listpack-entries (128) members of at most set-max-listpack-value
//     (64) bytes. Redis 7.0 had no listpack sets: its intsets became hash tables directly.
//   - hashtable (object.EncHashtable): an arena-rooted htable whose entries are one slab
//     allocation each, holding the member after its length (a uvarint): entry.go.
//
// A set's record (object.NewCollection) holds the encoding and a 4-byte root: the intset's or
// the listpack's allocation, or the table's header. The record never moves; a change that
// moves the root stores the new one in place (object.SetRoot).
//
// # Conversions (setTypeCreate, setTypeAddAux, setTypeMaybeConvert, maybeConvertIntset)
//
// A new set is an intset when its first member is an integer and the size hint (SADD's member
// count) is within the intset limit, else a listpack when the hint is within the listpack
// entries limit, else a hash table. A non-integer joining an intset makes a listpack while the
// intset has fewer members than the listpack entries limit and neither the new member nor the
// intset's widest integer (in decimal) is longer than the value limit; otherwise a hash table.
// An intset past its own limit becomes a hash table. A listpack that would pass either limit
// becomes a hash table. Sets never go back on their own, except where Redis rebuilds one: SPOP
// with a count close to the size keeps the survivors in a new set (intset or listpack first),
// and SINTERSTORE stores an all-integer result as an intset.
//
// # Memory and locks
//
// Nothing is on the Go heap per set or per member. Every function takes the arena of the
// set's shard and requires that shard's lock; views passed to callbacks are valid only during
// the call. The limits are process-wide atomics (SetLimits), read once per decision.
package setval
