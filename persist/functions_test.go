package persist

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/rdb"
)

// fakeFunctions is a registry of library codes keyed by their first line.
type fakeFunctions struct {
	mu    sync.Mutex
	codes [][]byte
	loads []string // "replace"/"append" per LoadCode
	fail  error
}

func (f *fakeFunctions) Codes() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.codes)
}

func (f *fakeFunctions) Changes() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return int64(len(f.loads))
}

func (f *fakeFunctions) LoadCode(code []byte, replace bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	f.codes = append(f.codes, code)
	f.loads = append(f.loads, map[bool]string{true: "replace", false: "append"}[replace])
	return nil
}

var testLibs = [][]byte{
	[]byte("#!lua name=a\nredis.register_function('fa', function() return 1 end)"),
	[]byte("#!lua name=b\n" + strings.Repeat("-- padding\n", 10) + "redis.register_function('fb', function() return 2 end)"),
}

// A snapshot writes the libraries before the databases; a load hands them to OnFunction, and
// its error fails the load in Redis's words.
func TestSnapshotFunctions(t *testing.T) {
	src := newKS(t)
	put(t, src, 0, "k", "v", 0)
	var buf bytes.Buffer
	if _, err := WriteSnapshot(src, &buf, SnapshotOptions{Compress: true, Checksum: true, Functions: testLibs}); err != nil {
		t.Fatal(err)
	}
	var order []string
	d := rdb.NewDecoder(bytes.NewReader(buf.Bytes()))
	d.OnFunction = func(code []byte) error { order = append(order, string(code)); return nil }
	for {
		ent, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, "key "+string(ent.Key))
	}
	if want := []string{string(testLibs[0]), string(testLibs[1]), "key k"}; !slices.Equal(order, want) {
		t.Fatalf("file order %q", order)
	}

	var got [][]byte
	dst := newKS(t)
	res, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{OnFunction: func(code []byte) error {
		got = append(got, code)
		return nil
	}})
	if err != nil || res.Keys != 1 || !slices.EqualFunc(got, testLibs, bytes.Equal) {
		t.Fatalf("Load: %v, %d keys, libraries %q", err, res.Keys, got)
	}
	_, err = Load(newKS(t), bytes.NewReader(buf.Bytes()), LoadOptions{OnFunction: func([]byte) error {
		return errors.New("Library 'a' already exists")
	}})
	if err == nil || err.Error() != "Failed loading library, Library 'a' already exists" {
		t.Fatalf("failing library: %v", err)
	}
}

// The persister's saves (SAVE, FLUSHALL's empty file) carry the libraries of Functions, and its
// loads give them back (DEBUG RELOAD MERGE replacing).
func TestPersisterFunctions(t *testing.T) {
	dir := t.TempDir()
	ks := newKS(t)
	put(t, ks, 0, "k", "v", 0)
	st := Settings{Dir: dir, DBFilename: "dump.rdb", Compress: true, Checksum: true, RedisVer: "7.2.4",
		SavePoints: []SavePoint{{Seconds: 3600, Changes: 1}}}
	p := New(ks, func() Settings { return st }, zap.NewNop())
	src := &fakeFunctions{codes: testLibs}
	p.Functions = src
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}

	dst := &fakeFunctions{}
	p2 := New(newKS(t), func() Settings { return st }, zap.NewNop())
	p2.Functions = dst
	if res, err := p2.LoadFile(filepath.Join(dir, "dump.rdb"), false, false); err != nil || res.Keys != 1 {
		t.Fatalf("LoadFile: %v %d", err, res.Keys)
	}
	if !slices.EqualFunc(dst.codes, testLibs, bytes.Equal) || !slices.Equal(dst.loads, []string{"append", "append"}) {
		t.Fatalf("loaded %q %v", dst.codes, dst.loads)
	}
	// What a load creates is what the file holds: no changes since the last save.
	if n := p2.Stats().ChangesSinceLastSave; n != 0 {
		t.Errorf("changes after the load: %d", n)
	}
	// A change to the libraries counts toward the save points, as Redis's dirty++.
	dst.LoadCode([]byte("#!lua name=c\n"), false)
	if n := p2.Stats().ChangesSinceLastSave; n != 1 {
		t.Errorf("changes after a library's load: %d", n)
	}
	// DEBUG RELOAD MERGE: locks held, libraries replace theirs.
	dst.codes, dst.loads = nil, nil
	if _, err := p2.LoadFile(filepath.Join(dir, "dump.rdb"), true, true); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dst.loads, []string{"replace", "replace"}) {
		t.Fatalf("merge loads %v", dst.loads)
	}

	// FLUSHALL's file keeps the libraries (Redis's functions survive FLUSHALL).
	if err := p.FlushedAll(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	var n int
	d := rdb.NewDecoder(bytes.NewReader(data))
	d.OnFunction = func([]byte) error { n++; return nil }
	for {
		if _, err := d.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if n != len(testLibs) {
		t.Fatalf("FLUSHALL's file has %d libraries", n)
	}

	// Without Functions a file with libraries is refused, as before.
	p3 := New(newKS(t), func() Settings { return st }, zap.NewNop())
	var uo *rdb.UnsupportedOpcodeError
	if _, err := p3.LoadFile(filepath.Join(dir, "dump.rdb"), true, false); !errors.As(err, &uo) {
		t.Fatalf("no Functions: %v", err)
	}
}
