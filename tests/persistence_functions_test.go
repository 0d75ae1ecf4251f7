package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kvserver/kvserver/rdb"
)

// Function libraries in dumps (RDB opcode 245): kept across a restart and DEBUG RELOAD,
// exchanged with redis-server 7.0.15 both ways, and a library that fails to load refuses the
// start, as Redis.

// pfLibs are two libraries: one plain, one long enough for LZF with a flagged function.
var pfLibs = []string{
	"#!lua name=mylib\nredis.register_function('myecho', function(keys, args) return args[1] end)",
	"#!lua name=lib2\n-- " + strings.Repeat("padding for a compressed library ", 4) + "\n" +
		"redis.register_function{function_name='getkey', callback=function(keys) return redis.call('GET', keys[1]) end, flags={'no-writes'}}",
}

// loadLibs loads pfLibs into the server c talks to.
func loadLibs(t testing.TB, c *rawConn) {
	t.Helper()
	for _, code := range pfLibs {
		if r := c.Do("FUNCTION", "LOAD", code); r.Kind != '$' {
			t.Fatalf("FUNCTION LOAD: %s", formatReply(r, false))
		}
	}
}

// checkLibs checks that the server c talks to has pfLibs: FUNCTION LIST's names and codes, and
// FCALL of both functions.
func checkLibs(t testing.TB, what string, c *rawConn) {
	t.Helper()
	r := c.Do("FUNCTION", "LIST", "WITHCODE")
	got := map[string]string{}
	for _, lib := range r.Elems {
		var name, code string
		for i := 0; i+1 < len(lib.Elems); i += 2 {
			switch lib.Elems[i].Str {
			case "library_name":
				name = lib.Elems[i+1].Str
			case "library_code":
				code = lib.Elems[i+1].Str
			}
		}
		got[name] = code
	}
	if len(got) != 2 || got["mylib"] != pfLibs[0] || got["lib2"] != pfLibs[1] {
		t.Errorf("%s: FUNCTION LIST WITHCODE: %s", what, formatReply(r, false))
	}
	c.Do("SET", "fkey", "fval")
	if r := c.Do("FCALL", "myecho", "0", "hello"); r.Str != "hello" {
		t.Errorf("%s: FCALL myecho: %s", what, formatReply(r, false))
	}
	if r := c.Do("FCALL_RO", "GETKEY", "1", "fkey"); r.Str != "fval" {
		t.Errorf("%s: FCALL_RO getkey: %s", what, formatReply(r, false))
	}
}

// TestPersistFunctions: libraries survive SAVE and a restart, DEBUG RELOAD, and FLUSHALL (which
// keeps them, as Redis's).
func TestPersistFunctions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	c := srv.RawConn(t)
	loadLibs(t, c)
	expectStatus(t, "FLUSHALL", c.Do("FLUSHALL"), "+OK")
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	var codes []string
	d := decodeFunctions(t, filepath.Join(dir, "dump.rdb"), &codes)
	if len(codes) != 2 || d.Version() != craftVersion() {
		t.Fatalf("dump: version %d, libraries %q", d.Version(), codes)
	}
	expectStatus(t, "DEBUG RELOAD", c.Do("DEBUG", "RELOAD"), "+OK")
	checkLibs(t, "after DEBUG RELOAD", c)
	shutdown(t, srv, "SAVE")

	srv = restart(t, dir)
	checkLibs(t, "after a restart", srv.RawConn(t))
}

// decodeFunctions reads the file at path with package rdb, appending its libraries' codes.
func decodeFunctions(t testing.TB, path string, codes *[]string) *rdb.Decoder {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := rdb.NewDecoder(f)
	d.OnFunction = func(code []byte) error { *codes = append(*codes, string(code)); return nil }
	for {
		if _, err := d.Next(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("decode %s: %v", path, err)
			}
			return d
		}
	}
}

// TestPersistFunctionsInterop: redis-server 7.0.15's dump with libraries loads here with them,
// and ours (header set to version 10) loads there, checked by redis-check-rdb too.
func TestPersistFunctionsInterop(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "the interop test compares kvserver with redis-server")
	rdir := t.TempDir()
	r := startRedisOn(t, rdir)
	loadLibs(t, r.RawConn(t))
	expectStatus(t, "redis-server SAVE", r.RawConn(t).Do("SAVE"), "+OK")
	shutdown(t, r, "NOSAVE")
	dir := t.TempDir()
	copyDump(t, rdir, dir, false)
	srv := restart(t, dir)
	checkLibs(t, "kvserver on redis-server's dump", srv.RawConn(t))

	expectStatus(t, "SAVE", srv.RawConn(t).Do("SAVE"), "+OK")
	rdir2 := t.TempDir()
	copyDump(t, dir, rdir2, true)
	rpath := filepath.Join(rdir2, "dump.rdb")
	if out, err := exec.Command("redis-check-rdb", rpath).CombinedOutput(); err != nil || !strings.Contains(string(out), "RDB looks OK") {
		t.Errorf("redis-check-rdb: %v\n%s", err, out)
	}
	r2 := startRedisOn(t, rdir2)
	checkLibs(t, "redis-server on kvserver's dump", r2.RawConn(t))
}

// TestPersistFunctionsRefused: a dump whose library cannot be created (a name twice, code that
// does not compile) refuses the start with Redis's words ("Failed loading library, …"), as
// redis-server exits.
func TestPersistFunctionsRefused(t *testing.T) {
	t.Parallel()
	// redis-server 7.0.15 logs the same line but exits 0: after a failed load it runs
	// redis-check-rdb on the file, which finds it well formed, and exits with its status.
	requireKvserver(t, "redis-server exits 0 after redis-check-rdb finds the file well formed")
	for _, tc := range []struct {
		name  string
		codes []string
		word  string
	}{
		{"library-twice", []string{pfLibs[0], pfLibs[0]}, "library 'mylib' already exists"},
		{"not-compiling", []string{"#!lua name=bad\nredis.register_function('x', function() end"}, "failed loading library"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			f, err := os.Create(filepath.Join(dir, "dump.rdb"))
			if err != nil {
				t.Fatal(err)
			}
			e := rdb.NewEncoder(f)
			e.Version = craftVersion() // 10 for redis-server 7.0.15
			e.WriteHeader()
			e.WriteStandardAux("7.2.4", time.Now().Unix(), 1<<20)
			for _, c := range tc.codes {
				e.WriteFunction([]byte(c))
			}
			if err := e.Finish(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			loadRefused(t, dir, tc.word)
		})
	}
}
