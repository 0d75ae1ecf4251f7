package rdb

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// testLibraries are function libraries' codes: a short one (stored raw), a long repetitive
// one (LZF), and one whose code is a canonical integer's text, which the string encoding
// stores as an integer.
func testLibraries() [][]byte {
	return [][]byte{
		[]byte("#!lua name=short\nredis.register_function('f', function() return 1 end)"),
		[]byte("#!lua name=long\n" + strings.Repeat("redis.register_function('g', function(keys, args) return args[1] end)\n", 20)),
		[]byte("12345"),
	}
}

func TestFunctionDumpRoundTrip(t *testing.T) {
	for _, codes := range [][][]byte{nil, testLibraries()[:1], testLibraries()} {
		p := EncodeFunctionDump(codes)
		got, err := DecodeFunctionDump(p)
		if err != nil {
			t.Fatalf("DecodeFunctionDump: %v", err)
		}
		if !slices.EqualFunc(got, codes, bytes.Equal) {
			t.Fatalf("got %q, want %q", got, codes)
		}
		if v := int(p[len(p)-10]) | int(p[len(p)-9])<<8; v != Version {
			t.Fatalf("payload version %d", v)
		}
	}
	// The long library is compressed, the short one is not.
	if p := EncodeFunctionDump(testLibraries()[1:2]); p[0] != OpFunction || p[1] != lenEnc<<6|encLZF {
		t.Errorf("long library not LZF-compressed: % x", p[:2])
	}
	if p := EncodeFunctionDump(testLibraries()[:1]); !bytes.Contains(p, testLibraries()[0]) {
		t.Errorf("short library not raw: % x", p)
	}
}

func TestFunctionDumpErrors(t *testing.T) {
	good := EncodeFunctionDump(testLibraries())
	flip := func(i int) []byte {
		b := slices.Clone(good)
		b[i] ^= 1
		return b
	}
	// withFooter re-signs a body: only the records are wrong.
	withFooter := func(body []byte) []byte { return finishDumpVersion(slices.Clone(body), Version) }
	for _, tc := range []struct {
		name    string
		payload []byte
		want    error
	}{
		{"empty", nil, ErrFunctionPayload},
		{"short", good[:9], ErrFunctionPayload},
		{"checksum", flip(len(good) - 1), ErrFunctionPayload},
		{"body byte", flip(3), ErrFunctionPayload},
		{"version 12", finishDumpVersion(AppendFunction(nil, []byte("x"), false), 12), ErrFunctionPayload},
		{"pre-GA", withFooter([]byte{opFunctionPreGA, 1, 'x'}), ErrFunctionPreGA},
		{"a key", withFooter([]byte{TypeString, 1, 'k', 1, 'v'}), ErrNotFunction},
		{"truncated code", withFooter([]byte{OpFunction, 5, 'a', 'b'}), ErrFunctionLoad},
		{"no code", withFooter([]byte{OpFunction}), ErrFunctionLoad},
		{"bad LZF", withFooter([]byte{OpFunction, lenEnc<<6 | encLZF, 3, 40, 0xff, 0xff, 0xff}), ErrFunctionLoad},
	} {
		if _, err := DecodeFunctionDump(tc.payload); err != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	// Version 10 (Redis 7.0) and the footer alone (no libraries) are accepted.
	if codes, err := DecodeFunctionDump(encodeFunctionDumpVersion(testLibraries(), 10, true)); err != nil || len(codes) != 3 {
		t.Errorf("version 10: %q %v", codes, err)
	}
	if codes, err := DecodeFunctionDump(withFooter(nil)); err != nil || len(codes) != 0 {
		t.Errorf("no libraries: %q %v", codes, err)
	}
}

// encodeWithFunctions writes an RDB file holding codes before the keys, as Redis orders them.
func encodeWithFunctions(t testing.TB, codes [][]byte, ents []Entry, version int) []byte {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	e.Version = version
	e.WriteHeader()
	e.WriteStandardAux("7.2.0", 1700000000, 1234567)
	for _, c := range codes {
		e.WriteFunction(c)
	}
	if len(ents) > 0 {
		e.SelectDB(0)
		for _, ent := range ents {
			e.WriteString(ent)
		}
	}
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecoderFunctions(t *testing.T) {
	ents := []Entry{{Key: []byte("k"), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1}}
	file := encodeWithFunctions(t, testLibraries(), ents, Version)

	var got [][]byte
	d := NewDecoder(bytes.NewReader(file))
	d.OnFunction = func(code []byte) error { got = append(got, code); return nil }
	var keys int
	for {
		_, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		keys++
	}
	if keys != 1 || !slices.EqualFunc(got, testLibraries(), bytes.Equal) {
		t.Fatalf("keys %d, libraries %q", keys, got)
	}

	// Without OnFunction a library is unsupported, as before.
	var uo *UnsupportedOpcodeError
	if err := Decode(bytes.NewReader(file), func(Entry) error { return nil }); !errors.As(err, &uo) || uo.Opcode != OpFunction {
		t.Errorf("no OnFunction: %v", err)
	}
	// OnFunction's error stops decoding, in Redis's words.
	d = NewDecoder(bytes.NewReader(file))
	d.OnFunction = func([]byte) error { return errors.New("Library 'short' already exists") }
	if _, err := d.Next(); err == nil || err.Error() != "Failed loading library, Library 'short' already exists" {
		t.Errorf("OnFunction error: %v", err)
	}
}

func FuzzDecodeFunctionDump(f *testing.F) {
	f.Add(EncodeFunctionDump(testLibraries()))
	f.Add(EncodeFunctionDump(nil))
	f.Fuzz(func(t *testing.T, p []byte) {
		codes, err := DecodeFunctionDump(p)
		if err != nil {
			return
		}
		// What decodes encodes to a payload that decodes the same.
		again, err := DecodeFunctionDump(EncodeFunctionDump(codes))
		if err != nil || !slices.EqualFunc(again, codes, bytes.Equal) {
			t.Fatalf("re-encoded %q: %q %v", codes, again, err)
		}
	})
}
