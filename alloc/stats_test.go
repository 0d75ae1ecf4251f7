package alloc

import "testing"

// TestSlabStats: the per-class counts follow allocations and frees, a span emptied beyond its
// class's last one is counted free, and large objects are counted by owner.
func TestSlabStats(t *testing.T) {
	a := newTestArena(t)
	if st := a.SlabStats(); st.Spans != 0 || st.FreeSpans != 0 || st.SlabBytes != 0 || st.LargeIDs != 0 {
		t.Fatalf("new arena: %+v", st)
	}
	// 3 slots of 16 bytes, and enough 32 KiB slots for two spans and one more.
	var small []Handle
	for range 3 {
		small = append(small, a.Alloc(10))
	}
	perSpan := SpanSize / MaxSlabSize
	var big []Handle
	for range 2*perSpan + 1 {
		big = append(big, a.Alloc(MaxSlabSize))
	}
	lh := a.Alloc(MaxSlabSize + 1)
	st := a.SlabStats()
	c16, c32k := st.Classes[0], st.Classes[NumSlabClasses-1]
	if c16.Size != 16 || c16.Spans != 1 || c16.Slots != 3 {
		t.Errorf("16-byte class: %+v", c16)
	}
	if c32k.Size != MaxSlabSize || c32k.Spans != 3 || c32k.Slots != int64(2*perSpan+1) {
		t.Errorf("32 KiB class: %+v", c32k)
	}
	// Pages touched: one for the 16-byte slots, two whole spans and one 32 KiB slot.
	if want := int64(PageSize + 2*SpanSize + MaxSlabSize); st.Active != want {
		t.Errorf("active %d, want %d", st.Active, want)
	}
	if st.Spans != 4 || st.FreeSpans != 0 {
		t.Errorf("spans %d free %d, want 4 and 0", st.Spans, st.FreeSpans)
	}
	if want := int64(3*16 + (2*perSpan+1)*MaxSlabSize); st.SlabBytes != want {
		t.Errorf("slab bytes %d, want %d", st.SlabBytes, want)
	}
	if st.LargeIDs != 1 || st.Large != int64(UsableSize(MaxSlabSize+1)) {
		t.Errorf("large: %d objects, %d bytes", st.LargeIDs, st.Large)
	}
	// Emptying the last span of 32 KiB slots releases it (it is not the class's only span).
	for _, h := range big[2*perSpan:] {
		a.Free(h, MaxSlabSize)
	}
	st = a.SlabStats()
	if c := st.Classes[NumSlabClasses-1]; c.Spans != 2 || c.Slots != int64(2*perSpan) || st.FreeSpans != 1 || st.Spans != 3 {
		t.Errorf("after freeing a span's slots: class %+v, spans %d, free %d", c, st.Spans, st.FreeSpans)
	}
	for _, h := range big[:2*perSpan] {
		a.Free(h, MaxSlabSize)
	}
	for _, h := range small {
		a.Free(h, 10)
	}
	a.Free(lh, MaxSlabSize+1)
	st = a.SlabStats()
	var slots int64
	for _, c := range st.Classes {
		slots += c.Slots
	}
	if slots != 0 || st.SlabBytes != 0 || st.LargeIDs != 0 || st.Large != 0 {
		t.Errorf("all freed: %d slots, %d slab bytes, %d large", slots, st.SlabBytes, st.LargeIDs)
	}
}

// TestSlabStatsSizes: the classes are listed smallest first, as SlabClassSize names them.
func TestSlabStatsSizes(t *testing.T) {
	st := newTestArena(t).SlabStats()
	for c, cs := range st.Classes {
		if cs.Size != SlabClassSize(c) || (c > 0 && cs.Size <= st.Classes[c-1].Size) {
			t.Fatalf("class %d: size %d", c, cs.Size)
		}
	}
}

// TestGoRuntimeResident: what the runtime holds from the OS covers what it uses.
func TestGoRuntimeResident(t *testing.T) {
	inUse, resident := GoRuntimeLive(), GoRuntimeResident()
	if resident < inUse || resident > 1<<40 {
		t.Fatalf("GoRuntimeResident = %d with GoRuntimeLive = %d", resident, inUse)
	}
}
