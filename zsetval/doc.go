// Package zsetval is the sorted-set type (Redis's t_zset.c without the commands): a sorted
// set's members and scores in the shard's arena, in one of two encodings, behind the record
// that object.NewCollection makes. It knows nothing of commands, replies or the keyspace:
// callers look the record up for write, call these functions, and tell the keyspace
// (UpdateLocked, DeleteLocked when Len reaches 0).
//
// # Order
//
// Members are ordered by score, ties by member bytes (bytes.Compare); ranks count from 0 at the
// lowest. Scores are float64 and never NaN (Add refuses one, with AddNaN); -0 and 0 are equal.
// Lex ranges (RangeByLex…) assume equal scores, as Redis's do.
//
// # Encodings
//
//   - listpack (object.EncListpack): one listpack of member, score pairs in that order, byte
//     for byte Redis 7.2's (zzlInsertAt): a member as any listpack string (an integer entry
//     when it is an integer's canonical text), a score as an integer entry when it is integral
//     in [-2^62, 2^62] (double2ll), else as its d2string text (resp.AppendDouble: "1.5",
//     "1e+20", "inf"). It is what RDB type 17 and DUMP carry (ListpackBytes).
//   - skiplist (object.EncSkiplist): the big form (skiplist.go).
//
// A set is created as zsetTypeCreate chooses (New: a listpack for at most
// zset-max-listpack-entries (128) members of at most zset-max-listpack-value (64) bytes), and a
// listpack becomes a skiplist before an Add that would pass either limit. A skiplist never
// becomes a listpack again, except through a Builder (zsetConvertToListpackIfNeeded: the
// results of ZUNIONSTORE, ZRANGESTORE… and RDB loads).
//
// # Memory
//
// Everything is in the arena; no Go memory is held per set or per member. A Builder and the
// random picks of RandomMembers keep Go memory for one command only. The type's
// object.CollectionOps (ops.go) free, measure and copy a set for package object.
//
// # Validity
//
// Every function requires the arena owner's serialisation (the shard's lock). Views returned
// or passed to callbacks (members) are valid until the set is next changed, callbacks' views
// during the call only; an integer member of a listpack is formatted into the caller's scratch
// buffer (a new one when it has less than 20 bytes of capacity). A write may move the listpack
// or change the encoding: the record (which never moves) is updated in place (object.SetRoot),
// so the caller keeps its record handle.
package zsetval
