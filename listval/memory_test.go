package listval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/keyspace"
)

// TestMemoryPerElement measures the shape in a one-shard keyspace (whose arena holds
// the record, the key table and the list alike): one list of 1,000,000 16-byte elements pushed
// with RPUSH's path at the default fill, used memory per element (target 18.2: Redis 7.0.15's
// and Valkey 8.0.1's used_memory per element here). It logs the figure (go test -run
// TestMemoryPerElement -v ./listval) and fails past the target.
func TestMemoryPerElement(t *testing.T) {
	if testing.Short() || invariantsOn || raceOn {
		t.Skip("a million pushes (each checked in invariants builds; slow under -race)")
	}
	ks, err := keyspace.New(keyspace.Options{Shards: 1, Databases: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close()
	sh := ks.Shard(0)
	sh.Lock()
	defer sh.Unlock()
	a := sh.Arena()
	before := ks.UsedMemory()
	key := []byte("biglist")
	rec, err := New(a, key, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.InsertLocked(0, key, rec); err != nil {
		t.Fatal(err)
	}
	const n = 1_000_000
	e := []byte("0123456789abcdef")
	for i := range n {
		copy(e, fmt.Sprintf("%016x", i))
		e[0] = 'k' // never an integer entry
		if err := PushTail(a, rec, e); err != nil {
			t.Fatal(err)
		}
	}
	per := float64(ks.UsedMemory()-before) / n
	t.Logf("one list of %d 16-byte elements (%s): %.2f bytes of used memory per element; target 18.2",
		n, encoding(a, rec), per)
	if per > 18.2 {
		t.Errorf("%.2f bytes per element, over the target 18.2", per)
	}
}
