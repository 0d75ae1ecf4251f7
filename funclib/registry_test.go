package funclib

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/persist"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/scripting"
)

// fakeEngine compiles a toy library language: after the metadata line, "fn NAME [FLAG…]" registers
// a function, "desc NAME TEXT" describes the last one, "fail TEXT" is a compile error. It
// records the libraries it compiled and dropped.
type fakeEngine struct {
	mu      sync.Mutex
	live    map[*scripting.Library]bool
	dropped int
}

func newFakeEngine() *fakeEngine { return &fakeEngine{live: map[*scripting.Library]bool{}} }

func (e *fakeEngine) LoadLibrary(code []byte) (*scripting.Library, error) {
	lib := &scripting.Library{Code: code}
	lines := strings.Split(string(code), "\n")
	for _, line := range lines[1:] {
		w := strings.Fields(line)
		switch {
		case len(w) >= 2 && w[0] == "fn":
			f := &scripting.Function{Name: w[1], Library: lib}
			for _, fl := range w[2:] {
				if fl == "no-writes" {
					f.Flags |= scripting.NoWrites
				}
			}
			lib.Functions = append(lib.Functions, f)
		case len(w) >= 3 && w[0] == "desc":
			lib.Functions[len(lib.Functions)-1].Description = strings.Join(w[2:], " ")
		case len(w) >= 1 && w[0] == "fail":
			return nil, errors.New("ERR Error compiling function: " + strings.Join(w[1:], " "))
		}
	}
	e.mu.Lock()
	e.live[lib] = true
	e.mu.Unlock()
	return lib, nil
}

func (e *fakeEngine) DropLibrary(lib *scripting.Library) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.live[lib] {
		panic("drop of a library not live: " + lib.Name)
	}
	delete(e.live, lib)
	e.dropped++
}

// liveCount is the number of compiled libraries not dropped.
func (e *fakeEngine) liveCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.live)
}

// lib is a library's code: the metadata line naming it, then body lines.
func lib(name string, body ...string) []byte {
	return []byte("#!lua name=" + name + "\n" + strings.Join(body, "\n"))
}

func mustLoad(t *testing.T, r *Registry, code []byte, replace bool) {
	t.Helper()
	if _, err := r.Load(code, replace); err != nil {
		t.Fatalf("Load(%q): %v", code, err)
	}
}

// check asserts err's text (nil: "").
func check(t *testing.T, what string, err error, want string) {
	t.Helper()
	got := ""
	if err != nil {
		got = err.Error()
	}
	if got != want {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

// names are the libraries and their functions: "lib:f1,f2 lib2:g".
func names(r *Registry) string {
	var parts []string
	for _, l := range r.List(nil) {
		var fs []string
		for _, f := range l.Functions {
			fs = append(fs, f.Name)
		}
		parts = append(parts, l.Name+":"+strings.Join(fs, ","))
	}
	return strings.Join(parts, " ")
}

func TestMetadataErrors(t *testing.T) {
	r := New(newFakeEngine())
	for _, tc := range []struct{ code, want string }{
		{"redis.register_function('f', function() end)", "ERR Missing library metadata"},
		{"#!lua name=x", "ERR Invalid library metadata"},
		{"#!lua name=x\x00\nfn f", "ERR Invalid library metadata"},
		{"#!lua name=\"x\nfn f", "ERR Invalid library metadata"},
		{"#!\nfn f", "ERR Library name was not given"},
		{"#!lua\nfn f", "ERR Library name was not given"},
		{"#!lua name=x foo=bar\nfn f", "ERR Invalid metadata value given: foo=bar"},
		{"#!lua name=x name=y\nfn f", "ERR Invalid metadata value, name argument was given multiple times"},
		{"#!lua name=a-b\nfn f", "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"},
		{"#!lua name=\nfn f", "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"},
		{"#!js name=x\nfn f", "ERR Engine 'js' not found"},
		{"#!lua name=x\n-- nothing registered", "ERR No functions registered"},
		{"#!lua name=x\nfail oops", "ERR Error compiling function: oops"},
	} {
		_, err := r.Load([]byte(tc.code), false)
		check(t, fmt.Sprintf("%q", tc.code), err, tc.want)
	}
	// The engine's name and the name= key are without case; quotes as sdssplitargs.
	for _, code := range []string{"#!LUA name=x1\nfn f1", "#!lua NAME=x2\nfn f2", "#!lua \"name=x3\"\nfn f3"} {
		if _, err := r.Load([]byte(code), false); err != nil {
			t.Errorf("%q: %v", code, err)
		}
	}
	if got := names(r); got != "x1:f1 x2:f2 x3:f3" {
		t.Errorf("libraries %q", got)
	}
}

func TestLoadDeleteFlush(t *testing.T) {
	e := newFakeEngine()
	r := New(e)
	name, err := r.Load(lib("mylib", "fn myfunc", "fn other no-writes"), false)
	if err != nil || name != "mylib" {
		t.Fatalf("Load: %q %v", name, err)
	}
	_, err = r.Load(lib("mylib", "fn g"), false)
	check(t, "existing library", err, "ERR Library 'mylib' already exists")
	_, err = r.Load(lib("lib2", "fn h", "fn MyFunc"), false)
	check(t, "a function of another library, other case", err, "ERR Function MyFunc already exists")
	// Library names are case-sensitive.
	mustLoad(t, r, lib("MYLIB", "fn upper"), false)
	// REPLACE: the library's own functions do not clash with the new version.
	mustLoad(t, r, lib("mylib", "fn myfunc", "fn third"), true)
	if got := names(r); got != "MYLIB:upper mylib:myfunc,third" {
		t.Fatalf("libraries %q", got)
	}
	if r.Lookup([]byte("other")) != nil {
		t.Error("a replaced library's function is still found")
	}
	// A failed REPLACE keeps the old library.
	_, err = r.Load(lib("mylib", "fn upper"), true)
	check(t, "REPLACE clashing", err, "ERR Function upper already exists")
	if f := r.Lookup([]byte("third")); f == nil || f.Library.Name != "mylib" {
		t.Error("a failed REPLACE lost the old library")
	}
	// FCALL finds functions without case.
	for _, n := range []string{"myfunc", "MYFUNC", "MyFunc"} {
		if f := r.Lookup([]byte(n)); f == nil || f.Name != "myfunc" {
			t.Errorf("Lookup(%q) = %v", n, f)
		}
	}
	if r.Lookup([]byte("nope")) != nil || r.Lookup([]byte("NOPE")) != nil {
		t.Error("Lookup of a missing function")
	}
	if st := r.Stats(); st != (Stats{Libraries: 2, Functions: 3}) {
		t.Errorf("Stats %+v", st)
	}

	check(t, "DELETE missing", r.Delete("nope"), "ERR Library not found")
	check(t, "DELETE other case", r.Delete("Mylib"), "ERR Library not found")
	check(t, "DELETE", r.Delete("MYLIB"), "")
	if r.Lookup([]byte("upper")) != nil || names(r) != "mylib:myfunc,third" {
		t.Errorf("after DELETE: %q", names(r))
	}
	r.Flush()
	if st := r.Stats(); st != (Stats{}) || r.Lookup([]byte("myfunc")) != nil || len(r.Codes()) != 0 {
		t.Errorf("after FLUSH: %+v", st)
	}
	// Every library compiled was dropped once (a failed one too): none left, none twice.
	if n := e.liveCount(); n != 0 {
		t.Errorf("%d libraries not dropped", n)
	}
}

// Two functions of one library differing only in case: both listed, FCALL finds the first,
// as Redis.
func TestFunctionNamesCase(t *testing.T) {
	r := New(newFakeEngine())
	mustLoad(t, r, lib("x6", "fn f6", "fn F6"), false)
	if f := r.Lookup([]byte("F6")); f == nil || f.Name != "f6" {
		t.Errorf("Lookup(F6) = %v", f)
	}
	if st := r.Stats(); st.Functions != 1 {
		t.Errorf("functions %d", st.Functions) // Redis's functions dictionary holds one
	}
	check(t, "DELETE", r.Delete("x6"), "")
	if r.Lookup([]byte("f6")) != nil {
		t.Error("found after DELETE")
	}
}

func TestList(t *testing.T) {
	r := New(newFakeEngine())
	mustLoad(t, r, lib("beta", "fn b"), false)
	mustLoad(t, r, lib("alpha", "fn a", "desc a hello world"), false)
	mustLoad(t, r, lib("Alpine", "fn c"), false)
	var got []string
	for _, l := range r.List([]byte("al*")) {
		got = append(got, l.Name)
	}
	if !slices.Equal(got, []string{"Alpine", "alpha"}) {
		t.Errorf("LIBRARYNAME al*: %q", got)
	}
	if l := r.List([]byte("zz*")); len(l) != 0 {
		t.Errorf("no match: %v", l)
	}
	if l := r.List(nil); len(l) != 3 || l[1].Functions[0].Description != "hello world" {
		t.Errorf("all: %v", l)
	}
}

func TestDumpRestore(t *testing.T) {
	e := newFakeEngine()
	src := New(e)
	mustLoad(t, src, lib("a", "fn fa"), false)
	mustLoad(t, src, lib("b", "fn fb1", "fn fb2"), false)
	p := src.Dump()
	codes, err := rdb.DecodeFunctionDump(p)
	if err != nil || !slices.EqualFunc(codes, [][]byte{lib("a", "fn fa"), lib("b", "fn fb1", "fn fb2")}, bytes.Equal) {
		t.Fatalf("Dump: %q %v", codes, err)
	}

	dst := New(e)
	check(t, "RESTORE", dst.Restore(p, Append), "")
	if names(dst) != "a:fa b:fb1,fb2" {
		t.Fatalf("restored %q", names(dst))
	}
	check(t, "RESTORE APPEND again", dst.Restore(p, Append), "ERR Library a already exists")
	check(t, "RESTORE REPLACE", dst.Restore(p, Replace), "")
	if names(dst) != "a:fa b:fb1,fb2" {
		t.Fatalf("after REPLACE %q", names(dst))
	}

	// A function of another library fails APPEND and REPLACE, all or nothing.
	other := New(e)
	mustLoad(t, other, lib("c", "fn fc"), false)
	mustLoad(t, other, lib("d", "fn fa"), false)
	q := other.Dump()
	check(t, "RESTORE clashing", dst.Restore(q, Append), "ERR Function fa already exists")
	check(t, "RESTORE REPLACE clashing", dst.Restore(q, Replace), "ERR Function fa already exists")
	if names(dst) != "a:fa b:fb1,fb2" {
		t.Fatalf("a failed RESTORE changed the registry: %q", names(dst))
	}
	// FLUSH replaces everything.
	check(t, "RESTORE FLUSH", dst.Restore(q, Flush), "")
	if names(dst) != "c:fc d:fa" || dst.Lookup([]byte("fb1")) != nil {
		t.Fatalf("after FLUSH %q", names(dst))
	}

	// The payload's errors, and its libraries' own.
	check(t, "bad payload", dst.Restore([]byte("garbage payload"), Append), "ERR DUMP payload version or checksum are wrong")
	dup := rdb.EncodeFunctionDump([][]byte{lib("z", "fn z1"), lib("z", "fn z2")})
	check(t, "a library twice", dst.Restore(dup, Flush), "ERR Library 'z' already exists")
	clash := rdb.EncodeFunctionDump([][]byte{lib("y", "fn same"), lib("z", "fn SAME")})
	check(t, "a function twice", dst.Restore(clash, Flush), "ERR Function SAME already exists")
	bad := rdb.EncodeFunctionDump([][]byte{lib("y", "fn ok"), []byte("no metadata")})
	check(t, "no metadata", dst.Restore(bad, Flush), "ERR Missing library metadata")
	if names(dst) != "c:fc d:fa" {
		t.Fatalf("failed RESTOREs changed the registry: %q", names(dst))
	}
	src.Flush()
	dst.Flush()
	other.Flush()
	if n := e.liveCount(); n != 0 {
		t.Errorf("%d libraries not dropped", n)
	}
}

func TestLoadCodeAndMemory(t *testing.T) {
	r := New(newFakeEngine())
	if r.Changes() != 0 {
		t.Errorf("changes %d", r.Changes())
	}
	if m := r.Memory(); m != memEmpty {
		t.Errorf("empty memory %d", m)
	}
	check(t, "LoadCode", r.LoadCode(lib("a", "fn f"), false), "")
	m1 := r.Memory()
	check(t, "LoadCode again", r.LoadCode(lib("a", "fn f"), false), "Library 'a' already exists")
	check(t, "LoadCode merge", r.LoadCode(lib("a", "fn f", "fn g", "desc g some words"), true), "")
	if m2 := r.Memory(); m1 <= memEmpty || m2 <= m1 {
		t.Errorf("memory %d then %d", m1, m2)
	}
	// Two successful loads; the failed one is no change.
	if r.Changes() != 2 {
		t.Errorf("changes %d", r.Changes())
	}
	r.Flush()
	check(t, "DELETE", r.Delete("a"), "ERR Library not found")
	if r.Changes() != 3 {
		t.Errorf("changes after FLUSH %d", r.Changes())
	}
}

// Lookups go on, without locks, while libraries change (go test -race).
func TestConcurrentLookup(t *testing.T) {
	r := New(newFakeEngine())
	mustLoad(t, r, lib("stable", "fn keep"), false)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if f := r.Lookup([]byte("KEEP")); f == nil || f.Library.Name != "stable" {
					t.Error("lost a function no one changed")
					return
				}
				r.Lookup([]byte("churn"))
				r.List(nil)
				r.Codes()
			}
		}()
	}
	for i := range 200 {
		mustLoad(t, r, lib("churn", "fn churn", fmt.Sprintf("-- %d", i)), true)
		if i%10 == 0 {
			r.Delete("churn")
		}
	}
	close(stop)
	wg.Wait()
}

// The registry is what snapshots and loads use.
var _ persist.Functions = (*Registry)(nil)
