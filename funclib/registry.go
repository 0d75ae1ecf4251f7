package funclib

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/scripting"
)

// EngineName is the one engine's name, as FUNCTION LIST and STATS show it.
const EngineName = "LUA"

// Errors of the registry, in Redis's words.
const (
	ErrLibraryNotFound = replyerr.Error("ERR Library not found")
	ErrNoFunctions     = replyerr.Error("ERR No functions registered")
	// ErrFunctionNotFound is FCALL's reply for a name no library registers.
	ErrFunctionNotFound = replyerr.Error("ERR Function not found")
)

// Engine compiles libraries: the Lua engine (*scripting.Engine). LoadLibrary runs the code
// once with redis.register_function available and returns the library with its functions,
// or an error whose text is Redis's reply; DropLibrary tells it a library is gone (its pooled
// states forget it).
type Engine interface {
	LoadLibrary(code []byte) (*scripting.Library, error)
	DropLibrary(lib *scripting.Library)
}

// Policy is FUNCTION RESTORE's policy toward libraries that exist already.
type Policy uint8

// The policies of FUNCTION RESTORE.
const (
	Append  Policy = iota // add the payload's libraries; one that exists already fails the restore
	Replace               // add them, replacing those of the same names
	Flush                 // drop every library first
)

// Registry is the set of loaded libraries and their functions. It is safe for concurrent use.
type Registry struct {
	engine Engine
	mu     sync.Mutex              // serializes changes: held while a version is built and published
	cur    atomic.Pointer[version] // the current version, read without the lock
	// changes counts the successful changes (Changes).
	changes atomic.Int64
}

// version is one immutable state of the registry.
type version struct {
	libs   map[string]*scripting.Library  // by name, case-sensitive
	funcs  map[string]*scripting.Function // by lower-case name: FCALL finds them without case
	names  []string                       // the libraries' names, sorted: LIST's and DUMP's order
	nfuncs int                            // the functions linked (len(funcs))
}

// New returns an empty registry whose libraries engine compiles.
func New(engine Engine) *Registry {
	r := &Registry{engine: engine}
	r.cur.Store(emptyVersion())
	return r
}

func emptyVersion() *version {
	return &version{libs: map[string]*scripting.Library{}, funcs: map[string]*scripting.Function{}}
}

// clone returns a copy of v to change.
func (v *version) clone() *version {
	return &version{libs: maps.Clone(v.libs), funcs: maps.Clone(v.funcs)}
}

// link adds lib and its functions. Within a library names are case-sensitive, across them not:
// of two names of one library that differ only in case, the first is the one FCALL finds, as
// Redis's dictAdd keeps the first.
func (v *version) link(lib *scripting.Library) {
	v.libs[lib.Name] = lib
	for _, f := range lib.Functions {
		k := strings.ToLower(f.Name)
		if _, ok := v.funcs[k]; !ok {
			v.funcs[k] = f
		}
	}
}

// unlink removes lib and its functions.
func (v *version) unlink(lib *scripting.Library) {
	delete(v.libs, lib.Name)
	for _, f := range lib.Functions {
		k := strings.ToLower(f.Name)
		if v.funcs[k] == f {
			delete(v.funcs, k)
		}
	}
}

// clash returns the first function of lib whose name (without case) v has already.
func (v *version) clash(lib *scripting.Library) (string, bool) {
	for _, f := range lib.Functions {
		if _, ok := v.funcs[strings.ToLower(f.Name)]; ok {
			return f.Name, true
		}
	}
	return "", false
}

// seal finishes a version built by clone, link and unlink.
func (v *version) seal() *version {
	v.names = slices.Sorted(maps.Keys(v.libs))
	v.nfuncs = len(v.funcs)
	return v
}

// compile checks code's metadata, refuses a library that exists in v unless replace, and has
// the engine compile it; the library must register a function.
func (r *Registry) compile(v *version, code []byte, replace bool) (*scripting.Library, error) {
	md, err := parseMetadata(code)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(md.engine, EngineName) {
		return nil, replyerr.Error("ERR Engine '" + md.engine + "' not found")
	}
	if _, ok := v.libs[md.name]; ok && !replace {
		return nil, replyerr.Error("ERR Library '" + md.name + "' already exists")
	}
	lib, err := r.engine.LoadLibrary(code)
	if err != nil {
		return nil, err
	}
	lib.Name = md.name
	if len(lib.Functions) == 0 {
		r.engine.DropLibrary(lib)
		return nil, ErrNoFunctions
	}
	return lib, nil
}

// add builds v with lib linked, replacing a library of its name; a function whose name
// another library has fails it (Redis's "Function f already exists"). It returns the library
// replaced, if any.
func add(v *version, lib *scripting.Library) (*version, *scripting.Library, error) {
	nv := v.clone()
	old := nv.libs[lib.Name]
	if old != nil {
		nv.unlink(old)
	}
	if name, ok := nv.clash(lib); ok {
		return nil, nil, replyerr.Error("ERR Function " + name + " already exists")
	}
	nv.link(lib)
	return nv.seal(), old, nil
}

// Load is FUNCTION LOAD: it compiles code and adds its library, replacing one of the same name
// with replace. It returns the library's name; errors are Redis's replies.
func (r *Registry) Load(code []byte, replace bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v := r.cur.Load()
	lib, err := r.compile(v, code, replace)
	if err != nil {
		return "", err
	}
	nv, old, err := add(v, lib)
	if err != nil {
		r.engine.DropLibrary(lib)
		return "", err
	}
	r.cur.Store(nv)
	r.changes.Add(1)
	if old != nil {
		r.engine.DropLibrary(old)
	}
	return lib.Name, nil
}

// Delete is FUNCTION DELETE: it removes the library name (case-sensitive).
func (r *Registry) Delete(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	v := r.cur.Load()
	lib := v.libs[name]
	if lib == nil {
		return ErrLibraryNotFound
	}
	nv := v.clone()
	nv.unlink(lib)
	r.cur.Store(nv.seal())
	r.changes.Add(1)
	r.engine.DropLibrary(lib)
	return nil
}

// Flush is FUNCTION FLUSH: it removes every library.
func (r *Registry) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.cur.Swap(emptyVersion())
	r.changes.Add(1)
	for _, name := range old.names {
		r.engine.DropLibrary(old.libs[name])
	}
}

// Lookup is FCALL's: the function called name (without case), or nil. It does not wait.
func (r *Registry) Lookup(name []byte) *scripting.Function {
	v := r.cur.Load()
	if f, ok := v.funcs[string(name)]; ok { // a lower-case name: no allocation
		return f
	}
	if !hasUpper(name) {
		return nil
	}
	return v.funcs[strings.ToLower(string(name))]
}

// hasUpper reports whether b has an ASCII upper-case letter.
func hasUpper(b []byte) bool {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// List is FUNCTION LIST's: the libraries whose names match pattern (glob-style, without
// case, as Redis's LIBRARYNAME), every one when pattern is nil, sorted by name. They must
// not be changed.
func (r *Registry) List(pattern []byte) []*scripting.Library {
	v := r.cur.Load()
	out := make([]*scripting.Library, 0, len(v.names))
	for _, name := range v.names {
		if pattern == nil || glob.Match(pattern, []byte(name), true) {
			out = append(out, v.libs[name])
		}
	}
	return out
}

// Stats are FUNCTION STATS's and INFO's counts.
type Stats struct {
	Libraries int // number_of_libraries, libraries_count
	Functions int // number_of_functions, functions_count
}

// Stats returns the counts of libraries and functions.
func (r *Registry) Stats() Stats {
	v := r.cur.Load()
	return Stats{Libraries: len(v.libs), Functions: v.nfuncs}
}

// Memory overhead figures of Memory, in the terms of Redis's functionsMemoryOverhead on 64-bit
// Linux: the empty registry (dictionaries, context, engine: 200 bytes in redis-server 7.0.15's
// INFO), a library's structure, a function's structure with its engine part and dictionary
// entry, and an sds header. They make used_memory_functions comparable with Redis's (the
// library "#!lua name=mylib" of one function myfunc returning args[1]: 450 here, 456 there),
// not exact.
const (
	memEmpty    = 200
	memLibrary  = 48
	memFunction = 48 + 16 + 24
	memSDS      = 4
)

// Memory is used_memory_functions: an estimate of the registry's overhead in Redis's terms —
// its structures, names, descriptions and code (the Lua side is the engine's
// used_memory_vm_functions).
func (r *Registry) Memory() int64 {
	v := r.cur.Load()
	n := int64(memEmpty)
	for _, lib := range v.libs {
		n += memLibrary + int64(len(lib.Name)+len(lib.Code)+2*memSDS)
		for _, f := range lib.Functions {
			n += memFunction + int64(len(f.Name)+memSDS)
			if f.Description != "" {
				n += int64(len(f.Description) + memSDS)
			}
		}
	}
	return n
}

// Codes returns every library's code, sorted by library name: what FUNCTION DUMP and
// snapshots write. The slices must not be changed.
func (r *Registry) Codes() [][]byte {
	v := r.cur.Load()
	out := make([][]byte, len(v.names))
	for i, name := range v.names {
		out[i] = v.libs[name].Code
	}
	return out
}

// Dump is FUNCTION DUMP: the payload of every library (rdb.EncodeFunctionDump).
func (r *Registry) Dump() []byte { return rdb.EncodeFunctionDump(r.Codes()) }

// Restore is FUNCTION RESTORE: it loads the payload's libraries by policy, all or none. Errors
// are Redis's replies: the payload's (rdb.DecodeFunctionDump), a library's compilation, a
// library twice in the payload ("ERR Library 'x' already exists"), a library that exists
// already with Append ("ERR Library x already exists"), a function another library has
// ("ERR Function f already exists").
func (r *Registry) Restore(payload []byte, policy Policy) error {
	codes, err := rdb.DecodeFunctionDump(payload)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// The payload's libraries, compiled into a version of their own first (Redis's temporary
	// functions context): they must not clash with one another.
	src := emptyVersion()
	var compiled []*scripting.Library
	drop := func(libs []*scripting.Library) {
		for _, lib := range libs {
			r.engine.DropLibrary(lib)
		}
	}
	for _, code := range codes {
		lib, err := r.compile(src, code, false)
		if err == nil {
			src, _, err = add(src, lib)
			if err != nil {
				r.engine.DropLibrary(lib)
			}
		}
		if err != nil {
			drop(compiled)
			return err
		}
		compiled = append(compiled, lib)
	}

	cur := r.cur.Load()
	var replaced []*scripting.Library
	var nv *version
	if policy == Flush {
		nv = src
		for _, name := range cur.names {
			replaced = append(replaced, cur.libs[name])
		}
	} else {
		nv = cur.clone()
		for _, name := range src.names {
			if old := nv.libs[name]; old != nil {
				if policy != Replace {
					drop(compiled)
					return replyerr.Error("ERR Library " + name + " already exists")
				}
				nv.unlink(old)
				replaced = append(replaced, old)
			}
		}
		for _, name := range src.names {
			if fname, ok := nv.clash(src.libs[name]); ok {
				drop(compiled)
				return replyerr.Error("ERR Function " + fname + " already exists")
			}
		}
		for _, name := range src.names {
			nv.link(src.libs[name])
		}
		nv.seal()
	}
	r.cur.Store(nv)
	r.changes.Add(1)
	drop(replaced)
	return nil
}

// Changes counts the changes made to the registry (LOAD, DELETE, FLUSH, RESTORE): they count
// toward the save points as Redis's server.dirty++ (persist.Functions).
func (r *Registry) Changes() int64 { return r.changes.Load() }

// LoadCode is persist.Functions': a library read from a snapshot, added as FUNCTION LOAD adds
// it (replace: DEBUG RELOAD MERGE); the error is Redis's text without its "ERR " code, as
// Redis logs it ("Failed loading library, Library 'x' already exists").
func (r *Registry) LoadCode(code []byte, replace bool) error {
	_, err := r.Load(code, replace)
	if err != nil {
		return replyerr.Error(strings.TrimPrefix(err.Error(), "ERR "))
	}
	return nil
}
