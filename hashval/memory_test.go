package hashval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// TestMemoryPerElement measures the two hash shapes in a one-shard keyspace, whose
// arena holds records, values and the key table alike, so the keyspace's table share is in
// the figures: one hash of 1,000,000 `field:%010d` fields with 32-byte values (bytes per
// field, target 72), and 100,000 hashes `hs:<i>` of fields f0…f9 with 16-byte values (bytes
// per hash, target 290). It logs the figures (go test -run TestMemoryPerElement -v ./hashval)
// and fails only well past today's, as a guard against a regression in the layout.
func TestMemoryPerElement(t *testing.T) {
	if testing.Short() || invariantsOn || raceOn {
		t.Skip("a million fields (checked after each write in invariants builds; slow under -race)")
	}
	newShard := func() (*keyspace.Keyspace, *keyspace.Shard) {
		ks, err := keyspace.New(keyspace.Options{Shards: 1, Databases: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ks.Close)
		sh := ks.Shard(0)
		sh.Lock()
		t.Cleanup(sh.Unlock)
		return ks, sh
	}

	ks, sh := newShard()
	a := sh.Arena()
	before := ks.UsedMemory()
	rec, err := New(a, []byte("bighash"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.InsertLocked(0, []byte("bighash"), rec); err != nil {
		t.Fatal(err)
	}
	value := []byte(strings.Repeat("v", 32))
	const fields = 1_000_000
	var fb []byte
	for i := range fields {
		fb = fmt.Appendf(fb[:0], "field:%010d", i)
		if _, err := Set(a, rec, fb, value); err != nil {
			t.Fatal(err)
		}
	}
	perField := float64(ks.UsedMemory()-before) / fields
	_, root := object.Root(a, rec)
	tbl := openTable(a, root)
	tableShare := float64(tbl.Bytes()) / fields
	t.Logf("one hash of %d fields (16-byte fields, 32-byte values): %.1f bytes per field (entries %d bytes each in a %d-byte slot, table %.2f per field); target 72",
		fields, perField, entrySize(16, 32), alloc.UsableSize(entrySize(16, 32)), tableShare)
	if perField > 72 { // the target
		t.Errorf("%.1f bytes per field, more than the target 72", perField)
	}

	ks2, sh2 := newShard()
	a2 := sh2.Arena()
	before = ks2.UsedMemory()
	const hashes = 100_000
	value16 := []byte(strings.Repeat("v", 16))
	var kb []byte
	var last alloc.Handle
	for i := range hashes {
		kb = fmt.Appendf(kb[:0], "hs:%d", i)
		rec, err := New(a2, kb, 0)
		last = rec
		if err != nil {
			t.Fatal(err)
		}
		for f := range 10 {
			if _, err := Set(a2, rec, fmt.Appendf(nil, "f%d", f), value16); err != nil {
				t.Fatal(err)
			}
		}
		if err := sh2.InsertLocked(0, kb, rec); err != nil {
			t.Fatal(err)
		}
	}
	perHash := float64(ks2.UsedMemory()-before) / hashes
	t.Logf("%d hashes of 10 fields (16-byte values): %.1f bytes per hash (listpack of %d bytes in a %d-byte slot); target 290",
		hashes, perHash, len(ListpackBlob(a2, last)), object.MemoryUsage(a2, last)-object.Size(a2, last))
	if perHash > 290 { // the target
		t.Errorf("%.1f bytes per hash, more than the target 290", perHash)
	}
}
