package debugfamily

import (
	"fmt"
	"strings"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
)

// mallocStatsCommand: MEMORY MALLOC-STATS — the allocator's own report, as Redis prints
// jemalloc's: kvserver's slab size classes and arenas (one per shard, one for the clients'
// buffers), per arena the spans and live slots of every class in use, and the large-object
// tier. Read with every shard held and the clients' arena locked, so each arena's figures are
// of one instant.
func (f *family) mallocStatsCommand(ctx *command.Ctx) {
	var b strings.Builder
	fmt.Fprintf(&b, "___ Begin kvserver allocator statistics ___\n")
	fmt.Fprintf(&b, "Backend: %s\n", alloc.Backend)
	fmt.Fprintf(&b, "Slab classes: %d, %d to %d bytes, carved from spans of %d bytes\n",
		alloc.NumSlabClasses, alloc.SlabClassSize(0), alloc.SlabClassSize(alloc.NumSlabClasses-1), alloc.SpanSize)
	fmt.Fprintf(&b, "Large objects: %d live (page runs up to %d bytes, a mapping each above)\n",
		alloc.LargeObjects(), alloc.MaxRunSize)
	var total alloc.SlabStats
	for _, i := range ctx.Locked() {
		st := ctx.ShardAt(i).Arena().SlabStats()
		writeArenaStats(&b, fmt.Sprintf("shard.%d", i), st)
		addSlabStats(&total, st)
	}
	f.srv.WithClientArena(func(a *alloc.Arena) {
		st := a.SlabStats()
		writeArenaStats(&b, "clients", st)
		addSlabStats(&total, st)
	})
	writeArenaStats(&b, "total", total)
	fmt.Fprintf(&b, "--- End kvserver allocator statistics ---\n")
	ctx.W.Verbatim("txt", b.String())
}

// writeArenaStats writes one arena's lines: its totals, then one line per class in use.
func writeArenaStats(b *strings.Builder, name string, st alloc.SlabStats) {
	fmt.Fprintf(b, "\nArena %s: allocated %d, active %d, spans %d, free spans %d, large %d (%d bytes)\n",
		name, st.SlabBytes+st.Large, st.Active+st.Large, st.Spans, st.FreeSpans, st.LargeIDs, st.Large)
	header := false
	for _, c := range st.Classes {
		if c.Spans == 0 {
			continue
		}
		if !header {
			fmt.Fprintf(b, "%10s %8s %12s %14s %7s\n", "size", "spans", "slots", "bytes", "util")
			header = true
		}
		capacity := int64(c.Spans) * int64(alloc.SpanSize/c.Size)
		fmt.Fprintf(b, "%10d %8d %12d %14d %7.3f\n",
			c.Size, c.Spans, c.Slots, c.Slots*int64(c.Size), float64(c.Slots)/float64(capacity))
	}
}

// addSlabStats adds st to the running total t.
func addSlabStats(t *alloc.SlabStats, st alloc.SlabStats) {
	if t.Classes == nil {
		t.Classes = make([]alloc.ClassStats, len(st.Classes))
	}
	for c, cs := range st.Classes {
		t.Classes[c].Size = cs.Size
		t.Classes[c].Spans += cs.Spans
		t.Classes[c].Slots += cs.Slots
	}
	t.Spans += st.Spans
	t.FreeSpans += st.FreeSpans
	t.Active += st.Active
	t.SlabBytes += st.SlabBytes
	t.LargeIDs += st.LargeIDs
	t.Large += st.Large
}
