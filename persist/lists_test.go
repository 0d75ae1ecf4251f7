package persist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
)

func putList(t testing.TB, ks *keyspace.Keyspace, db int, key string, expire int64, elems ...string) {
	t.Helper()
	s := ks.Shard(ks.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	h, err := listval.New(s.Arena(), []byte(key), expire)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range elems {
		if err := listval.PushTail(s.Arena(), h, []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.InsertLocked(db, []byte(key), h); err != nil {
		t.Fatal(err)
	}
}

// listContents is a list's elements in order, and its node shapes ("|" between nodes, "P" for a
// plain node), as one string.
func listContents(a *alloc.Arena, h alloc.Handle) string {
	var elems []string
	listval.Each(a, h, nil, func(e []byte) bool {
		if len(e) > 20 {
			elems = append(elems, fmt.Sprintf("%.8s…(%d)", e, len(e)))
		} else {
			elems = append(elems, string(e))
		}
		return true
	})
	var shape []string
	listval.Nodes(a, h, func(lp []byte, plain bool) bool {
		if plain {
			shape = append(shape, "P")
		} else {
			shape = append(shape, fmt.Sprint(listpack.Len(lp)))
		}
		return true
	})
	return strings.Join(elems, ",") + " [" + strings.Join(shape, "|") + "]"
}

func elemsN(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(prefix, i)
	}
	return out
}

// listKeyspace fills ks with lists of both encodings: small, integers, many nodes, plain nodes.
func listKeyspace(t testing.TB, ks *keyspace.Keyspace) {
	big := strings.Repeat("x", 10000)
	putList(t, ks, 0, "l:small", 0, "a", "1", "-300", "", "hello")
	putList(t, ks, 1, "l:exp", 4_000_000_000_000, "v")
	putList(t, ks, 0, "l:big", 0, elemsN("element-", 3000)...)
	putList(t, ks, 2, "l:plain", 0, big)
	putList(t, ks, 0, "l:mixed", 0, slices.Concat(elemsN("a", 10), []string{big}, elemsN("b", 700), []string{big + "!"})...)
	putList(t, ks, 0, "l:ints", 0, "0", "9223372036854775807", "-9223372036854775808", "32768", "007")
	put(t, ks, 0, "str", "plain", 0)
}

func TestListSnapshotRoundTrip(t *testing.T) {
	src := newKS(t)
	listKeyspace(t, src)
	want := describe(src)
	all := strings.Join(want, "\n")
	if !strings.Contains(all, "list/listpack") || !strings.Contains(all, "list/quicklist") || !strings.Contains(all, "|P|") {
		t.Fatalf("the dataset lacks a shape:\n%s", all)
	}
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		res, err := WriteSnapshot(src, &buf, SnapshotOptions{Compress: compress, Checksum: true})
		if err != nil || res.Keys != int64(len(want)) {
			t.Fatalf("WriteSnapshot: %v, %d keys", err, res.Keys)
		}
		types := map[byte]int{}
		rdb.Decode(bytes.NewReader(buf.Bytes()), func(e rdb.Entry) error { types[e.Type]++; return nil })
		if types[rdb.TypeListQuicklist2] != 6 {
			t.Errorf("types written: %v", types)
		}
		dst := newKS(t)
		lr, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{Workers: 3})
		if err != nil || lr.Keys != int64(len(want)) {
			t.Fatalf("Load: %v %+v", err, lr)
		}
		if got := describe(dst); !slices.Equal(got, want) {
			t.Fatalf("loaded keyspace differs:\n%s\nwant\n%s", strings.Join(got, "\n"), all)
		}
	}
}

// A list far larger than a batch loads through many batches, with other keys between.
func TestLoadBigList(t *testing.T) {
	src := newKS(t)
	n := 200000
	if invariantsBuild {
		n = 20000
	}
	putList(t, src, 0, "biglist", 0, elemsN("element-16-bytes", n)...)
	for i := range 100 {
		putList(t, src, 0, fmt.Sprint("l", i), 0, "x", fmt.Sprint(i))
	}
	var buf bytes.Buffer
	if _, err := WriteSnapshot(src, &buf, SnapshotOptions{Checksum: true}); err != nil {
		t.Fatal(err)
	}
	dst := newKS(t)
	if _, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(describe(dst), describe(src)) {
		t.Fatal("loaded keyspace differs")
	}
}

// ziplistOf writes a ziplist of short strings (under 64 bytes) as Redis 6.2 would.
func ziplistOf(elems ...string) []byte {
	b := make([]byte, 10)
	prev, last := 0, 10
	for _, e := range elems {
		last = len(b)
		b = append(append(b, byte(prev), byte(len(e))), e...)
		prev = len(b) - last
	}
	b = append(b, 0xff)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	binary.LittleEndian.PutUint32(b[4:], uint32(last))
	binary.LittleEndian.PutUint16(b[8:], uint16(len(elems)))
	return b
}

// oldList writes a list of type 14 (a ziplist per node), 10 (one ziplist) or 1 (elements).
func oldList(typ byte, key string, nodes ...[]string) []byte {
	b := rdb.AppendString(nil, rdb.Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1}, false)
	b = b[:len(b)-1] // the empty value
	b[0] = typ
	switch typ {
	case rdb.TypeListQuicklist:
		b = append(b, byte(len(nodes)))
		for _, n := range nodes {
			b = rdb.AppendElement(b, ziplistOf(n...), false)
		}
		return b
	case rdb.TypeListZiplist:
		return rdb.AppendElement(b, ziplistOf(slices.Concat(nodes...)...), false)
	}
	all := slices.Concat(nodes...)
	b = rdb.AppendCollection(nil, rdb.Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeList, uint64(len(all)), false)
	for _, e := range all {
		b = rdb.AppendElement(b, []byte(e), false)
	}
	return b
}

// listEntry writes a type-18 list of the given nodes (a node of one "P:" element is plain).
func listEntry(key string, nodes ...[]string) []byte {
	b := rdb.AppendListHead(nil, rdb.Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1}, uint64(len(nodes)), false)
	for _, n := range nodes {
		if len(n) == 1 && strings.HasPrefix(n[0], "P:") {
			b = rdb.AppendListNode(b, []byte(n[0][2:]), true, false)
			continue
		}
		lp := listpack.NewSlice(0)
		for _, e := range n {
			lp, _ = listpack.AppendSlice(lp, []byte(e))
		}
		b = rdb.AppendListNode(b, lp, false, false)
	}
	return b
}

// Redis 7.2's encodings on load: one small node (type 18, or a small type-1 list) is a listpack
// list; several nodes, a plain node or a big list a quicklist; empty nodes are dropped and a
// list with no element is skipped as an empty key.
func TestLoadListEncodings(t *testing.T) {
	big := strings.Repeat("y", 9000)
	data := rdbFile(
		listEntry("one", []string{"a", "b"}),
		listEntry("two", []string{"a"}, []string{"b"}),
		listEntry("plain", []string{"P:" + big}),
		listEntry("holes", []string{}, []string{"a"}, []string{}),
		listEntry("none", []string{}, []string{}),
		oldList(rdb.TypeList, "ll", []string{"x", "1", "y"}),
		oldList(rdb.TypeList, "llbig", elemsN("e", 200)),
		oldList(rdb.TypeListQuicklist, "ql", []string{"a", "b"}, []string{}, []string{"c"}),
		oldList(rdb.TypeListQuicklist, "qlnone", []string{}),
		oldList(rdb.TypeListZiplist, "zl", []string{"p", "q"}),
	)
	ks := newKS(t)
	res, err := Load(ks, bytes.NewReader(data), LoadOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Keys != 8 || res.Empty != 2 {
		t.Errorf("%+v", res)
	}
	got := strings.Join(describe(ks), "\n")
	want := strings.Join([]string{
		"0 holes list/listpack@0: a [1]",
		"0 ll list/listpack@0: x,1,y [3]",
		"0 llbig list/listpack@0: " + strings.Join(elemsN("e", 200), ",") + " [200]",
		"0 one list/listpack@0: a,b [2]",
		"0 plain list/quicklist@0: yyyyyyyy…(9000) [P]",
		"0 ql list/quicklist@0: a,b,c [2|1]",
		"0 two list/quicklist@0: a,b [1|1]",
		"0 zl list/listpack@0: p,q [2]",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A corrupt list fails the load and leaves nothing allocated.
func TestLoadRefusesCorruptLists(t *testing.T) {
	good := listEntry("l", []string{"a"})
	badLP := bytes.Clone(good)
	badLP[len(badLP)-2] = 0xf5 // the entry's back-length
	twoNodes := listEntry("l", elemsN("n", 300), elemsN("m", 300))
	twoNodes[len(twoNodes)-1] ^= 0x40 // the second node's terminator: the first is in the list already
	cases := map[string][]byte{
		"bad listpack":    badLP,
		"container 7":     append(bytes.Clone(good[:len("\x12\x01l\x01")]), 7, 1, 'x'),
		"missing node":    listEntry("l", []string{"a"})[:len(good)-9],
		"short elements":  rdb.AppendElement(rdb.AppendCollection(nil, rdb.Entry{Key: []byte("l"), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeList, 2, false), []byte("a"), false),
		"bad ziplist 14":  append(oldList(rdb.TypeListQuicklist, "l", []string{"a"})[:4], 3, 1, 2, 3),
		"bad after nodes": twoNodes,
	}
	for name, ent := range cases {
		ks := newKS(t)
		base := arenaUsed(ks)
		_, err := Load(ks, bytes.NewReader(rdbFile(ent)), LoadOptions{})
		if err == nil {
			t.Errorf("%s: loaded", name)
			continue
		}
		if used := arenaUsed(ks); used != base {
			t.Errorf("%s: %d bytes left allocated", name, used-base)
		}
	}
}

// RESTORE's record: a list's DUMP restores to the same elements, nodes and encoding; bad data
// is rdb.ErrDumpData with nothing left allocated.
func TestRestoreList(t *testing.T) {
	ks := newKS(t)
	listKeyspace(t, ks)
	for i := 0; i < ks.NumShards(); i++ {
		s := ks.Shard(i)
		s.Lock()
		a := s.Arena()
		for db := range ks.Databases() {
			s.EachLocked(db, func(h alloc.Handle) {
				if object.TypeOf(a, h) != object.TypeList {
					return
				}
				p := EncodeDump(a, h)
				d, ent, err := rdb.OpenDump(p)
				if err != nil || ent.Type != rdb.TypeListQuicklist2 {
					t.Fatalf("%s: %v", object.Key(a, h), err)
				}
				h2, err := NewRecord(a, []byte("copy"), d, ent, 0)
				if err != nil {
					t.Fatalf("%s: %v", object.Key(a, h), err)
				}
				if got, want := contents(a, h2), contents(a, h); got != want {
					t.Errorf("%s: restored %q, want %q", object.Key(a, h), got, want)
				}
				object.Free(a, h2)
			})
		}
		s.Unlock()
	}
	a := alloc.MustNewArena(16 << 20)
	defer a.Close()
	empty := listpack.NewSlice(0)
	for name, p := range map[string][]byte{
		"all empty":  rdb.FinishDump(rdb.AppendListNode(rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, 1), empty, false, true)),
		"truncated":  rdb.FinishDump(rdb.AppendListNode(rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, 3), []byte("P"), true, true)),
		"bad node":   rdb.FinishDump(rdb.AppendListNode(rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, 1), []byte("nope nope"), false, true)),
		"short list": rdb.FinishDump(rdb.AppendElement(rdb.AppendDumpHead(nil, rdb.TypeList, 2), []byte("a"), true)),
	} {
		base := a.Used()
		d, ent, err := rdb.OpenDump(p)
		if err == nil {
			_, err = NewRecord(a, []byte("k"), d, ent, 0)
		}
		if !errors.Is(err, rdb.ErrDumpData) {
			t.Errorf("%s: %v", name, err)
		}
		if a.Used() != base {
			t.Errorf("%s: %d bytes left", name, a.Used()-base)
		}
	}
}

// FuzzRestoreList restores list payloads whose footer is made valid for any body (so that the
// fuzzer reaches the value, not the checksum), under small node limits: as FuzzRestore.
func FuzzRestoreList(f *testing.F) {
	lp := func(elems ...string) []byte {
		b := listpack.NewSlice(0)
		for _, e := range elems {
			b, _ = listpack.AppendSlice(b, []byte(e))
		}
		return b
	}
	head := func(typ byte, n uint64) []byte { return rdb.AppendDumpHead(nil, typ, n) }
	f.Add(rdb.AppendListNode(head(rdb.TypeListQuicklist2, 1), lp("a", "1", "-7"), false, true))
	f.Add(rdb.AppendListNode(rdb.AppendListNode(rdb.AppendListNode(head(rdb.TypeListQuicklist2, 3),
		lp(elemsN("e", 9)...), false, true), []byte(strings.Repeat("p", 40)), true, true), lp(), false, true))
	f.Add(rdb.AppendElement(rdb.AppendElement(head(rdb.TypeList, 2), []byte("x"), true), []byte("12"), true))
	f.Add(rdb.AppendElement(head(rdb.TypeListQuicklist, 1), ziplistOf("a", "b", "c"), true))
	f.Add(rdb.AppendElement([]byte{rdb.TypeListZiplist}, ziplistOf(elemsN("z", 7)...), true))
	listval.SetLimits(4)
	f.Cleanup(func() { listval.SetLimits(listval.DefaultFill) })
	a := alloc.MustNewArena(1 << 30)
	f.Cleanup(a.Close)
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 0 && body[0] != rdb.TypeList && body[0] != rdb.TypeListZiplist &&
			body[0] != rdb.TypeListQuicklist && body[0] != rdb.TypeListQuicklist2 {
			return
		}
		checkRestore(t, a, rdb.FinishDump(bytes.Clone(body)))
	})
}

// BenchmarkLoadBigList loads a file of one list of 1,000,000 16-byte elements in 8 KB nodes (as
// Redis 7.2 saves it): ns/op is the whole load, allocs/op shows no Go value per element or
// node, arena-bytes/elem is the loaded list's memory per element.
func BenchmarkLoadBigList(b *testing.B) {
	const n = 1000000
	var nodes [][]byte
	lp := listpack.NewSlice(0)
	for i := range n {
		lp, _ = listpack.AppendSlice(lp, fmt.Appendf(nil, "element:%08d", i))
		if len(lp) > 8000 || i == n-1 {
			nodes = append(nodes, lp)
			lp = listpack.NewSlice(0)
		}
	}
	ent := rdb.AppendListHead(nil, rdb.Entry{Key: []byte("biglist"), ExpireMs: -1, Idle: -1, Freq: -1}, uint64(len(nodes)), true)
	for _, node := range nodes {
		ent = rdb.AppendListNode(ent, node, false, true)
	}
	data := rdbFile(ent)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var perElem float64
	for b.Loop() {
		ks, err := keyspace.New(keyspace.Options{Shards: 4, Databases: 1, ArenaReserve: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		base := arenaUsed(ks)
		if _, err := Load(ks, bytes.NewReader(data), LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		perElem = float64(arenaUsed(ks)-base) / n
		ks.Close()
	}
	b.ReportMetric(perElem, "arena-bytes/elem")
}

// A snapshot taken while lists change (pushes at the tail, pops at the head, across the
// listpack ↔ quicklist conversions) holds every list as it was at the instant.
func TestSnapshotListsUnderWrites(t *testing.T) {
	ks := newKS(t)
	const keys = 300
	for i := range keys {
		putList(t, ks, 0, fmt.Sprint("l", i), 0, elemsN("gen0-element-", 1+i*7%900)...)
	}
	want := describe(ks)
	sn := StartSnapshot(ks, SnapshotOptions{Checksum: true, Workers: 2})
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scratch [24]byte
			for i := w; !stop.Load(); i = (i + 2) % keys {
				key := []byte(fmt.Sprint("l", i))
				s := ks.Shard(ks.ShardFor(key))
				s.Lock()
				if h, ok := s.LookupFlagsLocked(0, key, keyspace.LookupForWrite); ok {
					err := listval.PushTail(s.Arena(), h, []byte(strings.Repeat("new", 1+i%40)))
					if err == nil && listval.Len(s.Arena(), h) > 1 {
						_, err = listval.Pop(s.Arena(), h, false, 1, scratch[:0], func([]byte) {})
					}
					if err != nil {
						t.Error(err)
					}
					s.UpdateLocked(0, key, h, h)
				}
				s.Unlock()
			}
		}()
	}
	var buf bytes.Buffer
	_, err := sn.Encode(&buf)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	dst := newKS(t)
	if _, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	got := describe(dst)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("the file has %.120s, the instant had %.120s", got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("the file has %d keys, the instant %d", len(got), len(want))
	}
}
