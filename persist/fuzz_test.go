package persist

import (
	"slices"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/setval"
)

// FuzzRestore feeds DUMP payloads to RESTORE's record building: never a panic; a payload
// accepted gives a sound record (hashval.Check) whose DUMP restores to the same contents; a
// refused one leaves nothing allocated.
func FuzzRestore(f *testing.F) {
	lp := func(elems ...string) []byte {
		b := listpack.NewSlice(0)
		for _, e := range elems {
			b, _ = listpack.AppendSlice(b, []byte(e))
		}
		return b
	}
	elemsPayload := func(typ byte, n uint64, elems ...string) []byte {
		b := rdb.AppendDumpHead(nil, typ, n)
		for _, e := range elems {
			b = rdb.AppendElement(b, []byte(e), true)
		}
		return rdb.FinishDump(b)
	}
	f.Add(rdb.EncodeDumpBlob(rdb.TypeHashListpack, lp("a", "1", "b", "2")))
	f.Add(rdb.EncodeDumpBlob(rdb.TypeSetListpack, lp("a", "1", "-7")))
	f.Add(rdb.EncodeDumpBlob(rdb.TypeSetIntset, []byte("\x02\x00\x00\x00\x02\x00\x00\x00\x01\x00\x05\x00")))
	f.Add(elemsPayload(rdb.TypeHash, 2, "f", "v", "g", "0123456789012345678901234567890123456789012345678901234567890123456789"))
	f.Add(elemsPayload(rdb.TypeSet, 3, "1", "x", "3"))
	f.Add(elemsPayload(rdb.TypeSet, 2, "1", "1"))
	hashval.SetLimits(8, 16) // small limits: conversions happen within small inputs
	setval.SetLimits(8, 4, 16)
	f.Cleanup(func() {
		hashval.SetLimits(512, 64)
		setval.SetLimits(512, 128, 64)
	})
	a := alloc.MustNewArena(1 << 30)
	f.Cleanup(a.Close)
	f.Fuzz(func(t *testing.T, payload []byte) {
		base := a.Used()
		d, ent, err := rdb.OpenDump(payload)
		if err != nil || ent.Type == rdb.TypeString {
			return
		}
		h, err := NewRecord(a, []byte("k"), d, ent, 0)
		if err != nil {
			if used := a.Used(); used != base {
				t.Fatalf("refused payload left %d bytes", used-base)
			}
			return
		}
		defer object.Free(a, h)
		if object.TypeOf(a, h) == object.TypeHash {
			if err := hashval.Check(a, h); err != nil {
				t.Fatal(err)
			}
		}
		again := EncodeDump(a, h)
		d2, ent2, err := rdb.OpenDump(again)
		if err != nil {
			t.Fatalf("our DUMP does not open: %v", err)
		}
		h2, err := NewRecord(a, []byte("k2"), d2, ent2, 0)
		if err != nil {
			t.Fatalf("our DUMP does not restore: %v", err)
		}
		defer object.Free(a, h2)
		if got, want := contents(a, h2), contents(a, h); got != want {
			t.Fatalf("restored %q, want %q", got, want)
		}
	})
}

// contents is a record's encoding and sorted elements, as one string.
func contents(a *alloc.Arena, h alloc.Handle) string {
	var elems []string
	if object.TypeOf(a, h) == object.TypeHash {
		hashval.Each(a, h, nil, func(f, v []byte) bool {
			elems = append(elems, string(f)+"="+string(v))
			return true
		})
	} else {
		setval.Each(a, h, nil, func(m []byte) bool {
			elems = append(elems, string(m))
			return true
		})
	}
	slices.Sort(elems)
	enc, _ := object.Root(a, h)
	return enc.Name() + ": " + strings.Join(elems, ",")
}
