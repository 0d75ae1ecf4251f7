// Package zindex is the counted ordered index of a big sorted set: entries (a score and a
// member, owned by the caller and named by alloc.Handle) ordered by score, ties by member
// bytes, with subtree counts so that rank ↔ entry is O(log n) both ways (ZRANK, ZRANGE by
// rank) — Redis's skiplist with its span counts, as a B+tree in an alloc.Arena.
//
// # Layout
//
// A header allocation (its handle is the index's root handle; it never moves) names the root
// node and holds the totals. Nodes are fixed-size arena slots: no Go memory per node or entry.
//   - A leaf holds up to leafCap entries in order: each entry's handle and a 32-bit
//     order-preserving key of its score (the top half of its IEEE bits made monotone), so that
//     a search compares most entries without reading them; only an equal key makes it read the
//     entry (through the owner's EntryFunc) for the full score and the member. Leaves are
//     linked both ways for walks.
//   - An inner node holds, per child, the child's handle, the number of entries under it and
//     its first entry (score and handle): a descent picks the last child whose first entry
//     precedes the target, adding the counts of the children it passes to the rank.
//
// A full node splits in halves, except that the last node of a level receiving at its end
// (ascending inserts, Append) stays full and starts a new node with the one new item; a node
// left below half full by a delete merges with a sibling or takes entries from it. So every
// node but the root and the last of each level is at least half full.
//
// Views (Open) are values with no Go allocation; every operation happens under the arena
// owner's serialisation.
package zindex
