package scripting

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/resp"
)

// loadTimeout bounds the run of a library's code at load (functions.c LOAD_TIMEOUT_MS).
const loadTimeout = 500 * time.Millisecond

// Library is a function library's Lua side: its code and the functions it registered. The
// registry of loaded libraries (names, FUNCTION LIST…) is funclib's.
type Library struct {
	Name      string
	Code      []byte      // the whole FUNCTION LOAD payload, with its "#!lua name=…" line
	Functions []*Function // in registration order

	proto   *lua.FunctionProto // the code after the metadata line, shared by every state
	dropped atomic.Bool        // DropLibrary was called: states forget it
}

// Function is a function a library registered.
type Function struct {
	Name, Description string
	Flags             ScriptFlags
	Library           *Library
}

// loading is a library's load under way in a state: register_function adds to it.
type loading struct {
	lib   *Library                  // the library being built (first load) or replayed
	first bool                      // the first load: register_function records Functions
	funcs map[string]*lua.LFunction // the closures registered, by name
}

// LoadLibrary compiles a library and runs its code once, with redis.register_function (both
// forms, with flags and description), redis.log and the version fields available and nothing
// else, as Redis 7.2's FUNCTION LOAD (functions.c functionsCreateWithLibraryCtx and
// function_lua.c luaEngineCreate). The errors are Redis's replies: "ERR Missing library
// metadata", "ERR Library names can only contain…", "ERR Engine 'x' not found", "ERR Error
// compiling function: …", "ERR Error registering functions: …", "ERR No functions registered".
// Clashes with other libraries (names, functions) are the registry's to check.
func (e *Engine) LoadLibrary(code []byte) (*Library, error) {
	name, engine, body, err := parseLibraryMetadata(code)
	if err != nil {
		return nil, err
	}
	if !validName(name) {
		return nil, scriptError(errBadName)
	}
	if !strings.EqualFold(engine, "lua") {
		return nil, scriptError("Engine '" + engine + "' not found")
	}
	proto, err := compile(code, len(code)-len(body), "user_function")
	if err != nil {
		return nil, scriptError("Error compiling function: " + err.Error())
	}
	lib := &Library{Name: name, Code: bytes.Clone(code), proto: proto}
	st := e.funcPool.get()
	funcs, err := st.loadLibrary(lib, true)
	if err != nil {
		e.funcPool.put(st)
		return nil, scriptError("Error registering functions: " + err.Error())
	}
	if len(lib.Functions) == 0 {
		e.funcPool.put(st)
		return nil, scriptError("No functions registered")
	}
	st.libs[lib] = funcs
	e.funcPool.put(st)
	return lib, nil
}

// errBadName is Redis's error for a library or function name that is not [A-Za-z0-9_]+.
const errBadName = "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"

// validName is functions.c functionsVerifyName.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// parseLibraryMetadata reads the "#!<engine> name=<lib>" line (functions.c
// functionExtractLibMetaData); body is the code from the newline that ends it.
func parseLibraryMetadata(code []byte) (name, engine string, body []byte, err error) {
	if !bytes.HasPrefix(code, []byte("#!")) {
		return "", "", nil, scriptError("Missing library metadata")
	}
	end := bytes.IndexByte(code, '\n')
	if end < 0 {
		return "", "", nil, scriptError("Invalid library metadata")
	}
	parts, ok := splitArgs(string(code[:end]))
	if !ok || len(parts) == 0 {
		return "", "", nil, scriptError("Invalid library metadata")
	}
	engine = parts[0][2:]
	named := false
	for _, p := range parts[1:] {
		if len(p) >= 5 && strings.EqualFold(p[:5], "name=") {
			if named {
				return "", "", nil, scriptError("Invalid metadata value, name argument was given multiple times")
			}
			name, named = p[5:], true
			continue
		}
		return "", "", nil, scriptError("Invalid metadata value given: " + p)
	}
	if !named {
		return "", "", nil, scriptError("Library name was not given")
	}
	return name, engine, code[end:], nil
}

// loadLibrary runs a library's code in st with the load-time globals and returns the closures
// it registered. first is the library's first load: register_function builds lib.Functions
// and checks them; later loads (into other states) only collect the closures.
func (st *state) loadLibrary(lib *Library, first bool) (map[string]*lua.LFunction, error) {
	L := st.L
	ld := &loading{lib: lib, first: first, funcs: make(map[string]*lua.LFunction)}
	st.loading = ld
	st.funcMeta.RawSetString("__index", st.loadAPI)
	defer func() {
		st.funcMeta.RawSetString("__index", st.globals)
		st.loading = nil
		L.Env = st.evalEnv
		L.SetTop(0)
	}()
	fn := L.NewFunctionFromProto(lib.proto)
	fn.Env = st.funcEnv
	L.Env = st.funcEnv
	ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
	defer cancel()
	L.SetContext(ctx)
	L.Push(fn)
	err := L.PCall(0, 0, nil)
	L.RemoveContext()
	if err != nil {
		if ctx.Err() != nil {
			return nil, errLoadTimeout
		}
		if ae, ok := err.(*lua.ApiError); ok {
			return nil, loadErrorText(ae.Object)
		}
		return nil, err
	}
	return ld.funcs, nil
}

// errLoadTimeout is the error of a library whose code ran longer than loadTimeout.
var errLoadTimeout = scriptError("FUNCTION LOAD timeout")

// loadErrorText is luaExtractErrorInformation's message: an error table's err, else "ERR "
// and the value's text.
func loadErrorText(obj lua.LValue) error {
	if t, ok := obj.(*lua.LTable); ok {
		if s, ok := t.RawGetString("err").(lua.LString); ok {
			return plainError(string(s))
		}
	}
	return plainError("ERR " + obj.String())
}

// plainError is an error whose text is given whole.
type plainError string

func (e plainError) Error() string { return string(e) }

// loadGlobals builds the globals a library sees while it loads: a redis table with
// register_function, log and the version fields only, every other name an error
// (function_lua.c luaEngineInitEngine's LIBRARY_API).
func (st *state) loadGlobals(e *Engine) *lua.LTable {
	L := st.L
	api := L.NewTable()
	api.RawSetString("register_function", L.NewFunction(st.registerFunction))
	api.RawSetString("log", L.NewFunction(st.redisLog))
	setLogLevels(api)
	setVersion(api, e)
	apiMeta := L.NewTable()
	apiMeta.RawSetString("__index", L.NewFunction(nonexistentGlobal))
	apiMeta.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(api, apiMeta)
	redis := st.proxy(api)

	g := L.NewTable()
	g.RawSetString("redis", redis)
	gMeta := L.NewTable()
	gMeta.RawSetString("__index", L.NewFunction(nonexistentGlobal))
	gMeta.RawSetString("__newindex", L.NewFunction(readonlyError))
	gMeta.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(g, gMeta)
	st.protected[g] = true
	return g
}

// registerFunction is redis.register_function, in its two forms: (name, callback) and
// {function_name=, callback=, flags={…}, description=} (function_lua.c luaRegisterFunction).
func (st *state) registerFunction(L *lua.LState) int {
	ld := st.loading
	if ld == nil {
		pushError(L, "redis.register_function can only be called on FUNCTION LOAD command")
		return raise(L)
	}
	var (
		name, desc string
		cb         *lua.LFunction
		flags      ScriptFlags
		msg        string
	)
	switch L.GetTop() {
	case 1:
		name, desc, cb, flags, msg = namedRegisterArgs(L)
	case 2:
		n, ok := luaString(L.Get(1))
		f, isFn := L.Get(2).(*lua.LFunction)
		switch {
		case !ok:
			msg = "first argument to redis.register_function must be a string"
		case !isFn:
			msg = "second argument to redis.register_function must be a function"
		default:
			name, cb = n, f
		}
	default:
		msg = "wrong number of arguments to redis.register_function"
	}
	if msg == "" && !validName(name) {
		msg = errBadName
	}
	if msg == "" {
		if _, dup := ld.funcs[name]; dup {
			msg = "Function already exists in the library"
		}
	}
	if msg != "" {
		L.SetTop(0)
		pushError(L, msg)
		return raise(L)
	}
	ld.funcs[name] = cb
	if ld.first {
		ld.lib.Functions = append(ld.lib.Functions, &Function{Name: name, Description: desc, Flags: flags, Library: ld.lib})
	}
	return 0
}

// namedRegisterArgs reads register_function's table form; msg is Redis's error, if any.
func namedRegisterArgs(L *lua.LState) (name, desc string, cb *lua.LFunction, flags ScriptFlags, msg string) {
	t, ok := L.Get(1).(*lua.LTable)
	if !ok {
		return "", "", nil, 0, "calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments)."
	}
	var named bool
	k, v := t.Next(lua.LNil)
	for ; k != lua.LNil; k, v = t.Next(k) {
		key, ok := luaString(k)
		if !ok {
			return "", "", nil, 0, "named argument key given to redis.register_function is not a string"
		}
		switch strings.ToLower(key) {
		case "function_name":
			if name, ok = luaString(v); !ok {
				return "", "", nil, 0, "function_name argument given to redis.register_function must be a string"
			}
			named = true
		case "description":
			if desc, ok = luaString(v); !ok {
				return "", "", nil, 0, "description argument given to redis.register_function must be a string"
			}
		case "callback":
			if cb, ok = v.(*lua.LFunction); !ok {
				return "", "", nil, 0, "callback argument given to redis.register_function must be a function"
			}
		case "flags":
			ft, ok := v.(*lua.LTable)
			if !ok {
				return "", "", nil, 0, "flags argument to redis.register_function must be a table representing function flags"
			}
			for i := 1; ft.RawGetInt(i) != lua.LNil; i++ {
				s, ok := luaString(ft.RawGetInt(i))
				f, known := flagByName(s, true)
				if !ok || !known {
					return "", "", nil, 0, "unknown flag given"
				}
				flags |= f
			}
		default:
			return "", "", nil, 0, "unknown argument given to redis.register_function"
		}
	}
	if !named {
		return "", "", nil, 0, "redis.register_function must get a function name argument"
	}
	if cb == nil {
		return "", "", nil, 0, "redis.register_function must get a callback argument"
	}
	return name, desc, cb, flags, ""
}

// luaString is lua_isstring + lua_tostring: a string, or a number as Lua writes it.
func luaString(v lua.LValue) (string, bool) {
	switch v := v.(type) {
	case lua.LString:
		return string(v), true
	case lua.LNumber:
		return formatNumber(float64(v)), true
	}
	return "", false
}

// CallFunction runs f with FCALL's keys and arguments as its two arguments (tables) and writes
// its result or error to w, as Run. A state runs a library's code the first time one of its
// functions runs there: closures cannot move between interpreters.
func (e *Engine) CallFunction(f *Function, c Caller, opts RunOpts, w *resp.Writer) {
	st := e.funcPool.get()
	defer func() {
		st.forgetDropped()
		e.funcPool.put(st)
	}()
	funcs := st.libs[f.Library]
	if funcs == nil {
		var err error
		if funcs, err = st.loadLibrary(f.Library, false); err != nil {
			w.Error("Error registering functions: " + err.Error())
			return
		}
		st.libs[f.Library] = funcs
	}
	fn := funcs[f.Name]
	if fn == nil {
		w.Error("Function not found")
		return
	}
	L := st.L
	L.Push(fn)
	L.Push(st.array(opts.Keys))
	L.Push(st.array(opts.Argv))
	st.run(fn, 2, f.Name, c, opts, w, FunctionKilled)
}

// array makes a Lua array of strings.
func (st *state) array(vals [][]byte) *lua.LTable {
	t := st.L.CreateTable(len(vals), 0)
	for i, v := range vals {
		t.RawSetInt(i+1, lua.LString(v))
	}
	return t
}

// DropLibrary makes the pooled states forget lib (FUNCTION DELETE, FLUSH, LOAD REPLACE): idle
// states now, states in use when their run ends.
func (e *Engine) DropLibrary(lib *Library) {
	lib.dropped.Store(true)
	e.funcPool.each(func(st *state) { st.forgetDropped() })
}

// forgetDropped removes the dropped libraries' closures from st.
func (st *state) forgetDropped() {
	for lib := range st.libs {
		if lib.dropped.Load() {
			delete(st.libs, lib)
		}
	}
}
