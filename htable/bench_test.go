package htable

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// benchFields makes n field names as the hash shape names them (`field:%010d`).
func benchFields(n int) [][]byte {
	fs := make([][]byte, n)
	for i := range fs {
		fs[i] = fmt.Appendf(nil, "field:%010d", i)
	}
	return fs
}

// benchTable is a table of n field+value entries (32-byte values), resizes finished.
func benchTable(b *testing.B, fs [][]byte) *Table {
	a := testArena(b)
	t := New(a, entryField)
	v := make([]byte, 32)
	for _, f := range fs {
		if err := t.Insert(Hash(f), newEntry(a, f, v)); err != nil {
			b.Fatal(err)
		}
	}
	for t.Rehash(1 << 20) {
	}
	return t
}

// BenchmarkTableFind looks up present fields of a 1,000,000-entry table (hash included).
func BenchmarkTableFind(b *testing.B) {
	fs := benchFields(1_000_000)
	t := benchTable(b, fs)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f := fs[(i*7919)%len(fs)]
		if _, ok := t.Find(f, Hash(f)); !ok {
			b.Fatal("missing")
		}
	}
}

// BenchmarkTableInsert fills a table to 100,000 entries from empty, through its resizes; the
// entries' allocations are included.
func BenchmarkTableInsert(b *testing.B) {
	fs := benchFields(100_000)
	v := make([]byte, 32)
	for b.Loop() {
		b.StopTimer()
		a := alloc.MustNewArena(1 << 30)
		t := New(a, entryField)
		b.StartTimer()
		for _, f := range fs {
			if err := t.Insert(Hash(f), newEntry(a, f, v)); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		a.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(fs)), "ns/insert")
}

// BenchmarkTableScan scans a 1,000,000-entry table whole.
func BenchmarkTableScan(b *testing.B) {
	t := benchTable(b, benchFields(1_000_000))
	n := 0
	for b.Loop() {
		for cursor := uint64(0); ; {
			cursor = t.Scan(cursor, func(alloc.Handle) { n++ })
			if cursor == 0 {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/entry")
}

// benchRooted is benchTable's table rooted in the arena: its root handle.
func benchRooted(b *testing.B, fs [][]byte) (*alloc.Arena, alloc.Handle) {
	a := testArena(b)
	root, err := Create(a)
	if err != nil {
		b.Fatal(err)
	}
	t := Open(a, entryField, root)
	v := make([]byte, 32)
	for _, f := range fs {
		if err := t.Insert(Hash(f), newEntry(a, f, v)); err != nil {
			b.Fatal(err)
		}
	}
	for t.Rehash(1 << 20) {
	}
	return a, root
}

// BenchmarkRootedFind is BenchmarkTableFind on a table rooted in the arena, a view opened for
// each lookup as a command does.
func BenchmarkRootedFind(b *testing.B) {
	fs := benchFields(1_000_000)
	a, root := benchRooted(b, fs)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f := fs[(i*7919)%len(fs)]
		t := Open(a, entryField, root)
		if _, ok := t.Find(f, Hash(f)); !ok {
			b.Fatal("missing")
		}
	}
}

// BenchmarkRootedInsert is BenchmarkTableInsert on a table rooted in the arena, a view opened
// for each insert.
func BenchmarkRootedInsert(b *testing.B) {
	fs := benchFields(100_000)
	v := make([]byte, 32)
	for b.Loop() {
		b.StopTimer()
		a := alloc.MustNewArena(1 << 30)
		root, err := Create(a)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for _, f := range fs {
			t := Open(a, entryField, root)
			if err := t.Insert(Hash(f), newEntry(a, f, v)); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		a.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(fs)), "ns/insert")
}
