package rdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/listpack"
)

// testValue is a hash or set as the tests write it: its elements (a hash: field, value, …) and
// the form it is written in.
type testValue struct {
	key   string
	typ   byte // TypeHash, TypeSet, TypeHashListpack, TypeSetListpack, TypeSetIntset, or the old ones
	elems []string
	exp   int64
}

// blobOf is the value's bytes in its blob form.
func (v testValue) blob(t testing.TB) []byte {
	switch v.typ {
	case TypeHashListpack, TypeSetListpack:
		return lpOf(t, v.elems...)
	case TypeSetIntset:
		return intsetOf(t, v.elems...)
	case TypeHashZiplist:
		return ziplistOf(v.elems...)
	case TypeHashZipmap:
		return zipmapOf(v.elems...)
	}
	return nil
}

func lpOf(t testing.TB, elems ...string) []byte {
	lp := listpack.NewSlice(0)
	for _, e := range elems {
		var err error
		if lp, err = listpack.AppendSlice(lp, []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	return lp
}

// intsetOf builds an intset of decimal members, in the smallest encoding that holds them.
func intsetOf(t testing.TB, elems ...string) []byte {
	var vs []int64
	enc := 2
	for _, e := range elems {
		v, err := strconv.ParseInt(e, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
		switch {
		case v < -1<<31 || v >= 1<<31:
			enc = 8
		case (v < -1<<15 || v >= 1<<15) && enc < 4:
			enc = 4
		}
	}
	slices.Sort(vs)
	b := binary.LittleEndian.AppendUint32(nil, uint32(enc))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(vs)))
	for _, v := range vs {
		switch enc {
		case 2:
			b = binary.LittleEndian.AppendUint16(b, uint16(v))
		case 4:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		default:
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
	}
	return b
}

// ziplistOf writes a ziplist as Redis 6.2 would: integers in their smallest encoding.
func ziplistOf(elems ...string) []byte {
	b := make([]byte, zlHeader)
	prev, last := 0, zlHeader
	for _, e := range elems {
		start := len(b)
		if prev < 254 {
			b = append(b, byte(prev))
		} else {
			b = binary.LittleEndian.AppendUint32(append(b, 254), uint32(prev))
		}
		if v, err := strconv.ParseInt(e, 10, 64); err == nil && strconv.FormatInt(v, 10) == e {
			switch {
			case v >= 0 && v <= 12:
				b = append(b, 0xf1+byte(v))
			case v >= -128 && v <= 127:
				b = append(b, 0xfe, byte(v))
			case v >= -1<<15 && v < 1<<15:
				b = binary.LittleEndian.AppendUint16(append(b, 0xc0), uint16(v))
			case v >= -1<<23 && v < 1<<23:
				b = append(b, 0xf0, byte(v), byte(v>>8), byte(v>>16))
			case v >= -1<<31 && v < 1<<31:
				b = binary.LittleEndian.AppendUint32(append(b, 0xd0), uint32(v))
			default:
				b = binary.LittleEndian.AppendUint64(append(b, 0xe0), uint64(v))
			}
		} else {
			switch n := len(e); {
			case n < 64:
				b = append(b, byte(n))
			case n < 1<<14:
				b = append(b, 0x40|byte(n>>8), byte(n))
			default:
				b = binary.BigEndian.AppendUint32(append(b, 0x80), uint32(n))
			}
			b = append(b, e...)
		}
		last, prev = start, len(b)-start
	}
	b = append(b, zlEnd)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	binary.LittleEndian.PutUint32(b[4:], uint32(last))
	binary.LittleEndian.PutUint16(b[8:], uint16(min(len(elems), zlLenUnkwn)))
	return b
}

// zipmapOf writes a zipmap of pairs, each value followed by 2 free bytes.
func zipmapOf(elems ...string) []byte {
	b := []byte{byte(min(len(elems)/2, 254))}
	zlen := func(n int) {
		if n < 254 {
			b = append(b, byte(n))
		} else {
			b = binary.LittleEndian.AppendUint32(append(b, 254), uint32(n))
		}
	}
	for i := 0; i+1 < len(elems); i += 2 {
		zlen(len(elems[i]))
		b = append(b, elems[i]...)
		zlen(len(elems[i+1]))
		b = append(b, 2)
		b = append(b, elems[i+1]...)
		b = append(b, 'x', 'y')
	}
	return append(b, zmEnd)
}

// appendTestValue appends v as an RDB entry.
func appendTestValue(t testing.TB, b []byte, v testValue, compress bool) []byte {
	ent := Entry{Key: []byte(v.key), ExpireMs: v.exp, Idle: -1, Freq: -1}
	switch v.typ {
	case TypeHash, TypeSet:
		n := len(v.elems)
		if v.typ == TypeHash {
			n /= 2
		}
		b = AppendCollection(b, ent, v.typ, uint64(n), compress)
		for _, e := range v.elems {
			b = AppendElement(b, []byte(e), compress)
		}
		return b
	}
	return AppendBlob(b, ent, v.typ, v.blob(t), compress)
}

func encodeValues(t testing.TB, vals []testValue, compress bool) []byte {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	e.Compress = compress
	e.WriteHeader()
	e.WriteStandardAux("7.2.0", 1700000000, 1)
	e.SelectDB(0)
	e.WriteString(Entry{Key: []byte("str"), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1})
	for _, v := range vals {
		e.WriteRaw(appendTestValue(t, nil, v, compress))
	}
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readElems reads every element of ent from d, as strings (a hash: field, value, …; a sorted
// set: member, score, …).
func readElems(d *Decoder, ent Entry) ([]string, error) {
	var out []string
	switch ent.Type {
	case TypeHash:
		for {
			f, v, err := d.NextPair()
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return out, err
			}
			out = append(out, string(f), string(v))
		}
	case TypeListQuicklist2:
		for {
			node, plain, err := d.NextNode()
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return out, err
			}
			if plain {
				out = append(out, string(node))
				continue
			}
			for p := listpack.First(node); p >= 0; p = listpack.Next(node, p) {
				out = append(out, string(listpack.AppendValue(nil, node, p)))
			}
		}
	case TypeSet, TypeList:
		for {
			next := d.NextMember
			if ent.Type == TypeList {
				next = d.NextListElem
			}
			m, err := next()
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return out, err
			}
			out = append(out, string(m))
		}
	case TypeZSet2:
		for {
			m, score, err := d.NextZSetMember()
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return out, err
			}
			out = append(out, string(m), strconv.FormatFloat(score, 'g', -1, 64))
		}
	case TypeHashListpack, TypeSetListpack, TypeZSetListpack:
		for p := listpack.First(ent.Value); p >= 0; p = listpack.Next(ent.Value, p) {
			out = append(out, string(listpack.AppendValue(nil, ent.Value, p)))
		}
	case TypeSetIntset:
		n := int(binary.LittleEndian.Uint32(ent.Value[4:]))
		enc := int(binary.LittleEndian.Uint32(ent.Value))
		for i := range n {
			var v int64
			x := ent.Value[8+i*enc:]
			switch enc {
			case 2:
				v = int64(int16(binary.LittleEndian.Uint16(x)))
			case 4:
				v = int64(int32(binary.LittleEndian.Uint32(x)))
			default:
				v = int64(binary.LittleEndian.Uint64(x))
			}
			out = append(out, strconv.FormatInt(v, 10))
		}
	default:
		out = append(out, string(ent.Value))
	}
	return out, nil
}

// decodedValue is an entry with its elements read.
type decodedValue struct {
	ent   Entry
	elems []string
}

func decodeValues(data []byte, reuse bool) ([]decodedValue, *Decoder, error) {
	d := NewDecoder(bytes.NewReader(data))
	d.ReuseBuffers = reuse
	var out []decodedValue
	for {
		ent, err := d.Next()
		if err == io.EOF {
			return out, d, nil
		}
		if err != nil {
			return out, d, err
		}
		elems, err := readElems(d, ent)
		if err != nil {
			return out, d, err
		}
		ent.Key, ent.Value = bytes.Clone(ent.Key), bytes.Clone(ent.Value)
		out = append(out, decodedValue{ent, elems})
	}
}

func hashSetDataset() []testValue {
	var big, bigSet, ints, manyInts []string
	for i := range 1000 {
		big = append(big, fmt.Sprintf("field:%d", i), strings.Repeat("v", i%100))
		bigSet = append(bigSet, fmt.Sprintf("member:%d", i))
		manyInts = append(manyInts, strconv.Itoa(i*70000-3000000))
	}
	for i := range 50 {
		ints = append(ints, strconv.Itoa(i*3-20))
	}
	return []testValue{
		{key: "h:lp", typ: TypeHashListpack, elems: []string{"a", "1", "b", "hello", "123", "-5", "c", ""}, exp: -1},
		{key: "h:lp:exp", typ: TypeHashListpack, elems: []string{"f", "v"}, exp: 4102444800000},
		{key: "h:ht", typ: TypeHash, elems: big, exp: -1},
		{key: "h:ht:small", typ: TypeHash, elems: []string{"x", strings.Repeat("long value ", 10), "7", "8"}, exp: 4102444800001},
		{key: "s:is", typ: TypeSetIntset, elems: ints, exp: -1},
		{key: "s:is:32", typ: TypeSetIntset, elems: []string{"1", "70000", "-70000"}, exp: -1},
		{key: "s:is:64", typ: TypeSetIntset, elems: manyInts[:3], exp: -1},
		{key: "s:is:64b", typ: TypeSetIntset, elems: []string{"9223372036854775807", "-9223372036854775808"}, exp: -1},
		{key: "s:lp", typ: TypeSetListpack, elems: []string{"a", "b", "12", "-9"}, exp: -1},
		{key: "s:ht", typ: TypeSet, elems: bigSet, exp: -1},
		{key: "s:ht:ints", typ: TypeSet, elems: manyInts, exp: 4102444800002},
		{key: "h:zl", typ: TypeHashZiplist, elems: []string{"a", "1", "bb", "-300", "ccc", "70000", "d", "9000000",
			"e", "-2147483649", "f", strings.Repeat("z", 100), "12", "-128", "g", strings.Repeat("w", 20000)}, exp: -1},
		{key: "h:zm", typ: TypeHashZipmap, elems: []string{"name", "redis", "n", "12", "big", strings.Repeat("q", 300)}, exp: -1},
	}
}

// wantElems is what decoding v gives: intsets sorted, the rest in order.
func wantElems(v testValue) []string {
	if v.typ == TypeSetIntset {
		vs := make([]int64, len(v.elems))
		for i, e := range v.elems {
			vs[i], _ = strconv.ParseInt(e, 10, 64)
		}
		slices.Sort(vs)
		out := make([]string, len(vs))
		for i, x := range vs {
			out[i] = strconv.FormatInt(x, 10)
		}
		return out
	}
	return v.elems
}

func wantType(typ byte) byte {
	switch typ {
	case TypeHashZiplist:
		return TypeHashListpack
	case TypeHashZipmap:
		return TypeHash
	}
	return typ
}

func TestHashSetRoundTrip(t *testing.T) {
	ds := hashSetDataset()
	for _, compress := range []bool{false, true} {
		for _, reuse := range []bool{false, true} {
			data := encodeValues(t, ds, compress)
			got, _, err := decodeValues(data, reuse)
			if err != nil {
				t.Fatalf("compress %v reuse %v: %v", compress, reuse, err)
			}
			if len(got) != len(ds)+1 || string(got[0].ent.Value) != "v" {
				t.Fatalf("got %d entries", len(got))
			}
			for i, v := range ds {
				g := got[i+1]
				if string(g.ent.Key) != v.key || g.ent.Type != wantType(v.typ) || g.ent.ExpireMs != v.exp {
					t.Errorf("%s: key %q type %d exp %d", v.key, g.ent.Key, g.ent.Type, g.ent.ExpireMs)
				}
				want := wantElems(v)
				if !slices.Equal(g.elems, want) {
					t.Errorf("%s: elements differ: %d vs %d", v.key, len(g.elems), len(want))
				}
				n := uint64(len(want))
				if v.typ == TypeHash || v.typ == TypeHashListpack || v.typ == TypeHashZiplist || v.typ == TypeHashZipmap {
					n /= 2
				}
				if g.ent.Len != n {
					t.Errorf("%s: Len %d want %d", v.key, g.ent.Len, n)
				}
			}
		}
	}
}

// A ziplist hash loads as the listpack Redis 7 converts it to, byte for byte.
func TestZiplistConversion(t *testing.T) {
	for _, v := range hashSetDataset() {
		if v.typ != TypeHashZiplist {
			continue
		}
		lp, n, err := ziplistPairsToListpack(v.blob(t), nil)
		if err != nil || n != len(v.elems)/2 || !bytes.Equal(lp, lpOf(t, v.elems...)) {
			t.Fatalf("conversion: %d pairs, %v", n, err)
		}
	}
	// More than 65535 entries: the header's count is unknown, the walk counts.
	var elems []string
	for i := range 40000 {
		elems = append(elems, fmt.Sprint("f", i), fmt.Sprint(i))
	}
	lp, n, err := ziplistPairsToListpack(ziplistOf(elems...), nil)
	if err != nil || n != 40000 || !bytes.Equal(lp, lpOf(t, elems...)) {
		t.Fatalf("big ziplist: %d, %v", n, err)
	}
}

// Reading only some elements, or none, leaves the decoder at the next key.
func TestPartialElements(t *testing.T) {
	data := encodeValues(t, hashSetDataset(), true)
	for _, reuse := range []bool{false, true} {
		d := NewDecoder(bytes.NewReader(data))
		d.ReuseBuffers = reuse
		var keys []string
		for i := 0; ; i++ {
			ent, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, string(ent.Key))
			if i%2 == 0 {
				d.NextPair()
				d.NextMember()
			}
		}
		if len(keys) != len(hashSetDataset())+1 {
			t.Fatalf("reuse %v: keys %v", reuse, keys)
		}
	}
}

func TestCollectionCorrupt(t *testing.T) {
	type c struct {
		name string
		v    testValue
		blob []byte
	}
	dupHash := lpOf(t, "a", "1", "a", "2")
	oddHash := lpOf(t, "a", "1", "b")
	dupSet := lpOf(t, "x", "y", "x")
	unsorted := intsetOf(t, "1", "2")
	unsorted[8], unsorted[10] = 2, 1
	zlDup := ziplistOf("a", "1", "a", "2")
	zlOdd := ziplistOf("a", "1", "b")
	zlTail := ziplistOf("a", "1")
	zlTail[4]++
	zlCount := ziplistOf("a", "1")
	zlCount[8] = 3
	zmDup := zipmapOf("a", "1", "a", "2")
	zmCount := zipmapOf("a", "1")
	zmCount[0] = 2
	cases := []c{
		{"hash listpack dup", testValue{typ: TypeHashListpack}, dupHash},
		{"hash listpack odd", testValue{typ: TypeHashListpack}, oddHash},
		{"set listpack dup", testValue{typ: TypeSetListpack}, dupSet},
		{"intset unsorted", testValue{typ: TypeSetIntset}, unsorted},
		{"intset empty", testValue{typ: TypeSetIntset}, intsetOf(t)},
		{"ziplist dup", testValue{typ: TypeHashZiplist}, zlDup},
		{"ziplist odd", testValue{typ: TypeHashZiplist}, zlOdd},
		{"ziplist tail", testValue{typ: TypeHashZiplist}, zlTail},
		{"ziplist count", testValue{typ: TypeHashZiplist}, zlCount},
		{"zipmap dup", testValue{typ: TypeHashZipmap}, zmDup},
		{"zipmap count", testValue{typ: TypeHashZipmap}, zmCount},
		{"listpack short", testValue{typ: TypeHashListpack}, dupHash[:5]},
	}
	for _, c := range cases {
		b := []byte("REDIS0011")
		b = AppendBlob(b, Entry{Key: []byte("k"), ExpireMs: -1, Idle: -1, Freq: -1}, c.v.typ, c.blob, false)
		b = append(b, opEOF, 0, 0, 0, 0, 0, 0, 0, 0)
		if _, _, err := decodeValues(b, false); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", c.name, err)
		}
		if _, _, err := OpenDump(EncodeDumpBlob(c.v.typ, c.blob)); err != ErrDumpData {
			t.Errorf("%s: dump: %v", c.name, err)
		}
	}
	// Every truncation and many flips of every blob: an error or a valid value, never a panic.
	for _, v := range hashSetDataset() {
		blob := v.blob(t)
		if blob == nil {
			continue
		}
		for i := 0; i < len(blob); i += 1 + len(blob)/200 {
			OpenDump(EncodeDumpBlob(v.typ, blob[:i]))
			bad := bytes.Clone(blob)
			bad[i] ^= 0x41
			OpenDump(EncodeDumpBlob(v.typ, bad))
		}
	}
}

// Empty collections are skipped by the file decoder (as Redis's loader) and refused in DUMP.
func TestEmptyCollections(t *testing.T) {
	b := []byte("REDIS0011")
	ent := Entry{Key: []byte("e"), ExpireMs: 5, Idle: -1, Freq: -1}
	b = AppendCollection(b, ent, TypeHash, 0, false)
	b = AppendCollection(b, ent, TypeSet, 0, false)
	b = AppendBlob(b, ent, TypeHashListpack, lpOf(t), false)
	b = AppendBlob(b, ent, TypeSetListpack, lpOf(t), false)
	b = AppendBlob(b, ent, TypeHashZiplist, ziplistOf(), false)
	b = AppendBlob(b, ent, TypeHashZipmap, zipmapOf(), false)
	b = AppendString(b, Entry{Key: []byte("s"), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1}, false)
	b = append(b, opEOF, 0, 0, 0, 0, 0, 0, 0, 0)
	got, d, err := decodeValues(b, false)
	if err != nil || len(got) != 1 || string(got[0].ent.Key) != "s" || got[0].ent.ExpireMs != -1 || d.EmptyKeys != 6 {
		t.Fatalf("got %+v, %v, %d skipped", got, err, d.EmptyKeys)
	}
	for _, p := range [][]byte{
		FinishDump(AppendDumpHead(nil, TypeHash, 0)),
		FinishDump(AppendDumpHead(nil, TypeSet, 0)),
		EncodeDumpBlob(TypeSetListpack, lpOf(t)),
	} {
		if _, _, err := OpenDump(p); err != ErrDumpData {
			t.Errorf("empty dump % x: %v", p, err)
		}
	}
}

func TestDumpHashSet(t *testing.T) {
	for _, v := range hashSetDataset() {
		var p []byte
		switch v.typ {
		case TypeHash, TypeSet:
			n := len(v.elems)
			if v.typ == TypeHash {
				n /= 2
			}
			p = AppendDumpHead(nil, v.typ, uint64(n))
			for _, e := range v.elems {
				p = AppendElement(p, []byte(e), true)
			}
			p = FinishDump(p)
		default:
			p = EncodeDumpBlob(v.typ, v.blob(t))
		}
		d, ent, err := OpenDump(p)
		if err != nil || ent.Type != wantType(v.typ) {
			t.Fatalf("%s: %v type %d", v.key, err, ent.Type)
		}
		elems, err := readElems(d, ent)
		if err != nil || !slices.Equal(elems, wantElems(v)) {
			t.Errorf("%s: elements %v", v.key, err)
		}
		if _, err := DecodeDump(p); !errors.As(err, new(*UnsupportedTypeError)) {
			t.Errorf("%s: DecodeDump: %v", v.key, err)
		}
		// A payload cut inside its elements is bad data, found while reading them.
		if v.typ == TypeHash || v.typ == TypeSet {
			cut := FinishDump(bytes.Clone(p[:len(p)/2]))
			d, ent, err := OpenDump(cut)
			if err == nil {
				_, err = readElems(d, ent)
			}
			if err != ErrDumpData {
				t.Errorf("%s: cut payload: %v", v.key, err)
			}
		}
	}
	// Known payload: DUMP of SADD s 1 2 3 in Redis 7.2 (an intset of 16-bit integers).
	want := []byte("\x0b\x0e\x02\x00\x00\x00\x03\x00\x00\x00\x01\x00\x02\x00\x03\x00\x0b\x00")
	if p := EncodeDumpBlob(TypeSetIntset, intsetOf(t, "3", "1", "2")); !bytes.Equal(p[:len(p)-8], want) {
		t.Errorf("intset payload % x", p)
	}
}

// A hash of 1,000,000 fields decodes in constant memory: no Go value per field.
func TestStreamingBigHash(t *testing.T) {
	const n = 1000000
	b := []byte("REDIS0011")
	b = AppendCollection(b, Entry{Key: []byte("big"), ExpireMs: -1, Idle: -1, Freq: -1}, TypeHash, n, true)
	for i := range n {
		b = AppendElement(b, fmt.Appendf(nil, "field:%010d", i), true)
		b = AppendElement(b, []byte("value-value-value-value-value-32"), true)
	}
	b = append(b, opEOF, 0, 0, 0, 0, 0, 0, 0, 0)
	d := NewDecoder(bytes.NewReader(b))
	d.ReuseBuffers = true
	ent, err := d.Next()
	if err != nil || ent.Type != TypeHash || ent.Len != n {
		t.Fatalf("%+v %v", ent, err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	count := 0
	var fields []string
	for {
		f, v, err := d.NextPair()
		if err == io.EOF {
			break
		}
		if err != nil || len(v) != 32 {
			t.Fatal(err)
		}
		if count%100000 == 0 {
			fields = append(fields, string(f))
		}
		count++
	}
	runtime.ReadMemStats(&after)
	if count != n || fields[3] != "field:0000300000" {
		t.Fatalf("read %d pairs, %v", count, fields)
	}
	if allocs := after.Mallocs - before.Mallocs; allocs > 1000 {
		t.Errorf("%d allocations for %d pairs", allocs, n)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Fatal(err)
	}
}

// A declared count far beyond the input allocates nothing for it: reading stops at the end.
func TestHugeDeclaredCount(t *testing.T) {
	p := FinishDump(AppendElement(AppendDumpHead(nil, TypeSet, 1<<62), []byte("a"), true))
	d, ent, err := OpenDump(p)
	if err != nil || ent.Len != 1<<62 {
		t.Fatal(err)
	}
	if _, err := readElems(d, ent); err != ErrDumpData {
		t.Fatal(err)
	}
}

func FuzzDecodeHashSet(f *testing.F) {
	ds := hashSetDataset()
	f.Add(encodeValues(f, ds[:2], false))
	f.Add(encodeValues(f, ds[3:5], true))
	f.Add(encodeValues(f, ds[7:9], false))
	f.Add(encodeValues(f, ds[11:], false))
	for _, v := range ds {
		if v.typ != TypeHash && v.typ != TypeSet && len(v.elems) < 20 {
			f.Add(EncodeDumpBlob(v.typ, v.blob(f)))
		}
	}
	f.Add(FinishDump(AppendElement(AppendElement(AppendDumpHead(nil, TypeHash, 1), []byte("f"), true), []byte("v"), true)))
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
		if d, ent, err := OpenDump(data); err == nil {
			readElems(d, ent)
		}
		// Every blob the decoder accepts is one the other readers may walk.
		for _, g := range got {
			if g.ent.Type == TypeHashListpack || g.ent.Type == TypeSetListpack {
				if listpack.Validate(g.ent.Value, true, nil) != nil {
					t.Fatal("accepted an invalid listpack")
				}
			}
		}
	})
}

// FuzzOldHashEncodings checks the ziplist and zipmap readers against their writers: what they
// accept converts without panic, and a written one reads back.
func FuzzOldHashEncodings(f *testing.F) {
	f.Add([]byte("a\x001\x00bb\x00-300"), false)
	f.Add([]byte("name\x00redis\x00x\x00"), true)
	f.Fuzz(func(t *testing.T, data []byte, zipmap bool) {
		elems := strings.Split(string(data), "\x00")
		if len(elems)%2 == 1 {
			elems = elems[:len(elems)-1]
		}
		uniq := map[string]bool{}
		dup := false
		for i := 0; i < len(elems); i += 2 {
			dup = dup || uniq[elems[i]]
			uniq[elems[i]] = true
		}
		if zipmap {
			zm := zipmapOf(elems...)
			n, err := validateZipmap(zm)
			if dup != (err != nil) || err == nil && n != len(elems)/2 {
				t.Fatalf("zipmap of %q: %d %v", elems, n, err)
			}
			validateZipmap(data)
			return
		}
		lp, n, err := ziplistPairsToListpack(ziplistOf(elems...), nil)
		if dup != (err != nil) || err == nil && (n != len(elems)/2 || listpack.Validate(lp, true, nil) != nil) {
			t.Fatalf("ziplist of %q: %d %v", elems, n, err)
		}
		if lp, _, err := ziplistPairsToListpack(data, nil); err == nil && listpack.Validate(lp, true, nil) != nil {
			t.Fatal("invalid listpack from a ziplist")
		}
	})
}

// lpForced builds a listpack whose entries prefixed "s:" are stored as strings even when they
// are integers (what Redis never writes, a crafted payload may): "s:12" is the string "12".
func lpForced(elems ...string) []byte {
	lp := listpack.NewSlice(0)
	for _, e := range elems {
		if rest, ok := strings.CutPrefix(e, "s:"); ok && len(rest) < 64 {
			// A 6-bit string entry: encoding, data, back-length (one byte below 128).
			body := append([]byte{0x80 | byte(len(rest))}, rest...)
			body = append(body, byte(len(body)))
			lp = append(lp[:len(lp)-1], append(body, listpack.EOF)...)
			binary.LittleEndian.PutUint32(lp, uint32(len(lp)))
			binary.LittleEndian.PutUint16(lp[4:], binary.LittleEndian.Uint16(lp[4:])+1)
			continue
		}
		lp, _ = listpack.AppendSlice(lp, []byte(e))
	}
	return lp
}

// validateDups agrees with listpack.ValidateDups, on both sides of its small-listpack path.
func TestValidateDups(t *testing.T) {
	cases := []struct {
		pairs bool
		elems []string
		ok    bool
	}{
		{true, []string{"a", "1", "b", "1"}, true},
		{true, []string{"a", "1", "a", "2"}, false},
		{true, []string{"12", "x", "s:12", "y"}, false},
		{true, []string{"s:12", "x", "12", "y"}, false},
		{true, []string{"s:012", "x", "12", "y"}, true},
		{true, []string{"-5", "x", "s:-5", "y"}, false},
		{true, []string{"a", "1", "b"}, false},
		{false, []string{"1", "2", "s:1"}, false},
		{false, []string{"x", "y", "x"}, false},
		{false, []string{"x", "y", "z", "100000", "-100000"}, true},
	}
	for i, c := range cases {
		lp := lpForced(c.elems...)
		if (validateDups(lp, c.pairs) == nil) != c.ok || (listpack.ValidateDups(lp, c.pairs) == nil) != c.ok {
			t.Errorf("case %d %q: ours %v, listpack's %v", i, c.elems, validateDups(lp, c.pairs), listpack.ValidateDups(lp, c.pairs))
		}
	}
	// Past smallDupCheck: the map path, with a duplicate at the end or none.
	var many []string
	for i := range smallDupCheck + 5 {
		many = append(many, fmt.Sprint("f", i), "v")
	}
	if validateDups(lpForced(many...), true) != nil {
		t.Error("distinct fields refused")
	}
	if validateDups(lpForced(append(many, "f3", "v")...), true) == nil {
		t.Error("duplicate field accepted")
	}
}

func FuzzValidateDups(f *testing.F) {
	f.Add([]byte("a\x001\x00s:1\x00b"), true)
	f.Add([]byte("12\x00s:12"), false)
	f.Fuzz(func(t *testing.T, data []byte, pairs bool) {
		lp := lpForced(strings.Split(string(data), "\x00")...)
		if (validateDups(lp, pairs) == nil) != (listpack.ValidateDups(lp, pairs) == nil) {
			t.Fatalf("%q pairs %v: ours %v, listpack's %v", data, pairs, validateDups(lp, pairs), listpack.ValidateDups(lp, pairs))
		}
		validateDups(data, pairs) // raw bytes: no panic
	})
}
