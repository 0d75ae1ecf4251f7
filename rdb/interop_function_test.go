package rdb

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// interopLibraries are libraries redis-server accepts, both LZF-compressed. (Our LZF differs
// from liblzf's on long runs of one repeated pattern — both decode — so the code has none.)
func interopLibraries() [][]byte {
	var comment strings.Builder
	for i := range 30 {
		fmt.Fprintf(&comment, "-- line %d of a comment, %x\n", i, i*7919)
	}
	return [][]byte{
		[]byte("#!lua name=mylib\nredis.register_function('myfunc', function(keys, args) return args[1] end)"),
		[]byte("#!lua name=biglib\n" + comment.String() +
			"redis.register_function{function_name='big', callback=function() return 1 end, flags={'no-writes'}}"),
	}
}

// redis-server's FUNCTION DUMP is ours byte for byte (with its RDB version, 10 for 7.0.15), its
// SAVE's libraries decode here, and ours load into it: FUNCTION RESTORE and a file written as
// version 10.
func TestInteropFunctions(t *testing.T) {
	libs := interopLibraries()
	// Byte for byte: uncompressed (rdbcompression no) for both libraries; compressed for the
	// short one, whose LZF stream is liblzf's too.
	raw := startRedis(t, t.TempDir(), "--rdbcompression", "no")
	loadLibraries(t, raw, libs)
	p, _ := raw.cmd(t, "FUNCTION", "DUMP").([]byte)
	codes, err := DecodeFunctionDump(p)
	if err != nil || !sameCodes(codes, libs) { // redis-server's dictionary order
		t.Fatalf("DecodeFunctionDump: %q %v", codes, err)
	}
	if ours := encodeFunctionDumpVersion(codes, 10, false); !bytes.Equal(ours, p) {
		t.Errorf("FUNCTION DUMP (rdbcompression no):\nours           % x\nredis-server's % x", ours, p)
	}
	short := startRedis(t, t.TempDir())
	loadLibraries(t, short, libs[:1])
	p, _ = short.cmd(t, "FUNCTION", "DUMP").([]byte)
	if ours := encodeFunctionDumpVersion(libs[:1], 10, true); !bytes.Equal(ours, p) || p[1] != lenEnc<<6|encLZF {
		t.Errorf("FUNCTION DUMP:\nours           % x\nredis-server's % x", ours, p)
	}

	dir := t.TempDir()
	rc := startRedis(t, dir)
	loadLibraries(t, rc, libs)
	p, _ = rc.cmd(t, "FUNCTION", "DUMP").([]byte)
	if codes, err := DecodeFunctionDump(p); err != nil || !sameCodes(codes, libs) {
		t.Fatalf("DecodeFunctionDump (compressed): %q %v", codes, err)
	}

	// SAVE: the libraries come before the keys and decode with OnFunction.
	rc.cmd(t, "SET", "k", "v")
	if r := rc.cmd(t, "SAVE"); r != "OK" {
		t.Fatalf("SAVE: %v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	d := NewDecoder(bytes.NewReader(data))
	d.OnFunction = func(code []byte) error { got = append(got, code); return nil }
	for {
		ent, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(libs) {
			t.Fatalf("key %q before the libraries", ent.Key)
		}
	}
	if !sameCodes(got, libs) {
		t.Fatalf("SAVE's libraries: %q", got)
	}

	// Our payload restores into redis-server: refused in APPEND (the libraries exist), then
	// with FLUSH.
	ours := encodeFunctionDumpVersion(libs, 10, true)
	r := rc.do(t, []byte("FUNCTION"), []byte("RESTORE"), ours)
	if err, ok := r.(error); !ok || err.Error() != "ERR Library mylib already exists" && err.Error() != "ERR Library biglib already exists" {
		t.Errorf("RESTORE APPEND of existing libraries: %v", r)
	}
	if r := rc.do(t, []byte("FUNCTION"), []byte("RESTORE"), ours, []byte("FLUSH")); r != "OK" {
		t.Errorf("RESTORE FLUSH: %v", r)
	}
	if r := rc.cmd(t, "FCALL", "myfunc", "0", "hello"); !bytes.Equal(asBytes(r), []byte("hello")) {
		t.Errorf("FCALL after RESTORE: %v", r)
	}

	// A file of ours (version 10) loads into redis-server with its libraries.
	dir2 := t.TempDir()
	os.WriteFile(filepath.Join(dir2, "dump.rdb"), encodeWithFunctions(t, libs, []Entry{
		{Key: []byte("k"), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1},
	}, 10), 0o644)
	rc2 := startRedis(t, dir2)
	list, ok := rc2.cmd(t, "FUNCTION", "LIST").([]any)
	if !ok || len(list) != 2 {
		t.Fatalf("FUNCTION LIST after loading our file: %v", list)
	}
	if r := rc2.cmd(t, "FCALL", "myfunc", "0", "hi"); !bytes.Equal(asBytes(r), []byte("hi")) {
		t.Errorf("FCALL after loading our file: %v", r)
	}
	if r := rc2.cmd(t, "GET", "k"); !bytes.Equal(asBytes(r), []byte("v")) {
		t.Errorf("GET k: %v", r)
	}
}

// loadLibraries loads codes into redis-server.
func loadLibraries(t *testing.T, rc *respConn, codes [][]byte) {
	t.Helper()
	for _, code := range codes {
		if r := rc.do(t, []byte("FUNCTION"), []byte("LOAD"), code); r == nil || isErr(r) {
			t.Fatalf("FUNCTION LOAD refused: %v", r)
		}
	}
}

// sameCodes reports whether a and b hold the same codes, in any order.
func sameCodes(a, b [][]byte) bool {
	sort := func(x [][]byte) [][]byte {
		x = slices.Clone(x)
		slices.SortFunc(x, bytes.Compare)
		return x
	}
	return slices.EqualFunc(sort(a), sort(b), bytes.Equal)
}

// asBytes is a bulk reply's bytes, or nil.
func asBytes(r any) []byte {
	b, _ := r.([]byte)
	return b
}

// isErr reports whether r is an error reply.
func isErr(r any) bool {
	_, ok := r.(error)
	return ok
}
