package setval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// The memory shapes, measured as arena Used() per member: everything the sets and
// their key records are charged (the keyspace's own table, about 8.8 bytes per key, is not in
// it: 0.02 per member for the intsets, nothing that matters for the one big set). The bounds
// are the targets, 38 and 4.2.

// TestBytesPerMemberBigSet: one set of 1,000,000 members member:%010d. A 17-byte member takes
// an 18-byte entry, a 24-byte slot (alloc's 8-byte classes up to 128), plus the table's ~8.8
// bytes: 32.8.
func TestBytesPerMemberBigSet(t *testing.T) {
	if testing.Short() {
		t.Skip("a million members")
	}
	a := newArena(t)
	const n = 1_000_000
	rec, err := New(a, []byte("bigset"), []byte("member:0000000000"), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 32)
	for i := range n {
		buf = fmt.Appendf(buf[:0], "member:%010d", i)
		if _, err := Add(a, rec, buf); err != nil {
			t.Fatal(err)
		}
	}
	per := float64(a.Used()) / n
	t.Logf("one set of %d members member:%%010d: %.2f bytes per member (target 38)", n, per)
	if per > 38 { // the target
		t.Errorf("%.2f bytes per member, more than the target 38", per)
	}
	freeAndCheck(t, a, rec)
}

// TestBytesPerMemberIntsets: 2,000 sets iset:<i> of 500 integers i, i+2000, … (bench/run.sh's
// shape): each a 32-bit intset of 2,008 bytes in a 2,048-byte class, plus its record.
func TestBytesPerMemberIntsets(t *testing.T) {
	a := newArena(t)
	const sets, members = 2000, 500
	recs := make([]alloc.Handle, 0, sets)
	for i := range sets {
		rec, err := New(a, fmt.Appendf(nil, "iset:%d", i), []byte("0"), members, 0)
		if err != nil {
			t.Fatal(err)
		}
		for j := range members {
			if _, err := AddInt(a, rec, int64(i+j*sets)); err != nil {
				t.Fatal(err)
			}
		}
		if Encoding(a, rec) != object.EncIntset {
			t.Fatal("not an intset")
		}
		recs = append(recs, rec)
	}
	per := float64(a.Used()) / (sets * members)
	t.Logf("%d sets of %d integers: %.3f bytes per member (target 4.2)", sets, members, per)
	if per > 4.2 {
		t.Errorf("%.3f bytes per member, more than 4.2", per)
	}
	for _, rec := range recs {
		object.Free(a, rec)
	}
	if a.Used() != 0 {
		t.Fatalf("Used() = %d after Free", a.Used())
	}
}
