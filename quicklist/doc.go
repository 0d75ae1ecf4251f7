// Package quicklist implements the encoding of a big list: Redis's quicklist, a doubly linked
// list of listpack nodes, with every byte in an alloc.Arena and no Go pointer or Go-heap object
// per list or per element. It knows nothing of commands or records: a List is named by one
// handle (its root) that a record keeps, and the root never moves while the list changes.
//
// # Layout
//
// The root is a 24-byte header: head and tail node handles, node count, fill factor (int32) and
// element count (uint64). A node is a separate 16-byte allocation: prev and next node handles,
// the handle of its listpack, and its entry count (the top bit marks a "plain" node holding one
// element too big for any node). The node does not also keep the listpack's byte size, as
// Redis's does: the listpack's own header has it, and a fifth field would move nodes from the
// 16-byte to the 32-byte size class. Nodes are not prefixed to their listpack in one allocation
// because the listpack package reallocates a listpack on every write; a separate node keeps the
// neighbours' links stable when a node's listpack moves.
//
// # Fill
//
// The fill factor is Redis's list-max-listpack-size (Redis 7.2 / Valkey 8.0.1 rules,
// quicklist.c quicklistNodeExceedsLimit and _quicklistNodeAllowInsert): -1…-5 limit a node's
// listpack to 4, 8, 16, 32, 64 KB (below -5 counts as -5); a positive fill (at most 32767)
// limits entries per node and also caps its bytes at 8 KB; 0 counts as 1. An insert is allowed when the node's
// bytes + the element's length + 8 (Redis's estimate of the entry overhead) stay within the
// limit. An element longer than the byte limit (8 KB for a positive fill) gets a plain node of
// its own: here a listpack of one entry, which no other element joins.
//
// # Merging
//
// What the list commands use places and removes elements as Redis 7.2's quicklist.c, so that
// a list has the nodes Redis's would (which decides when it is one node again, and so a
// listpack): InsertPivot is _quicklistInsert (a split merged around its centre in
// _quicklistMergeNodes' order), Replace is quicklistReplaceEntry, and DeleteRangeNoMerge,
// RemoveEqual and the pops merge nothing, as quicklistDelRange and quicklistDelIndex. Insert
// (by index) and DeleteRange are simpler: after a split insert the new node is merged with its
// neighbours when allowed, and DeleteRange merges the node at each end of the removed range
// with its neighbour when allowed. No node is ever empty.
//
// # Validity
//
// A List is valid until Free. Views returned by Index, the iterators and the pop functions'
// results that alias the arena are valid until the next write, under the arena owner's
// serialisation: copy to keep. On ErrNoMemory a write leaves the list well formed but may have
// applied part of its change (a DeleteRange some of its entries).
package quicklist
