// Package listval is the list type: a list value's two encodings and the conversions between
// them, knowing nothing of commands (the list family calls it).
//
// # Encodings
//
// A small list is one listpack (object.EncListpack: the record's root is the listpack's
// handle); past list-max-listpack-size it is a quicklist of listpack nodes
// (object.EncQuicklist: the root is the quicklist's header), all in the shard's arena.
// The conversions follow Redis 7.2's t_list.c exactly:
//   - growing (TryConversionAppend, run before a write adds elements, with all of them at
//     once): a listpack whose bytes plus the new elements' lengths, or whose entries plus their
//     number, would exceed the fill's node limits (quicklist.ExceedsLimit) becomes a quicklist
//     whose one node is that listpack, unchanged;
//   - shrinking (after a pop, LREM, LTRIM, LSET that left elements): a quicklist of exactly one
//     packed node becomes that node's listpack when it is within half the limits
//     (quicklist.NodeLimit halved: bytes for a negative fill, entries for a positive one) — the
//     hysteresis that keeps a list at the threshold from converting on every write;
//   - a loaded list (Builder.Finish) is converted against the whole limits.
//
// The fill is read when a quicklist is made; a quicklist keeps its own (as Redis's ql->fill).
//
// # Validity
//
// Views passed to callbacks are valid during the call only; integers are formatted into the
// scratch buffer the caller gives. No write may happen inside a callback. Without memory,
// writes return object.ErrOOM and leave the list well formed.
package listval
