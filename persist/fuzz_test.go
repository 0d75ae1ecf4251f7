package persist

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/setval"
	"github.com/kvserver/kvserver/zsetval"
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
	f.Add(elemsPayload(rdb.TypeList, 3, "1", "x", "1"))
	node := func(b []byte, lp []byte, plain bool) []byte { return rdb.AppendListNode(b, lp, plain, true) }
	f.Add(rdb.FinishDump(node(rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, 1), lp("a", "1", "-7"), false)))
	f.Add(rdb.FinishDump(node(node(node(rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, 3), lp("a", "b", "c", "d", "e", "f"), false),
		[]byte(strings.Repeat("p", 40)), true), lp(), false)))
	f.Add(rdb.EncodeDumpBlob(rdb.TypeZSetListpack, lp("a", "1", "b", "2.5", "-3", "inf")))
	zpairs := func(n uint64, pairs ...zp) []byte {
		b := rdb.AppendDumpHead(nil, rdb.TypeZSet2, n)
		for _, p := range pairs {
			b = rdb.AppendZSetMember(b, []byte(p.m), p.s, true)
		}
		return rdb.FinishDump(b)
	}
	f.Add(zpairs(3, zp{"c", 3}, zp{"b", 2}, zp{"a", -1.5}))
	f.Add(zpairs(2, zp{"a", 3}, zp{"a", 2}))
	f.Add(zpairs(1, zp{strings.Repeat("q", 20), 1e300}))
	hashval.SetLimits(8, 16) // small limits: conversions happen within small inputs
	setval.SetLimits(8, 4, 16)
	listval.SetLimits(4)
	zsetval.SetLimits(4, 16)
	f.Cleanup(func() {
		zsetval.SetLimits(zsetval.DefaultMaxListpackEntries, zsetval.DefaultMaxListpackValue)
		listval.SetLimits(listval.DefaultFill)
		hashval.SetLimits(512, 64)
		setval.SetLimits(512, 128, 64)
	})
	a := alloc.MustNewArena(1 << 30)
	f.Cleanup(a.Close)
	f.Fuzz(func(t *testing.T, payload []byte) { checkRestore(t, a, payload) })
}

// checkRestore restores payload into a: never a panic; a payload accepted gives a sound record
// whose DUMP restores to the same contents; a refused one leaves nothing allocated.
func checkRestore(t *testing.T, a *alloc.Arena, payload []byte) {
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
	if object.TypeOf(a, h) == object.TypeList {
		if err := listval.Check(a, h); err != nil {
			t.Fatal(err)
		}
	}
	if object.TypeOf(a, h) == object.TypeZSet {
		if err := zsetval.Check(a, h); err != nil {
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
}

// contents is a record's encoding and sorted elements, as one string.
func contents(a *alloc.Arena, h alloc.Handle) string {
	var elems []string
	if object.TypeOf(a, h) == object.TypeList {
		enc, _ := object.Root(a, h)
		return enc.Name() + ": " + listContents(a, h)
	}
	if object.TypeOf(a, h) == object.TypeZSet {
		enc, _ := object.Root(a, h)
		return enc.Name() + ": " + zsetContents(a, h)
	}
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

// FuzzLoad loads arbitrary files with hashes and sets: never a panic; a file that loads saves
// and loads again to the same keyspace.
func FuzzLoad(f *testing.F) {
	src := newSmallKS(f)
	putHash(f, src, 0, "h", 0, "a", "1", "b", "2")
	putHash(f, src, 1, "hl", 0, "f", strings.Repeat("x", 70))
	putSet(f, src, 0, "si", 0, "1", "2", "3")
	putSet(f, src, 0, "sl", 5_000_000_000_000, "a", "b")
	putSet(f, src, 0, "sh", 0, "a", strings.Repeat("y", 70))
	putList(f, src, 0, "l", 0, "a", "1", "b")
	putList(f, src, 1, "lq", 0, "a", strings.Repeat("z", 9000), "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n")
	putZSet(f, src, 0, "z", 0, zp{"a", 1}, zp{"b", -2.5}, zp{"12", 3})
	put(f, src, 0, "s", "v", 0)
	var buf bytes.Buffer
	if _, err := WriteSnapshot(src, &buf, SnapshotOptions{Compress: true, Checksum: false}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(rdbFile(zsetEntry5("z5", 3, zp{"c", 3}, zp{"b", 2}, zp{"a", -1.5}), zsetEntry17("z17", "a", "1", "b", "2.5")))
	f.Fuzz(func(t *testing.T, data []byte) {
		ks := newSmallKS(t)
		if _, err := Load(ks, bytes.NewReader(data), LoadOptions{Workers: 2}); err != nil {
			return
		}
		var again bytes.Buffer
		if _, err := WriteSnapshot(ks, &again, SnapshotOptions{Checksum: true}); err != nil {
			t.Fatal(err)
		}
		ks2 := newSmallKS(t)
		if _, err := Load(ks2, bytes.NewReader(again.Bytes()), LoadOptions{}); err != nil {
			t.Fatalf("our own save does not load: %v", err)
		}
		if !slices.Equal(describe(ks), describe(ks2)) {
			t.Fatal("reloaded keyspace differs")
		}
	})
}

// newSmallKS is a keyspace of two shards with small arenas, for fuzzing.
func newSmallKS(t testing.TB) *keyspace.Keyspace {
	t.Helper()
	ks, err := keyspace.New(keyspace.Options{Shards: 2, Databases: 4, ArenaReserve: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	return ks
}
