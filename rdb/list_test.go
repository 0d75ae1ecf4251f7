package rdb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/listpack"
)

// testNode is one node of a list as the tests write it: a plain node's element, or a packed
// node's elements.
type testNode struct {
	plain bool
	elems []string
}

// listHead is an entry head without expire or access clock.
func listHead(key string) Entry { return Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1} }

// appendList appends a type-18 list of nodes.
func appendList(t testing.TB, b []byte, ent Entry, nodes []testNode, compress bool) []byte {
	b = AppendListHead(b, ent, uint64(len(nodes)), compress)
	for _, n := range nodes {
		if n.plain {
			b = AppendListNode(b, []byte(n.elems[0]), true, compress)
		} else {
			b = AppendListNode(b, lpOf(t, n.elems...), false, compress)
		}
	}
	return b
}

// appendOldList appends a list of type 14 (a quicklist of ziplists, one per node), 10 (one
// ziplist of every element) or 1 (the elements).
func appendOldList(b []byte, key string, typ byte, nodes [][]string) []byte {
	b = append(b, typ)
	b = appendString(b, []byte(key), false)
	switch typ {
	case TypeListQuicklist:
		b = appendLen(b, uint64(len(nodes)))
		for _, n := range nodes {
			b = appendString(b, ziplistOf(n...), true)
		}
	case TypeListZiplist:
		return appendString(b, ziplistOf(slices.Concat(nodes...)...), true)
	case TypeList:
		all := slices.Concat(nodes...)
		b = appendLen(b, uint64(len(all)))
		for _, e := range all {
			b = appendString(b, []byte(e), true)
		}
	}
	return b
}

// rdbFile wraps entries (already encoded) in a version-11 file with a checksum.
func rdbFile(body []byte) []byte {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	e.WriteHeader()
	e.SelectDB(0)
	e.WriteRaw(body)
	e.Finish()
	return buf.Bytes()
}

// readNodes reads every node of the list entry ent.
func readNodes(d *Decoder, ent Entry) ([]testNode, error) {
	var out []testNode
	if ent.Type != TypeListQuicklist2 {
		return nil, fmt.Errorf("type %d", ent.Type)
	}
	for {
		node, plain, err := d.NextNode()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if plain {
			out = append(out, testNode{true, []string{string(node)}})
			continue
		}
		if listpack.Validate(node, true, nil) != nil {
			return out, errors.New("invalid listpack handed out")
		}
		var n testNode
		for p := listpack.First(node); p >= 0; p = listpack.Next(node, p) {
			n.elems = append(n.elems, string(listpack.AppendValue(nil, node, p)))
		}
		out = append(out, n)
	}
}

func elemsOf(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

// listDataset is lists of each shape Redis 7.2 writes: one packed node (a listpack-encoded
// list), several, plain nodes (elements over 8 KB) at either end and between packed nodes.
func listDataset() map[string][]testNode {
	big := strings.Repeat("x", 10000)
	bigInc := strings.Repeat("abcdefghij", 1000) + "!"
	return map[string][]testNode{
		"small":   {{elems: []string{"a", "1", "-300", "", "hello world"}}},
		"ints":    {{elems: []string{"0", "12", "13", "-128", "32767", "8388608", "2147483648", "-9223372036854775808"}}},
		"nodes":   {{elems: elemsOf("a", 100)}, {elems: elemsOf("b", 3)}, {elems: elemsOf("long-element-that-compresses-", 50)}},
		"plain":   {{plain: true, elems: []string{big}}},
		"mixed":   {{elems: elemsOf("a", 10)}, {plain: true, elems: []string{big}}, {elems: elemsOf("c", 5)}, {plain: true, elems: []string{bigInc}}},
		"plain-2": {{plain: true, elems: []string{bigInc}}, {plain: true, elems: []string{big}}},
	}
}

func TestListRoundTrip(t *testing.T) {
	ds := listDataset()
	for _, compress := range []bool{false, true} {
		var body []byte
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range ds {
				if !yield(k) {
					return
				}
			}
		})
		for i, k := range keys {
			ent := listHead(k)
			if i%2 == 0 {
				ent.ExpireMs = 1700000000000 + int64(i)
			}
			body = appendList(t, body, ent, ds[k], compress)
		}
		for _, reuse := range []bool{false, true} {
			d := NewDecoder(bytes.NewReader(rdbFile(body)))
			d.ReuseBuffers = reuse
			for i, k := range keys {
				ent, err := d.Next()
				if err != nil || string(ent.Key) != k || ent.Type != TypeListQuicklist2 || ent.Len != uint64(len(ds[k])) {
					t.Fatalf("compress %v reuse %v: %q %+v %v", compress, reuse, k, ent, err)
				}
				if (i%2 == 0) != (ent.ExpireMs >= 0) {
					t.Errorf("%s: expire %d", k, ent.ExpireMs)
				}
				nodes, err := readNodes(d, ent)
				if err != nil || !sameNodes(nodes, ds[k]) {
					t.Fatalf("compress %v reuse %v: %s: %v %v", compress, reuse, k, err, nodes)
				}
			}
			if _, err := d.Next(); err != io.EOF {
				t.Fatal(err)
			}
		}
		// Decode skips the nodes nobody reads.
		n := 0
		if err := Decode(bytes.NewReader(rdbFile(body)), func(Entry) error { n++; return nil }); err != nil || n != len(keys) {
			t.Fatalf("Decode: %d %v", n, err)
		}
	}
}

func sameNodes(a, b []testNode) bool {
	return slices.EqualFunc(a, b, func(x, y testNode) bool {
		return x.plain == y.plain && slices.Equal(x.elems, y.elems)
	})
}

// The bytes Redis 7.2 writes for a small list: type 18, one node, container 2, the listpack.
func TestListBytes(t *testing.T) {
	lp := lpOf(t, "a", "b")
	got := AppendListNode(AppendListHead(nil, listHead("k"), 1, true), lp, false, true)
	want := append([]byte{TypeListQuicklist2, 1, 'k', 1, containerPacked, byte(len(lp))}, lp...)
	if !bytes.Equal(got, want) {
		t.Errorf("got % x\nwant % x", got, want)
	}
	got = AppendListNode(nil, []byte("v"), true, true)
	if !bytes.Equal(got, []byte{containerPlain, 1, 'v'}) {
		t.Errorf("plain node % x", got)
	}
	// A big node is LZF-compressed when that saves space, as rdbSaveRawString does.
	blp := lpOf(t, elemsOf("same-prefix-every-time-", 200)...)
	if c := AppendListNode(nil, blp, false, true); len(c) >= len(blp) || c[1] != lenEnc<<6|encLZF {
		t.Errorf("big node not compressed: %d bytes of %d", len(c), len(blp))
	}
}

// Older dumps: type 14 (ziplist nodes, each converted to a listpack), 10 (one ziplist, read as
// elements) and 1 (elements) read as Redis 7.2 loads them.
func TestListOldEncodings(t *testing.T) {
	nodes := [][]string{elemsOf("a", 30), {"1", "-5", "70000", "x"}, elemsOf("long-element-", 300)}
	all := slices.Concat(nodes...)
	for _, typ := range []byte{TypeListQuicklist, TypeListZiplist, TypeList} {
		for _, reuse := range []bool{false, true} {
			b := appendOldList(nil, "k", typ, nodes)
			b = appendOldList(b, "k2", typ, [][]string{{"z"}})
			d := NewDecoder(bytes.NewReader(rdbFile(b)))
			d.ReuseBuffers = reuse
			ent, err := d.Next()
			if err != nil {
				t.Fatalf("type %d: %v", typ, err)
			}
			var got []string
			switch typ {
			case TypeList, TypeListZiplist: // type 10's elements are read from its ziplist
				if ent.Type != TypeList || ent.Len != uint64(len(all)) {
					t.Fatalf("type %d: %+v", typ, ent)
				}
				got, err = readElems(d, ent)
			default:
				if ent.Type != TypeListQuicklist2 || ent.Len != 3 {
					t.Fatalf("type 14: %+v", ent)
				}
				var ns []testNode
				ns, err = readNodes(d, ent)
				for i, n := range ns {
					if n.plain || !slices.Equal(n.elems, nodes[i]) {
						t.Fatalf("type 14 node %d: %v", i, n)
					}
					got = append(got, n.elems...)
				}
			}
			if err != nil || !slices.Equal(got, all) {
				t.Fatalf("type %d reuse %v: %v %v", typ, reuse, err, got)
			}
			// The second key, after the first was read whole; then one left unread.
			if ent, err = d.Next(); err != nil || string(ent.Key) != "k2" {
				t.Fatalf("type %d: second key %+v %v", typ, ent, err)
			}
			if _, err = d.Next(); err != io.EOF {
				t.Fatalf("type %d: %v", typ, err)
			}
		}
	}
}

// Empty nodes are skipped as Redis's loader skips them; a list with no element left is an empty
// key (skipped in a file, counted; RESTORE refuses it).
func TestListEmpty(t *testing.T) {
	empty := listpack.NewSlice(0)
	b := AppendListHead(nil, listHead("some"), 3, false)
	b = AppendListNode(b, empty, false, false)
	b = AppendListNode(b, lpOf(t, "a"), false, false)
	b = AppendListNode(b, empty, false, false)
	b = AppendListNode(AppendListHead(b, listHead("none"), 1, false), empty, false, false)
	b = AppendListHead(b, listHead("zero"), 0, false)
	b = appendOldList(b, "zl-empty", TypeListZiplist, nil)
	b = appendOldList(b, "ql-zero", TypeListQuicklist, nil)
	b = appendOldList(b, "ll-zero", TypeList, nil)
	b = appendOldList(b, "ql-empty-node", TypeListQuicklist, [][]string{{}, {"q"}})
	d := NewDecoder(bytes.NewReader(rdbFile(b)))
	var got []string
	for {
		ent, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		nodes, err := readNodes(d, ent)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s:%d:%v", ent.Key, ent.Len, nodes))
	}
	want := []string{"some:3:[{false [a]}]", "none:1:[]", "ql-empty-node:2:[{false [q]}]"}
	if !slices.Equal(got, want) || d.EmptyKeys != 4 {
		t.Errorf("got %q, %d empty keys", got, d.EmptyKeys)
	}
	// DUMP payloads: no node, or a count of 0.
	p := FinishDump(AppendListNode(AppendDumpHead(nil, TypeListQuicklist2, 1), empty, false, true))
	if d, ent, err := OpenDump(p); err != nil {
		t.Fatal(err)
	} else if nodes, err := readNodes(d, ent); err != nil || len(nodes) != 0 {
		t.Fatalf("%v %v", nodes, err)
	}
	if _, _, err := OpenDump(FinishDump(AppendDumpHead(nil, TypeListQuicklist2, 0))); err != ErrDumpData {
		t.Fatal(err)
	}
}

// Corrupt lists are errors (ErrCorrupt or truncation in a file, ErrDumpData in a payload),
// never a panic; good keys before them are read.
func TestListCorrupt(t *testing.T) {
	lp := lpOf(t, "a", "b", "c")
	badCount := bytes.Clone(lp)
	badCount[4] = 7 // the header says 7 entries
	badEntry := bytes.Clone(lp)
	badEntry[listpack.HeaderSize] = 0xf5 // a reserved encoding
	zl := ziplistOf("a", "b")
	badZl := bytes.Clone(zl)
	badZl[8] = 9 // count
	head := func(n uint64) []byte { return AppendListHead(nil, listHead("k"), n, false) }
	cases := map[string][]byte{
		"container 0":     appendString(appendLen(head(1), 0), lp, false),
		"container 3":     appendString(appendLen(head(1), 3), lp, false),
		"empty packed":    appendString(appendLen(head(1), containerPacked), nil, false),
		"empty plain":     AppendListNode(head(1), nil, true, false),
		"bad count":       AppendListNode(head(1), badCount, false, false),
		"bad entry":       AppendListNode(head(1), badEntry, false, false),
		"not a listpack":  AppendListNode(head(1), []byte("hello world"), false, false),
		"ziplist in 18":   AppendListNode(head(1), zl, false, false),
		"missing node":    AppendListNode(head(2), lp, false, false),
		"encoded count":   append(AppendListHead(nil, listHead("k"), 0, false)[:3], lenEnc<<6|encInt8, 5),
		"ziplist 14 bad":  appendString(appendLen(appendString([]byte{TypeListQuicklist}, []byte("k"), false), 1), badZl, false),
		"ziplist 10 bad":  appendString(appendString([]byte{TypeListZiplist}, []byte("k"), false), badZl, false),
		"listpack in 14":  appendString(appendLen(appendString([]byte{TypeListQuicklist}, []byte("k"), false), 1), lp, false),
		"ll missing elem": appendString(appendLen(appendString([]byte{TypeList}, []byte("k"), false), 2), []byte("a"), false),
	}
	for name, body := range cases {
		good := appendList(t, nil, listHead("good"), []testNode{{elems: []string{"g"}}}, false)
		file := rdbFile(append(good, body...))
		for _, reuse := range []bool{false, true} {
			d := NewDecoder(bytes.NewReader(file))
			d.ReuseBuffers = reuse
			vals, err := readAll(d)
			if err == nil || len(vals) != 1 || vals[0] != "good" {
				t.Errorf("%s reuse %v: %v, %q", name, reuse, err, vals)
			}
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s: error %v", name, err)
			}
			// Decode, which skips the nodes, finds the same.
			if err := Decode(bytes.NewReader(file), func(Entry) error { return nil }); err == nil {
				t.Errorf("%s: Decode accepted it", name)
			}
		}
		// As a DUMP payload (the key removed): ErrDumpData from OpenDump or the node reads.
		p := FinishDump(dumpBody(body))
		d, ent, err := OpenDump(p)
		if err == nil {
			if ent.Type == TypeList {
				_, err = readElems(d, ent)
			} else {
				_, err = readNodes(d, ent)
			}
		}
		if err != ErrDumpData {
			t.Errorf("%s: dump %v", name, err)
		}
	}
}

// dumpBody makes an entry written with key "k" (no expire) a DUMP payload's body: the type and
// the value.
func dumpBody(entry []byte) []byte {
	return append([]byte{entry[0]}, entry[3:]...)
}

// readAll reads the keys of d with their nodes or elements, until an error or the end.
func readAll(d *Decoder) ([]string, error) {
	var keys []string
	for {
		ent, err := d.Next()
		if err == io.EOF {
			return keys, nil
		}
		if err != nil {
			return keys, err
		}
		if ent.Type == TypeListQuicklist2 {
			_, err = readNodes(d, ent)
		} else {
			_, err = readElems(d, ent)
		}
		if err != nil {
			return keys, err
		}
		keys = append(keys, string(ent.Key))
	}
}

func TestDumpList(t *testing.T) {
	for name, nodes := range listDataset() {
		b := AppendDumpHead(nil, TypeListQuicklist2, uint64(len(nodes)))
		for _, n := range nodes {
			if n.plain {
				b = AppendListNode(b, []byte(n.elems[0]), true, true)
			} else {
				b = AppendListNode(b, lpOf(t, n.elems...), false, true)
			}
		}
		p := FinishDump(b)
		// The same bytes as the entry written in a file, without its key.
		if e := appendList(t, nil, listHead("k"), nodes, true); !bytes.Equal(dumpBody(e), p[:len(p)-10]) {
			t.Errorf("%s: payload differs from the file's value", name)
		}
		d, ent, err := OpenDump(p)
		if err != nil || ent.Type != TypeListQuicklist2 {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := readNodes(d, ent)
		if err != nil || !sameNodes(got, nodes) {
			t.Errorf("%s: %v %v", name, err, got)
		}
		if _, err := DecodeDump(p); !errors.As(err, new(*UnsupportedTypeError)) {
			t.Errorf("%s: DecodeDump: %v", name, err)
		}
	}
	// Older list types in a payload, as Redis 7.2's RESTORE takes them.
	for _, typ := range []byte{TypeList, TypeListZiplist, TypeListQuicklist} {
		p := FinishDump(dumpBody(appendOldList(nil, "k", typ, [][]string{{"a", "1"}, {"b"}})))
		d, ent, err := OpenDump(p)
		if err != nil {
			t.Fatalf("type %d: %v", typ, err)
		}
		if got, err := readElems(d, ent); err != nil || !slices.Equal(got, []string{"a", "1", "b"}) {
			t.Errorf("type %d: %v %v", typ, got, err)
		}
	}
}

// A list of 1,000,000 elements decodes a node at a time: no Go value per element, a few
// allocations per node at most.
func TestStreamingBigList(t *testing.T) {
	const n, per = 1000000, 500
	b := []byte("REDIS0011")
	b = AppendListHead(b, listHead("big"), n/per, true)
	elems := elemsOf("element-16-bytes", per)
	for range n / per {
		b = AppendListNode(b, lpOf(t, elems...), false, true)
	}
	b = append(b, opEOF, 0, 0, 0, 0, 0, 0, 0, 0)
	d := NewDecoder(bytes.NewReader(b))
	d.ReuseBuffers = true
	ent, err := d.Next()
	if err != nil || ent.Type != TypeListQuicklist2 || ent.Len != n/per {
		t.Fatalf("%+v %v", ent, err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	count := 0
	for {
		node, _, err := d.NextNode()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		count += listpack.Len(node)
	}
	runtime.ReadMemStats(&after)
	if count != n {
		t.Fatalf("read %d elements", count)
	}
	if allocs := after.Mallocs - before.Mallocs; allocs > 100 {
		t.Errorf("%d allocations for %d nodes", allocs, n/per)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Fatal(err)
	}
}

// A huge declared node count allocates nothing for it: reading stops at the end.
func TestHugeDeclaredNodes(t *testing.T) {
	p := FinishDump(AppendListNode(AppendDumpHead(nil, TypeListQuicklist2, 1<<62), lpOf(t, "a"), false, true))
	d, ent, err := OpenDump(p)
	if err != nil || ent.Len != 1<<62 {
		t.Fatal(err)
	}
	if _, err := readNodes(d, ent); err != ErrDumpData {
		t.Fatal(err)
	}
}

// FuzzDecodeList decodes lists of every type: the same with and without reused buffers, every
// packed node handed out a valid listpack, no panic.
func FuzzDecodeList(f *testing.F) {
	ds := listDataset()
	for _, k := range []string{"small", "ints", "mixed"} {
		f.Add(rdbFile(appendList(f, nil, listHead(k), ds[k], true)))
		f.Add(rdbFile(appendList(f, nil, listHead(k), ds[k], false)))
	}
	f.Add(rdbFile(appendList(f, nil, listHead("n"), ds["nodes"], false)))
	for _, typ := range []byte{TypeList, TypeListZiplist, TypeListQuicklist} {
		f.Add(rdbFile(appendOldList(nil, "o", typ, [][]string{{"a", "12", "-70000"}, {}, {"b"}})))
		f.Add(FinishDump(dumpBody(appendOldList(nil, "k", typ, [][]string{{"x", "1"}}))))
	}
	f.Add(FinishDump(AppendListNode(AppendDumpHead(nil, TypeListQuicklist2, 1), lpOf(f, "a", "b"), false, true)))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, _, wantErr := decodeValues(data, false)
		got, _, gotErr := decodeValues(data, true)
		if (wantErr == nil) != (gotErr == nil) || len(got) != len(want) {
			t.Fatalf("reused buffers: %d, %v; without: %d, %v", len(got), gotErr, len(want), wantErr)
		}
		for i := range got {
			if !slices.Equal(got[i].elems, want[i].elems) || !bytes.Equal(got[i].ent.Key, want[i].ent.Key) {
				t.Fatalf("entry %d differs with reused buffers", i)
			}
		}
		d := NewDecoder(bytes.NewReader(data))
		d.ReuseBuffers = true
		readAll(d) // readNodes fails on an invalid packed node
		if d, ent, err := OpenDump(data); err == nil {
			if ent.Type == TypeListQuicklist2 {
				if _, err := readNodes(d, ent); err != nil && err != ErrDumpData {
					t.Fatal(err)
				}
			} else {
				readElems(d, ent)
			}
		}
	})
}

// FuzzListZiplist checks the list ziplist reader against the writer: what it accepts converts
// to a valid listpack of the same elements, and arbitrary bytes never panic.
func FuzzListZiplist(f *testing.F) {
	f.Add([]byte("a\x001\x00bb\x00-300\x00" + strings.Repeat("y", 300)))
	f.Add([]byte("\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		elems := strings.Split(string(data), "\x00")
		lp, n, err := ziplistToListpack(ziplistOf(elems...), nil, "list", nil)
		if err != nil || n != len(elems) || listpack.Validate(lp, true, nil) != nil {
			t.Fatalf("ziplist of %q: %d %v", elems, n, err)
		}
		var got []string
		for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
			got = append(got, string(listpack.AppendValue(nil, lp, p)))
		}
		if !slices.Equal(got, elems) {
			t.Fatalf("%q became %q", elems, got)
		}
		if lp, _, err := ziplistToListpack(data, nil, "list", nil); err == nil && listpack.Validate(lp, true, nil) != nil {
			t.Fatal("invalid listpack from a ziplist")
		}
	})
}
