package alloc

// ClassStats is one slab class's use in an arena: MEMORY MALLOC-STATS prints one line per
// class in use.
type ClassStats struct {
	Size  int   // slot size in bytes
	Spans int   // spans of this class
	Slots int64 // live slots
}

// SlabStats is a read of an arena's span headers: where its slab memory is and how full.
type SlabStats struct {
	Classes   []ClassStats // one per slab class, smallest first
	Spans     int          // spans holding a class's slots (each SpanSize bytes, committed)
	FreeSpans int          // spans given back to the OS and kept for reuse
	// Active is the bytes of the spans' pages ever handed out (each span up to its bump
	// pointer, in whole pages): what the arena has made resident, freed slots included. The
	// rest of a span is committed address space that was never touched.
	Active    int64
	SlabBytes int64 // usable bytes of live slab allocations (Stats().SlabBytes)
	LargeIDs  int   // large objects owned by the arena
	Large     int64 // their usable bytes
}

// SpanSize is the size of a slab span: every class's slots are carved from spans of this size.
const SpanSize = spanSize

// NumSlabClasses is the number of slab size classes.
const NumSlabClasses = numSlabClasses

// SlabClassSize returns the slot size of slab class c (0 ≤ c < NumSlabClasses).
func SlabClassSize(c int) int { return int(slabClassSize[c]) }

// SlabStats walks the arena's span headers and counts, per class, the spans and live slots.
// It reads memory the owner writes: call it under the owner's serialisation (the shard's lock,
// the clients' mutex), as any other method but Used and Stats. It allocates one slice.
func (a *Arena) SlabStats() SlabStats {
	st := SlabStats{
		Classes:   make([]ClassStats, numSlabClasses),
		SlabBytes: a.slabUsed.Load(),
		Large:     a.largeUsed.Load(),
		LargeIDs:  large.ownedBy(a),
	}
	for c := range st.Classes {
		st.Classes[c].Size = int(slabClassSize[c])
	}
	for si := uint32(1); si < a.nspans; si++ {
		sp := &a.headers[si]
		if sp.class == 0 {
			st.FreeSpans++
			continue
		}
		cs := &st.Classes[sp.class-1]
		cs.Spans++
		cs.Slots += int64(sp.live)
		st.Active += int64(sp.bump+PageSize-1) &^ (PageSize - 1)
		st.Spans++
	}
	return st
}

// ownedBy counts the live large objects owned by a.
func (t *largeTier) ownedBy(a *Arena) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for id := uint32(0); id < t.nextID; id++ {
		if e := t.entry(id); e.ptr != nil && e.owner == a {
			n++
		}
	}
	return n
}
