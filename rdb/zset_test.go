package rdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/resp"
)

// zpair is a sorted set's member and score as the tests write them.
type zpair struct {
	m string
	s float64
}

// zsorted returns ps in a sorted set's order: score, then member bytes.
func zsorted(ps []zpair) []zpair {
	out := slices.Clone(ps)
	slices.SortFunc(out, func(a, b zpair) int {
		switch {
		case a.s < b.s:
			return -1
		case a.s > b.s:
			return 1
		}
		return strings.Compare(a.m, b.m)
	})
	return out
}

// zscoreText is a score as Redis 7.2 stores it in a listpack (d2string).
func zscoreText(f float64) string { return string(resp.AppendDouble(nil, f)) }

// zflat is ps as member, score strings (readElems's form of a TypeZSet2 value).
func zflat(ps []zpair) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.m, strconv.FormatFloat(p.s, 'g', -1, 64))
	}
	return out
}

// zlpElems is the member, score text strings of a sorted set's listpack, in order.
func zlpElems(ps []zpair) []string {
	var out []string
	for _, p := range zsorted(ps) {
		out = append(out, p.m, zscoreText(p.s))
	}
	return out
}

// appendZSet2 appends ps as a type-5 sorted set, from the highest score down as Redis writes it.
func appendZSet2(b []byte, ent Entry, ps []zpair, compress bool) []byte {
	b = AppendZSetHead(b, ent, uint64(len(ps)), compress)
	s := zsorted(ps)
	for i := len(s) - 1; i >= 0; i-- {
		b = AppendZSetMember(b, []byte(s[i].m), s[i].s, compress)
	}
	return b
}

// appendZSet3 appends ps as a type-3 sorted set (Redis 2.x to 3.x): each score as
// rdbSaveDoubleValue writes it, "%.17g" after a length byte, or 253, 254, 255.
func appendZSet3(b []byte, key string, ps []zpair) []byte {
	b = appendString(append(b, TypeZSet), []byte(key), false)
	b = appendLen(b, uint64(len(ps)))
	for _, p := range ps {
		b = appendString(b, []byte(p.m), false)
		switch {
		case math.IsNaN(p.s):
			b = append(b, dblNaN)
		case math.IsInf(p.s, 1):
			b = append(b, dblPosInf)
		case math.IsInf(p.s, -1):
			b = append(b, dblNegInf)
		default:
			t := fmt.Sprintf("%.17g", p.s)
			b = append(append(b, byte(len(t))), t...)
		}
	}
	return b
}

// zsetScores has every kind of score: -0, ±inf, a subnormal-ish tiny one, integral and not,
// beyond 2^53, and members that are integers.
func zsetScores() []zpair {
	return []zpair{
		{"zero", 0}, {"negzero", math.Copysign(0, -1)}, {"inf", math.Inf(1)}, {"-inf", math.Inf(-1)},
		{"tiny", 1e-300}, {"one", 1}, {"half", 0.5}, {"tenth", 0.1}, {"neg", -2.5}, {"big", 1e300},
		{"2^60", 1 << 60}, {"12", 3}, {"-7", 3}, {"123456789012", 7}, {"", 2},
	}
}

func TestZSetRoundTrip(t *testing.T) {
	ps := zsetScores()
	var big []zpair
	for i := range 1000 {
		big = append(big, zpair{fmt.Sprintf("member:%d", i), float64(i%37) / 3})
	}
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		e := NewEncoder(&buf)
		e.Compress = compress
		e.WriteHeader()
		e.SelectDB(0)
		e.WriteRaw(appendZSet2(nil, Entry{Key: []byte("z:ht"), ExpireMs: 4102444800000, Idle: -1, Freq: -1}, ps, compress))
		e.WriteRaw(appendZSet2(nil, listHead("z:big"), big, compress))
		e.WriteRaw(AppendBlob(nil, listHead("z:lp"), TypeZSetListpack, lpOf(t, zlpElems(ps)...), compress))
		if err := e.Finish(); err != nil {
			t.Fatal(err)
		}
		for _, reuse := range []bool{false, true} {
			got, _, err := decodeValues(buf.Bytes(), reuse)
			if err != nil || len(got) != 3 {
				t.Fatalf("compress %v reuse %v: %d values, %v", compress, reuse, len(got), err)
			}
			// Type 5 comes highest first, scores bit for bit (-0 stays -0).
			rev := zsorted(ps)
			slices.Reverse(rev)
			if g := got[0]; g.ent.Type != TypeZSet2 || g.ent.Len != uint64(len(ps)) || g.ent.ExpireMs != 4102444800000 ||
				!slices.Equal(g.elems, zflat(rev)) {
				t.Errorf("z:ht: type %d len %d %q", g.ent.Type, g.ent.Len, g.elems)
			}
			if g := got[1]; len(g.elems) != 2000 {
				t.Errorf("z:big: %d elements", len(g.elems))
			}
			if g := got[2]; g.ent.Type != TypeZSetListpack || g.ent.Len != uint64(len(ps)) || !slices.Equal(g.elems, zlpElems(ps)) {
				t.Errorf("z:lp: type %d len %d %q", g.ent.Type, g.ent.Len, g.elems)
			}
		}
	}
	// -0 read back with its sign.
	p := FinishDump(AppendZSetMember(AppendDumpHead(nil, TypeZSet2, 1), []byte("m"), math.Copysign(0, -1), true))
	d, ent, err := OpenDump(p)
	if err != nil || ent.Type != TypeZSet2 || ent.Len != 1 {
		t.Fatal(ent, err)
	}
	if m, s, err := d.NextZSetMember(); err != nil || string(m) != "m" || !math.Signbit(s) || s != 0 {
		t.Errorf("-0: %q %v %v", m, s, err)
	}
	if _, _, err := d.NextZSetMember(); err != io.EOF {
		t.Error(err)
	}
}

// Bytes as Redis writes them: member (an integer member in its integer encoding) then the
// binary double, little endian.
func TestZSetBytes(t *testing.T) {
	b := AppendZSetMember(nil, []byte("12"), 1.5, false)
	want := []byte{lenEnc<<6 | encInt8, 12, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f}
	if !bytes.Equal(b, want) {
		t.Errorf("% x, want % x", b, want)
	}
	b = AppendZSetHead(nil, listHead("k"), 3, false)
	if !bytes.Equal(b, []byte{TypeZSet2, 1, 'k', 3}) {
		t.Errorf("head % x", b)
	}
}

// Older dumps: type 3 (string scores) and type 12 (a ziplist), converted as Redis 7's loader does.
func TestZSetOldEncodings(t *testing.T) {
	ps := zsetScores()
	body := appendZSet3(nil, "z3", ps)
	body = appendString(append(body, TypeZSetZiplist), []byte("z12"), false)
	body = appendString(body, ziplistOf(zlpElems(ps)...), false)
	for _, reuse := range []bool{false, true} {
		got, _, err := decodeValues(rdbFile(body), reuse)
		if err != nil || len(got) != 2 {
			t.Fatalf("%d values, %v", len(got), err)
		}
		if g := got[0]; g.ent.Type != TypeZSet2 || !slices.Equal(g.elems, zflat(ps)) {
			t.Errorf("type 3: %d %q", g.ent.Type, g.elems)
		}
		if g := got[1]; g.ent.Type != TypeZSetListpack || g.ent.Len != uint64(len(ps)) || !slices.Equal(g.elems, zlpElems(ps)) {
			t.Errorf("type 12: %d %q", g.ent.Type, g.elems)
		}
	}
	// In a DUMP payload too.
	for _, typ := range []byte{TypeZSet, TypeZSetZiplist} {
		var b []byte
		if typ == TypeZSet {
			b = appendZSet3(nil, "k", ps)
		} else {
			b = appendString(appendString(append(b, TypeZSetZiplist), []byte("k"), false), ziplistOf(zlpElems(ps)...), false)
		}
		d, ent, err := OpenDump(FinishDump(dumpBody(b)))
		if err != nil {
			t.Fatalf("type %d: %v", typ, err)
		}
		if elems, err := readElems(d, ent); err != nil || len(elems) != 2*len(ps) {
			t.Errorf("type %d: %d elements, %v", typ, len(elems), err)
		}
	}
}

// Bad sorted sets are the load's error (ErrCorrupt, ErrDumpData in a payload), never a panic.
func TestZSetCorrupt(t *testing.T) {
	ok := []string{"a", "1", "b", "2.5"}
	blobs := map[string][]byte{
		"odd":          lpOf(t, "a", "1", "b"),
		"dup":          lpOf(t, "a", "1", "a", "2"),
		"dup-int":      lpForced("12", "1", "s:12", "2"),
		"nan":          lpOf(t, "a", "nan"),
		"garbage":      lpOf(t, "a", "1x"),
		"empty-score":  lpOf(t, "a", ""),
		"space":        lpOf(t, "a", " 1"),
		"unsorted":     lpOf(t, "b", "2", "a", "1"),
		"tie-unsorted": lpOf(t, "b", "1", "a", "1"),
		"bad-count":    func() []byte { lp := lpOf(t, ok...); lp[4] = 3; return lp }(),
	}
	for name, blob := range blobs {
		if _, _, err := decodeValues(rdbFile(AppendBlob(nil, listHead("k"), TypeZSetListpack, blob, false)), true); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
		if _, _, err := OpenDump(EncodeDumpBlob(TypeZSetListpack, blob)); err != ErrDumpData {
			t.Errorf("%s payload: %v", name, err)
		}
	}
	// Accepted: ties by member, -0 and 0 as equal scores, inf, an integer score, a score
	// past the range of a double (strtod's inf).
	for _, elems := range [][]string{
		ok,
		{"a", "-0", "b", "0", "c", "-0"},
		{"a", "-inf", "b", "1e-300", "c", "3", "d", "inf"},
		{"a", "1e999"},
	} {
		if _, _, err := OpenDump(EncodeDumpBlob(TypeZSetListpack, lpOf(t, elems...))); err != nil {
			t.Errorf("%q: %v", elems, err)
		}
	}
	// A ziplist with a member twice, an odd count, a bad score.
	for _, elems := range [][]string{{"a", "1", "a", "2"}, {"a", "1", "b"}, {"a", "x"}, {"b", "1", "a", "0"}} {
		zl := ziplistOf(elems...)
		if _, _, err := decodeValues(rdbFile(appendString(appendString([]byte{TypeZSetZiplist}, []byte("k"), false), zl, false)), true); !errors.Is(err, ErrCorrupt) {
			t.Errorf("ziplist %q: %v", elems, err)
		}
	}
	// A NaN score in type 5 and type 3, found while reading the pairs.
	nan5 := AppendZSetMember(AppendZSetMember(AppendZSetHead(nil, listHead("k"), 2, false), []byte("a"), 1, false), []byte("b"), math.NaN(), false)
	nan3 := appendZSet3(nil, "k", []zpair{{"a", 1}, {"b", math.NaN()}})
	bad3 := append(appendString(appendLen(appendString([]byte{TypeZSet}, []byte("k"), false), 1), []byte("a"), false), 2, '1', 'x')
	for name, body := range map[string][]byte{"nan5": nan5, "nan3": nan3, "bad3": bad3} {
		if _, _, err := decodeValues(rdbFile(body), true); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
		// Skipped unread by Next: still an error.
		d := NewDecoder(bytes.NewReader(rdbFile(body)))
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Next(); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s skipped: %v", name, err)
		}
		d, ent, err := OpenDump(FinishDump(dumpBody(body)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readElems(d, ent); err != ErrDumpData {
			t.Errorf("%s payload: %v", name, err)
		}
	}
}

// Empty sorted sets are skipped in a file (as Redis's loader does) and refused in a payload.
func TestZSetEmpty(t *testing.T) {
	empties := func(key string) [][]byte {
		return [][]byte{
			AppendZSetHead(nil, listHead(key), 0, false),
			AppendBlob(nil, listHead(key), TypeZSetListpack, lpOf(t), false),
			appendString(appendString([]byte{TypeZSetZiplist}, []byte(key), false), ziplistOf(), false),
			appendZSet3(nil, key, nil),
		}
	}
	body := slices.Concat(empties("e")...)
	body = appendZSet2(body, listHead("z"), []zpair{{"a", 1}}, false)
	got, d, err := decodeValues(rdbFile(body), true)
	if err != nil || len(got) != 1 || string(got[0].ent.Key) != "z" || d.EmptyKeys != 4 {
		t.Fatalf("%d values, %d empty, %v", len(got), d.EmptyKeys, err)
	}
	for _, b := range empties("k") {
		if _, _, err := OpenDump(FinishDump(dumpBody(b))); err != ErrDumpData {
			t.Errorf("payload % x: %v", b, err)
		}
	}
}

// Pairs left unread are skipped by Next; a payload cut inside its pairs is bad data.
func TestZSetPartial(t *testing.T) {
	ps := zsetScores()
	body := appendZSet2(nil, listHead("a"), ps, true)
	body = append(body, AppendString(nil, Entry{Key: []byte("s"), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1}, false)...)
	d := NewDecoder(bytes.NewReader(rdbFile(body)))
	if ent, err := d.Next(); err != nil || ent.Type != TypeZSet2 {
		t.Fatal(err)
	}
	if _, _, err := d.NextZSetMember(); err != nil {
		t.Fatal(err)
	}
	if ent, err := d.Next(); err != nil || string(ent.Value) != "v" {
		t.Fatalf("after a partial read: %v", err)
	}
	p := FinishDump(dumpBody(appendZSet2(nil, listHead("a"), ps, true)))
	cut := FinishDump(bytes.Clone(p[:len(p)/2]))
	d, ent, err := OpenDump(cut)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readElems(d, ent); err != ErrDumpData {
		t.Errorf("cut payload: %v", err)
	}
	// DecodeDump wants a string.
	if _, err := DecodeDump(p); !errors.As(err, new(*UnsupportedTypeError)) {
		t.Errorf("DecodeDump: %v", err)
	}
}

// A declared count far beyond the input allocates nothing for it.
func TestZSetHugeDeclaredCount(t *testing.T) {
	p := FinishDump(AppendZSetMember(AppendDumpHead(nil, TypeZSet2, 1<<62), []byte("a"), 1, true))
	d, ent, err := OpenDump(p)
	if err != nil || ent.Len != 1<<62 {
		t.Fatal(err)
	}
	if _, err := readElems(d, ent); err != ErrDumpData {
		t.Fatal(err)
	}
}

// FuzzDecodeZSet decodes sorted sets of every type: the same with and without reused buffers,
// every listpack accepted a valid sorted set's, no NaN score handed out, no panic.
func FuzzDecodeZSet(f *testing.F) {
	ps := zsetScores()
	f.Add(rdbFile(appendZSet2(nil, listHead("a"), ps, true)))
	f.Add(rdbFile(appendZSet2(nil, listHead("a"), ps[:3], false)))
	f.Add(rdbFile(AppendBlob(nil, listHead("b"), TypeZSetListpack, lpOf(f, zlpElems(ps)...), false)))
	f.Add(rdbFile(appendZSet3(nil, "c", ps)))
	f.Add(rdbFile(appendString(appendString([]byte{TypeZSetZiplist}, []byte("d"), false), ziplistOf(zlpElems(ps[:4])...), false)))
	f.Add(EncodeDumpBlob(TypeZSetListpack, lpOf(f, "a", "1", "b", "2")))
	f.Add(FinishDump(AppendZSetMember(AppendDumpHead(nil, TypeZSet2, 1), []byte("m"), 2, true)))
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
		check := func(ent Entry, elems []string) {
			switch ent.Type {
			case TypeZSetListpack:
				if validateZSetListpack(ent.Value, true) != nil {
					t.Fatal("accepted an invalid sorted set listpack")
				}
			case TypeZSet2:
				for i := 1; i < len(elems); i += 2 {
					if elems[i] == "NaN" {
						t.Fatal("NaN score")
					}
				}
			}
		}
		for _, g := range got {
			check(g.ent, g.elems)
		}
		if d, ent, err := OpenDump(data); err == nil {
			elems, _ := readElems(d, ent)
			check(ent, elems)
		}
	})
}

// FuzzZSetListpack checks validateZSetListpack against a model: a listpack of pairs is accepted
// exactly when its members are distinct, its scores parse (not NaN) and are in order.
func FuzzZSetListpack(f *testing.F) {
	f.Add([]byte("a\x001\x00b\x002.5\x00c\x00inf"))
	f.Add([]byte("a\x00-0\x00b\x000\x0012\x00x"))
	f.Add([]byte("b\x001\x00a\x001"))
	f.Fuzz(func(t *testing.T, data []byte) {
		elems := strings.Split(string(data), "\x00")
		if len(elems)%2 == 1 {
			elems = elems[:len(elems)-1]
		}
		want := true
		seen := map[string]bool{}
		var prev zpair
		for i := 0; i < len(elems); i += 2 {
			// The listpack stores a canonical integer as an integer: its text is the member.
			m := elems[i]
			s, err := strconv.ParseFloat(elems[i+1], 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(s) || len(elems[i+1]) > 127 {
				want = false
				break
			}
			if seen[m] || i > 0 && (s < prev.s || s == prev.s && m <= prev.m) {
				want = false
				break
			}
			seen[m] = true
			prev = zpair{m, s}
		}
		lp := listpack.NewSlice(0)
		for _, e := range elems {
			var err error
			if lp, err = listpack.AppendSlice(lp, []byte(e)); err != nil {
				t.Skip()
			}
		}
		if err := validateZSetListpack(lp, true); (err == nil) != want {
			t.Fatalf("%q: %v, want accepted %v", elems, err, want)
		}
		// Arbitrary bytes: no panic.
		validateZSetListpack(data, true)
		if len(data) >= 4 {
			b := bytes.Clone(data)
			binary.LittleEndian.PutUint32(b, uint32(len(b)))
			validateZSetListpack(b, false)
		}
	})
}
