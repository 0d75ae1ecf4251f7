package alloc

// Handle names an allocation. The zero Handle names nothing.
//
// A slab handle is the allocation's offset in its arena in Quantum (8-byte) units, so 31 bits
// address 16 GiB per arena; which arena is known to the holder (a shard's records live in the
// shard's arena). A large handle has the top bit set and the low 31 bits index the process-wide
// large-object table: the address of a large object may move (mremap), its handle never does.
type Handle uint32

// largeBit marks a handle of the large-object tier.
const largeBit = 1 << 31

// IsLarge reports whether h names a large object (above MaxSlabSize).
func (h Handle) IsLarge() bool { return h&largeBit != 0 }

// largeID is the index of a large handle in the large-object table.
func (h Handle) largeID() uint32 { return uint32(h &^ largeBit) }

// offset is the byte offset of a slab handle in its arena.
func (h Handle) offset() uintptr { return uintptr(h) * Quantum }
