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
//   - skiplist (object.EncSkiplist, Redis's name for its dict + skiplist): a hash table of
//     members (htable: member → entry) and a counted ordered index of the same entries
//     (zindex: (score, member) → entry, with ranks), both rooted in the arena under an 8-byte
//     header holding the two roots (skiplist.go). An entry (entry.go) is one allocation: the
//     score's 8 bytes, the member's length as a uvarint, the member. ZSCORE is one table
//     lookup; a rank, a range's bounds and an insert are O(log n) in the index; a range then
//     walks the index's leaves, O(1) per member; a changed score is written in the entry in
//     place, the entry leaving and re-entering the index.
//
// A set is created as zsetTypeCreate chooses (New: a listpack for at most
// zset-max-listpack-entries (128) members of at most zset-max-listpack-value (64) bytes), and a
// listpack becomes a skiplist before an Add that would pass either limit. A skiplist never
// becomes a listpack again, except through a Builder (zsetConvertToListpackIfNeeded: the
// results of ZUNIONSTORE, ZRANGESTORE… and RDB loads).
//
// # Memory
//
// Everything is in the arena; no Go memory is held per set or per member. A Builder (at most
// zset-max-listpack-entries members, then 4 bytes a member) and the random picks of
// RandomMembers keep Go memory for one command only. The type's object.CollectionOps (ops.go)
// free, measure (exactly what the allocations are charged) and copy a set for package object;
// FreeEffort and FreeStep free a big one a bounded amount at a time (lazy freeing).
//
// Measured (TestMemoryPerElement, in a one-shard keyspace, key table included; go test -run
// TestMemoryPerElement -v ./zsetval): one sorted set of 1,000,000 members `member:%010d` with
// score i costs 49.4 bytes per member — a 26-byte entry in a 32-byte slot, 8.8 of table, 8.6
// of index — against the 64 (Redis 7.0.15: 125.7); 100,000 sets of ten members m0…m9
// with scores 0…9 cost 103.6 bytes per set — a 67-byte listpack in a 72-byte slot, a 24-byte
// record, 8 of key table — against 110 (the server's figure, with its own overheads, is
// `make bench`'s).
//
// Speed (go test -bench . -benchtime 300000x ./zsetval, a set of 1,000,000 members, on the
// shared 2-core machine at a load average of 8, so upper bounds): Add of a new member 2.2–4.7
// µs, a score update 3.7–4.7 µs, Score 1.1–1.3 µs, Rank 3.7–6.5 µs, ten members by rank from
// the middle 0.6–0.8 µs, Pop of the lowest (with an Add back at the top) 1.9–2.4 µs; no Go
// allocation in any.
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
