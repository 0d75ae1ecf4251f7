package zsetval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// TestMemoryPerElement measures the two sorted-set shapes in a one-shard keyspace, whose
// arena holds records, values and the key table alike, so the key table's share is in the
// figures: one sorted set of 1,000,000 members `member:%010d` with score i (bytes per member,
// target 64; Redis 7.0.15: 125.7), and 100,000 sets `zs:<i>` of members m0…m9 with scores
// 0…9 (bytes per set, target 110 with the key's record). It logs the figures (go test -run
// TestMemoryPerElement -v ./zsetval) and fails past the targets.
func TestMemoryPerElement(t *testing.T) {
	if testing.Short() || invariantsOn || raceOn {
		t.Skip("a million members (checked after each write in invariants builds; slow under -race)")
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
	rec, err := New(a, []byte("bigzset"), 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.InsertLocked(0, []byte("bigzset"), rec); err != nil {
		t.Fatal(err)
	}
	const members = 1_000_000
	var mb []byte
	for i := range members {
		mb = fmt.Appendf(mb[:0], "member:%010d", i)
		if _, _, err := Add(a, rec, mb, float64(i), 0); err != nil {
			t.Fatal(err)
		}
	}
	perMember := float64(ks.UsedMemory()-before) / members
	_, root := object.Root(a, rec)
	z := openSkiplist(a, root)
	t.Logf("one sorted set of %d members (17 bytes, scores 0…n-1): %.1f bytes per member (entries %d bytes in a %d-byte slot, table %.2f, index %.2f per member); target 64, Redis 7.0.15 125.7",
		members, perMember, entrySize(17), alloc.UsableSize(entrySize(17)),
		float64(z.t.Bytes())/members, float64(z.ix.Bytes())/members)
	if perMember > 64 {
		t.Errorf("%.1f bytes per member, more than the target 64", perMember)
	}

	ks2, sh2 := newShard()
	a2 := sh2.Arena()
	before = ks2.UsedMemory()
	const sets = 100_000
	var kb []byte
	var last alloc.Handle
	for i := range sets {
		kb = fmt.Appendf(kb[:0], "zs:%d", i)
		rec, err := New(a2, kb, 10, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		last = rec
		for m := range 10 {
			if _, _, err := Add(a2, rec, fmt.Appendf(mb[:0], "m%d", m), float64(m), 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := sh2.InsertLocked(0, kb, rec); err != nil {
			t.Fatal(err)
		}
	}
	perSet := float64(ks2.UsedMemory()-before) / sets
	t.Logf("%d sorted sets of 10 members: %.1f bytes per set (listpack of %d bytes in a %d-byte slot, record %d); target 110",
		sets, perSet, len(ListpackBytes(a2, last)), object.MemoryUsage(a2, last)-object.Size(a2, last), object.Size(a2, last))
	if perSet > 110 {
		t.Errorf("%.1f bytes per set, more than the target 110", perSet)
	}
}
