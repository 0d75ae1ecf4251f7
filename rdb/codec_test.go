package rdb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
)

// testDataset is a mix of every string encoding, in several databases.
func testDataset() []Entry {
	r := rand.New(rand.NewSource(3))
	rnd := make([]byte, 300)
	r.Read(rnd)
	vals := [][]byte{
		[]byte("0"), []byte("-1"), []byte("127"), []byte("-128"), []byte("128"), []byte("32767"),
		[]byte("-32769"), []byte("2147483647"), []byte("-2147483648"), []byte("2147483648"),
		[]byte("9223372036854775807"), []byte("007"), []byte("+5"), []byte("-0"), []byte(" 1"),
		[]byte(""), []byte("short"), []byte(strings.Repeat("compressible-", 40)), rnd,
		{0, 1, 2, 0xff, '\r', '\n', 0}, []byte(strings.Repeat("x", 20)), []byte(strings.Repeat("x", 21)),
		bytes.Repeat([]byte("ab"), 20000),
	}
	var out []Entry
	for i, v := range vals {
		e := Entry{DB: i % 3, Key: fmt.Appendf(nil, "key:%d", i), Value: v, ExpireMs: -1, Idle: -1, Freq: -1}
		if i%4 == 1 {
			e.ExpireMs = 4102444800000 + int64(i) // year 2100
		}
		out = append(out, e)
	}
	out = append(out, Entry{DB: 15, Key: []byte("123"), Value: rnd[:50], ExpireMs: -1, Idle: 17, Freq: -1},
		Entry{DB: 15, Key: []byte{}, Value: []byte("empty key"), ExpireMs: -1, Idle: -1, Freq: 200})
	return out
}

func encodeDataset(t testing.TB, ents []Entry, version int, compress, checksum bool) []byte {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	e.Version, e.Compress, e.Checksum = version, compress, checksum
	e.WriteHeader()
	e.WriteStandardAux("7.2.0", 1700000000, 1234567)
	byDB := map[int][]Entry{}
	var dbs []int
	for _, ent := range ents {
		if _, ok := byDB[ent.DB]; !ok {
			dbs = append(dbs, ent.DB)
		}
		byDB[ent.DB] = append(byDB[ent.DB], ent)
	}
	for _, db := range dbs {
		e.SelectDB(db)
		var exp uint64
		for _, ent := range byDB[db] {
			if ent.ExpireMs >= 0 {
				exp++
			}
		}
		e.ResizeDB(uint64(len(byDB[db])), exp)
		for _, ent := range byDB[db] {
			e.WriteString(ent)
		}
	}
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeAll(data []byte) ([]Entry, *Decoder, error) {
	d := NewDecoder(bytes.NewReader(data))
	var out []Entry
	for {
		ent, err := d.Next()
		if err == io.EOF {
			return out, d, nil
		}
		if err != nil {
			return out, d, err
		}
		out = append(out, ent)
	}
}

func sameEntries(t *testing.T, got, want []Entry) {
	t.Helper()
	m := map[string]Entry{}
	for _, e := range got {
		m[fmt.Sprintf("%d/%q", e.DB, e.Key)] = e
	}
	if len(m) != len(want) || len(got) != len(want) {
		t.Errorf("got %d entries, want %d", len(got), len(want))
	}
	for _, w := range want {
		g, ok := m[fmt.Sprintf("%d/%q", w.DB, w.Key)]
		if !ok {
			t.Errorf("db %d key %q missing", w.DB, w.Key)
			continue
		}
		if !bytes.Equal(g.Value, w.Value) || g.ExpireMs != w.ExpireMs || g.Idle != w.Idle || g.Freq != w.Freq {
			t.Errorf("db %d key %q: got %q/%d/%d/%d want %q/%d/%d/%d", w.DB, w.Key,
				trunc(g.Value), g.ExpireMs, g.Idle, g.Freq, trunc(w.Value), w.ExpireMs, w.Idle, w.Freq)
		}
	}
}

func trunc(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	ds := testDataset()
	for _, v := range []int{9, 10, 11} {
		for _, c := range []bool{false, true} {
			for _, sum := range []bool{false, true} {
				data := encodeDataset(t, ds, v, c, sum)
				got, d, err := decodeAll(data)
				if err != nil {
					t.Fatalf("v%d c%v: %v", v, c, err)
				}
				if d.Version() != v || d.Aux()["redis-ver"] != "7.2.0" || d.Aux()["ctime"] != "1700000000" {
					t.Errorf("header/aux: %d %v", d.Version(), d.Aux())
				}
				sameEntries(t, got, ds)
			}
		}
	}
}

func TestStringEncodings(t *testing.T) {
	cases := []struct {
		in   string
		want []byte
	}{
		{"5", []byte{0xc0, 5}},
		{"-128", []byte{0xc0, 0x80}},
		{"300", []byte{0xc1, 0x2c, 0x01}},
		{"70000", []byte{0xc2, 0x70, 0x11, 0x01, 0x00}},
		{"2147483648", append([]byte{10}, "2147483648"...)},
		{"05", []byte{2, '0', '5'}},
		{"", []byte{0}},
	}
	for _, c := range cases {
		if got := appendString(nil, []byte(c.in), true); !bytes.Equal(got, c.want) {
			t.Errorf("%q: % x want % x", c.in, got, c.want)
		}
	}
	for _, n := range []uint64{0, 63, 64, 16383, 16384, 1 << 32, 1<<32 - 1} {
		d := NewDecoder(bytes.NewReader(appendLen(nil, n)))
		if got, enc, err := d.readLen(); err != nil || enc || got != n {
			t.Errorf("len %d: %d %v %v", n, got, enc, err)
		}
	}
	if got := appendLen(nil, 16384); !bytes.Equal(got, []byte{0x80, 0, 0, 0x40, 0}) {
		t.Errorf("32-bit len: % x", got)
	}
	if got := appendLen(nil, 300); !bytes.Equal(got, []byte{0x41, 0x2c}) {
		t.Errorf("14-bit len: % x", got)
	}
	long := strings.Repeat("a", 100)
	if got := appendString(nil, []byte(long), true); got[0] != 0xc3 {
		t.Errorf("long compressible string not LZF: % x", got[:4])
	}
	if got := appendString(nil, []byte(long), false); got[0] != 0x40 || got[1] != 100 {
		t.Errorf("compression off but encoded % x", got[:4])
	}
}

func TestDecodeErrors(t *testing.T) {
	ds := testDataset()
	data := encodeDataset(t, ds, 11, true, true)
	// Every truncation is an error, never a panic.
	for i := 0; i < len(data); i++ {
		if _, _, err := decodeAll(data[:i]); err == nil {
			t.Fatalf("truncated at %d: no error", i)
		}
	}
	// Any flipped byte in the body is detected (mostly by the checksum).
	for i := 9; i < len(data)-8; i += 7 {
		bad := bytes.Clone(data)
		bad[i] ^= 0x5a
		if _, _, err := decodeAll(bad); err == nil {
			t.Fatalf("flip at %d: no error", i)
		}
	}
	bad := bytes.Clone(data)
	bad[len(bad)-1] ^= 1
	if _, _, err := decodeAll(bad); !errors.Is(err, ErrChecksum) {
		t.Errorf("checksum: %v", err)
	}
	if _, _, err := decodeAll([]byte("REDIS0012\xff")); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("version 12: %v", err)
	}
	if _, _, err := decodeAll([]byte("RADIS0011\xff")); !errors.Is(err, ErrBadMagic) {
		t.Errorf("magic: %v", err)
	}
	// Old version without checksum footer.
	if _, _, err := decodeAll([]byte("REDIS0004\xfe\x00\x00\x01a\x01b\xff")); err != nil {
		t.Errorf("v4: %v", err)
	}
	// A stream value (type 15): the clear unsupported-type error.
	var ute *UnsupportedTypeError
	if _, _, err := decodeAll([]byte("REDIS0011\xfe\x00\x0f\x01a\x01\x01b\xff")); !errors.As(err, &ute) || ute.Type != 15 {
		t.Errorf("stream: %v", err)
	}
	var uoe *UnsupportedOpcodeError
	if _, _, err := decodeAll([]byte("REDIS0011\xf5\x00")); !errors.As(err, &uoe) {
		t.Errorf("function: %v", err)
	}
	if _, _, err := decodeAll([]byte("REDIS0011\xf7\x00")); !errors.As(err, &uoe) {
		t.Errorf("module aux: %v", err)
	}
	// EXPIRETIME in seconds.
	ents, _, err := decodeAll([]byte("REDIS0011\xfd\x10\x00\x00\x00\x00\x01a\x01b\xff\x00\x00\x00\x00\x00\x00\x00\x00"))
	if err != nil || len(ents) != 1 || ents[0].ExpireMs != 16000 {
		t.Errorf("expiretime: %v %+v", err, ents)
	}
	// A huge declared length does not allocate it.
	if _, _, err := decodeAll([]byte("REDIS0011\x00\x81\x00\x00\x00\xff\xff\xff\xff\xffabc")); err == nil {
		t.Error("huge length accepted")
	}
	if _, _, err := decodeAll([]byte("REDIS0011\x00\xc3\x02\x81\x00\x00\x00\xff\xff\xff\xff\xff\x00a")); err == nil {
		t.Error("huge LZF length accepted")
	}
}

func TestDump(t *testing.T) {
	for _, v := range testDataset() {
		p := EncodeDump(v.Value)
		if p[len(p)-10] != 11 || p[len(p)-9] != 0 {
			t.Fatalf("version bytes % x", p[len(p)-10:len(p)-8])
		}
		got, err := DecodeDump(p)
		if err != nil || !bytes.Equal(got, v.Value) {
			t.Fatalf("%q: %q %v", trunc(v.Value), trunc(got), err)
		}
	}
	p := EncodeDump([]byte("hello"))
	// Known payload: DUMP of "hello" in Redis 7.2.
	if want := []byte("\x00\x05hello\x0b\x00"); !bytes.Equal(p[:len(p)-8], want) {
		t.Errorf("payload % x", p)
	}
	for i := range p {
		bad := bytes.Clone(p)
		bad[i] ^= 1
		if _, err := DecodeDump(bad); err == nil {
			t.Errorf("flip %d accepted", i)
		}
	}
	if _, err := DecodeDump(encodeDumpVersion([]byte("x"), 12)); err != ErrDumpPayload {
		t.Errorf("version 12: %v", err)
	}
	if _, err := DecodeDump(encodeDumpVersion([]byte("x"), 10)); err != nil {
		t.Errorf("version 10: %v", err)
	}
	if _, err := DecodeDump(p[:9]); err != ErrDumpPayload {
		t.Errorf("short: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encodeDataset(f, testDataset()[:8], 11, true, false))
	f.Add(encodeDataset(f, testDataset()[16:19], 11, true, true))
	f.Add([]byte("REDIS0004\xfe\x00\x00\x01a\x01b\xff"))
	f.Add(EncodeDump([]byte(strings.Repeat("abc", 30))))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, _, wantErr := decodeAll(data)
		DecodeDump(data)
		// With ReuseBuffers the entries are the same, read one at a time before the next.
		d := NewDecoder(bytes.NewReader(data))
		d.ReuseBuffers = true
		for i := 0; ; i++ {
			ent, err := d.Next()
			if err != nil {
				if (err == io.EOF) != (wantErr == nil) || i != len(want) {
					t.Fatalf("with reused buffers: %d entries, %v; without: %d, %v", i, err, len(want), wantErr)
				}
				return
			}
			if i >= len(want) || !bytes.Equal(ent.Key, want[i].Key) || !bytes.Equal(ent.Value, want[i].Value) || ent.DB != want[i].DB || ent.ExpireMs != want[i].ExpireMs {
				t.Fatalf("entry %d differs with reused buffers", i)
			}
		}
	})
}
