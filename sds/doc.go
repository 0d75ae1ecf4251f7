// Package sds implements dynamic strings in alloc memory, after Redis's sds: a header with the
// length and capacity, then the bytes. A String is a handle; the arena it lives in is passed to
// every call, because a shard's values and a client's buffers live in different arenas.
//
// # Capacity and growth
//
// Capacity is always the whole usable size of the allocation minus the header: the string
// takes over the allocator's internal fragmentation (alloc.UsableSize), so growing into it costs
// nothing. MakeRoomFor grows exactly (to the size asked, rounded by the allocator) when the caller
// knows the final size or the string stays below 16 KiB — the allocator's classes are geometric,
// so exact growth is still amortised linear — and greedily otherwise: doubling below 1 MiB, then
// ×1.5 (never a fixed step, which would copy quadratically). Large strings grow by mremap without
// copying bytes.
//
// # Trimming
//
// Resize is the one trimming path ("remove free space" included). When the target's usable size
// equals the current one it neither allocates nor copies, which keeps a caller that trims and
// regrows (the cron and a query buffer) out of a resize loop.
//
// # Layout
//
// A short header is 8 bytes, one little-endian word: bit 0 clear, length in bits 1–31, capacity
// in bits 32–63 (strings below 2 GiB). A long header is 16 bytes: a word with bit 0 set and the
// capacity above it, then the length. Handles are 16-byte aligned, so headers are aligned too.
//
// # Validity
//
// A String is valid until Free, or until a call that returns a String returns a different one
// (growth or trimming may move it). A []byte view (Bytes, Spare) is valid until the next call that
// may move the string, and only under the arena owner's serialisation (a shard's lock): copy what
// must outlive it. Strings are not safe for concurrent use; their arena's owner serialises.
package sds
