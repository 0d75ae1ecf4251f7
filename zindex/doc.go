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
//
// # Choices and figures
//
// Nodes are 512 bytes (a slab class, so a node is charged exactly that): a leaf holds 62
// entries, an inner node 31 children. The leaves keep a 32-bit score key beside each handle
// rather than the whole score: 8 bytes an entry instead of 12. Sorted-set scores differ in
// their top 32 bits almost always (integers below 2^20 always do), so the key decides nearly
// every comparison and an entry is read only on a tie, while full scores would cost 17.4
// bytes an entry at the fill of random inserts (the sorted set's budget leaves the index about
// 20). Separators are keys too (16 bytes a child): fixing one after a split, merge or delete
// reads no entry. Bigger inner nodes would save a level at a million entries but read more
// lines per node; the top levels stay in cache and the cost is in the last two.
//
// The index alone, at 1,000,000 entries `member:%010d` (TestMemoryPerEntry, `go test -run
// Memory -v ./zindex`): 8.53 bytes an entry inserted in order or appended (full leaves, 4
// levels), 12.42 in random order (leaves about 70% full, 5 levels). With the 32-byte entry and
// the htable's ~8.8 bytes, a big sorted set of such members takes about 49 to 53 bytes a
// member (target ≤ 64).
//
// Speed at 1,000,000 entries inserted in random order (`go test -run XXX -bench . ./zindex`):
// Rank, At and the score searches are a descent of 5 nodes reading 2 to 4 cache lines each,
// and no entry but the one found when scores are distinct. The yardstick is a Go model of
// Redis's skiplist in the same process (BenchmarkSkiplistRank, BenchmarkSkiplistAt:
// zslGetRank and zslGetElementByRank, levels inline in the node as Redis's). On the shared,
// overloaded 2-core machine of its writing, where wall times varied threefold between runs,
// Rank took 1.1 µs of CPU against the skiplist's 5.3 µs (a CPU profile of both, 4.6×; wall
// times 3.2–4.6 µs against 13–19 µs), At 0.5–1.7 µs against 14–29 µs. Insert took 1.3–3 µs,
// Delete 1.6–3.3 µs, a 10-entry Walk from the middle 80–190 ns, Append 110–300 ns. No
// operation allocates Go memory. Within a node a search scans the keys in order rather than
// halving them (firstNotBefore): the forward scan reads adjacent lines as the hardware
// prefetches them, where each probe of a binary search waited for its own (Rank 409–486 ns →
// 291–410 ns on a quieter machine). And a descent asks for all eight lines of each node the
// moment it has the node's address (internal/prefetch): read in order, the keys' lines, then
// the counts and the child chosen, were each a wait of their own when the node was not in
// cache; asked for together they are one. ZRANK on a 1,000,000-member set, server A/B of 7
// rounds on an AMD EPYC VM: 392,157 → 434,783 ops per server CPU-second (+10.9%, every round).
package zindex
