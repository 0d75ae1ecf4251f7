// Package alloc is kvserver's memory allocator: slab size classes in per-owner arenas outside
// the Go heap, a process-wide tier for large objects, and exact accounting of both.
//
// # Why
//
// The keyspace must not be made of Go objects: the garbage collector would mark every key on
// every cycle and let the heap grow to twice the data. Memory here comes from mmap, is named by
// 32-bit handles, and holds no Go pointers, so the collector never sees it.
//
// # Tiers
//
//   - Slab classes up to MaxSlabSize (32 KiB): 16, 24, 32, … 128, then four classes per doubling.
//     Slots of one class are carved from 2 MiB spans of an Arena. Each Arena is one range of
//     address space reserved at start (PROT_NONE) and committed a span at a time; span 0 holds
//     the span headers, so the Go heap holds O(1) per arena. A slab Handle is the slot's offset
//     in 8-byte units, so it is only meaningful with its arena.
//   - Large objects above 32 KiB: page runs up to MaxRunSize (2 MiB, same four-per-doubling
//     classes) from one reserved range, and a mapping each above, resized with mremap (no bytes
//     copied). A large Handle is an id in the process-wide large-object table: the address may
//     move, the handle does not. A large object can change owner without a copy (Adopt).
//
// # Ownership, views and goroutines
//
// Every allocation is charged, at its usable size, to the Arena that made it (or adopted it):
// one per keyspace shard, one for client buffers. An Arena is not safe for concurrent use — its
// owner serialises all calls (the shard's lock, the clients' mutex) — but Used and Stats may be
// read from any goroutine. The large-object tier has its own mutex and may be used by arenas of
// different owners at once.
//
// A handle is valid until it is freed, or (slab) until Realloc returns another. A []byte view
// from Bytes is valid until its allocation is freed or reallocated, and only while the owner's
// serialisation is held: copy what must outlive it. Slab spans are never unmapped while the
// arena lives (pages go back with MADV_DONTNEED), so a stale view may read garbage but never
// faults; large mappings above 2 MiB are unmapped when freed.
//
// Free and Realloc take the size from the caller, who always knows it (from a record or string
// header): the free path never looks a class up, and any size with the same UsableSize will do.
//
// # Backends and debug mode
//
// On Linux the default backend maps memory with golang.org/x/sys/unix (MmapPtr, Mprotect,
// Madvise, MremapPtr). Builds with -race (which sets the race tag) or the kvheap tag use a
// Go-heap backend with the same API and the same slab logic, because the race detector does not
// see memory outside the Go heap. The invariants build tag adds self-checks: double free, free of
// a foreign handle and size mismatch panic, freed slots are poisoned, and released spans and
// runs are made inaccessible so a use after free faults.
package alloc
