package scripting

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// state is one pooled Lua interpreter with Redis's sandbox and redis table. It is used by one
// run at a time (the pool hands it out); its fields other than L are that run's inputs.
//
// # The sandbox
//
// Redis 7 makes the global table and every table reachable from it read-only after setup
// (lua_enablereadonlytable, a patch to its Lua). gopher-lua has no read-only flag, so the
// scripts see proxies instead: the environment of every chunk is an empty table whose
// metatable reads through to the real globals and refuses writes ("Attempt to modify a
// readonly table"), and the real globals' own metatable refuses reads of names that are not
// there ("Script attempted to access nonexistent global variable 'x'"). Each library table
// (string, math, table, redis, cjson…) is reached through such a proxy too. The metatables are
// hidden (__metatable), and the functions that write a table raw (rawset, setmetatable,
// table.insert/remove/sort) refuse the proxies. So nothing a script does survives its run,
// except in the tables it was handed (KEYS, ARGV), which are rebuilt when written.
type state struct {
	L *lua.LState

	globals   *lua.LTable // the real globals, never a chunk's environment
	evalEnv   *lua.LTable // EVAL's environment: a proxy of globals (which hold KEYS and ARGV)
	funcEnv   *lua.LTable // the functions' environment: a proxy of globals (of loadAPI while loading)
	funcMeta  *lua.LTable // funcEnv's metatable, whose __index switches while loading
	loadAPI   *lua.LTable // the globals a library sees while it loads: only a restricted redis
	protected map[*lua.LTable]bool
	realOf    map[*lua.LTable]*lua.LTable // a proxy's real table, for next, pairs and rawget
	errFunc   *lua.LFunction              // the error handler of a run (records where the error was raised)

	lastScript *Script        // the script run last here, and its closure (reused by a run of
	lastFn     *lua.LFunction // the same script: the main chunk has no upvalues)

	keys, argv   *lua.LTable // reused from run to run (refilled), rebuilt after a script added keys
	nkeys, nargv int         // their lengths after the last run
	keysDirty    bool        // a script wrote KEYS or ARGV: build new tables next run

	// The current run (zero between runs).
	caller  Caller
	resp    int    // redis.setresp's protocol for redis.call replies (2 or 3)
	name    string // the script's SHA or the function's name, for error texts
	errLine int    // where the error was raised: line, -1 if not known
	errSrc  string // and source ("@user_script")
	loading *loading
	loadLog func(level int, msg string) // redis.log while a library loads (Options.Log)
	args    [][]byte                    // redis.call's arguments, reused
	argBuf  []byte                      // their bytes, reused

	rand *rand48 // math.random's generator: the Engine's

	// Libraries loaded into this state: their functions' closures by name.
	libs map[*Library]map[string]*lua.LFunction
}

// readonlyMsg is Redis's error for a write to a protected table.
const readonlyMsg = "Attempt to modify a readonly table"

// newState builds an interpreter: libraries, the redis table, the protections. An EVAL state
// (eval) has the KEYS and ARGV globals; a functions' state has not.
func (e *Engine) newState(eval bool) *state {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:    true,
		CallStackSize:   200, // Lua 5.1's LUAI_MAXCCALLS
		RegistrySize:    1024,
		RegistryMaxSize: 1 << 20,
	})
	st := &state{L: L, protected: make(map[*lua.LTable]bool), realOf: make(map[*lua.LTable]*lua.LTable), libs: make(map[*Library]map[string]*lua.LFunction),
		loadLog: e.opts.Log, errLine: -1, rand: e.rand}
	st.openLibs(e, eval)
	return st
}

// openLibs loads the libraries Redis loads (script_lua.c luaLoadLibraries), keeps the globals
// of Redis's allow list, installs the redis table and protects everything.
func (st *state) openLibs(e *Engine, eval bool) {
	L := st.L
	g := L.G.Global
	st.globals = g
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.CoroutineLibName, lua.OpenCoroutine},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	for _, open := range extraLibs {
		open(L)
	}

	// Redis 7.2's os has clock only.
	osTable := L.NewTable()
	osTable.RawSetString("clock", L.NewFunction(osClock))
	g.RawSetString("os", osTable)

	// Keep Redis's allow list only (script_lua.c: lua_builtins_allow_list and the libraries).
	var drop []string
	g.ForEach(func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); !ok || !allowedGlobals[string(s)] {
			drop = append(drop, k.String())
		}
	})
	for _, k := range drop {
		g.RawSetString(k, lua.LNil)
	}

	// Math: Redis's deterministic random.
	if m, ok := g.RawGetString("math").(*lua.LTable); ok {
		m.RawSetString("random", L.NewFunction(st.mathRandom))
		m.RawSetString("randomseed", L.NewFunction(st.mathRandomSeed))
		m.RawSetString("huge", lua.LNumber(math.Inf(1))) // gopher-lua has the largest float
	}

	// The base functions that write a table raw refuse the protected ones; pcall answers a
	// Redis error table's text, as Redis 7's luaRedisPcall.
	g.RawSetString("rawset", L.NewFunction(st.luaRawset))
	g.RawSetString("setmetatable", L.NewFunction(st.luaSetmetatable))
	g.RawSetString("pcall", L.NewFunction(st.luaPcall(g.RawGetString("pcall"))))
	g.RawSetString("tostring", L.NewFunction(luaTostring(g.RawGetString("tostring"))))
	g.RawSetString("error", L.NewFunction(luaError))
	g.RawSetString("unpack", L.NewFunction(baseUnpack))
	g.RawSetString("collectgarbage", L.NewFunction(collectGarbage))
	// next, pairs and rawget see through the proxies, so that pairs(string) lists the string
	// library as in Redis.
	origNext := g.RawGetString("next")
	next := L.NewFunction(st.luaNext)
	g.RawSetString("next", next)
	g.RawSetString("pairs", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		if _, isProxy := st.realOf[t]; isProxy {
			L.Push(next)
		} else {
			L.Push(origNext) // gopher-lua's, without the proxy lookup on every step
		}
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	}))
	g.RawSetString("rawget", L.NewFunction(func(L *lua.LState) int {
		L.Push(st.real(L.CheckTable(1)).RawGet(L.CheckAny(2)))
		return 1
	}))
	// gcinfo (Lua 5.1's deprecated memory count in KB): the state's estimated size.
	g.RawSetString("gcinfo", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LNumber(stateMemory >> 10))
		return 1
	}))
	if t, ok := g.RawGetString("table").(*lua.LTable); ok {
		t.RawSetString("insert", L.NewFunction(st.guardFirstArg(t.RawGetString("insert"), true)))
		// remove and sort of a protected table do nothing: its proxy has no elements.
		t.RawSetString("remove", L.NewFunction(st.guardFirstArg(t.RawGetString("remove"), false)))
		t.RawSetString("sort", L.NewFunction(st.guardFirstArg(t.RawGetString("sort"), false)))
		t.RawSetString("concat", L.NewFunction(tableConcat))
		t.RawSetString("foreach", L.NewFunction(tableForeach))
		t.RawSetString("foreachi", L.NewFunction(tableForeachi))
		t.RawSetString("setn", L.NewFunction(tableSetn))
	}

	if s, ok := g.RawGetString("string").(*lua.LTable); ok {
		s.RawSetString("rep", L.NewFunction(strRep))
		s.RawSetString("format", L.NewFunction(strFormat))
	}

	// String values' metatable: its own table (gopher-lua uses the string table itself, whose
	// __index field would lead a script to the real table through ("").__index).
	strMeta := L.NewTable()
	if s, ok := g.RawGetString("string").(*lua.LTable); ok {
		s.RawSetString("__index", lua.LNil)
		strMeta.RawSetString("__index", s)
		L.SetMetatable(lua.LString(""), strMeta)
	}

	redis := st.redisTable(e, eval)
	g.RawSetString("redis", redis)

	// Protect: each library table behind a proxy, the globals behind an error metatable.
	var libNames []string
	g.ForEach(func(k, v lua.LValue) {
		if _, ok := v.(*lua.LTable); ok && k.String() != "_G" {
			libNames = append(libNames, k.String())
		}
	})
	for _, name := range libNames {
		real := g.RawGetString(name).(*lua.LTable)
		g.RawSetString(name, st.proxy(real))
	}
	// getmetatable("") answers a read-only view of it, whose __index is the string library's
	// proxy (Redis 7.2.11 makes the basic types' metatables read-only).
	view := L.NewTable()
	view.RawSetString("__index", g.RawGetString("string"))
	strMeta.RawSetString("__metatable", st.proxy(view))
	gmt := L.NewTable()
	gmt.RawSetString("__index", L.NewFunction(nonexistentGlobal))
	gmt.RawSetString("__newindex", L.NewFunction(readonlyError))
	gmt.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(g, gmt)
	st.protected[g] = true

	st.evalEnv = st.proxy(g)
	g.RawSetString("_G", st.evalEnv)
	st.funcMeta = st.proxyMeta(g)
	st.funcEnv = L.NewTable()
	L.SetMetatable(st.funcEnv, st.funcMeta)
	st.protected[st.funcEnv] = true
	st.loadAPI = st.loadGlobals(e)

	st.errFunc = L.NewFunction(st.errorHandler)
	st.keys, st.argv = L.NewTable(), L.NewTable()
	if eval {
		g.RawSetString("KEYS", st.keys)
		g.RawSetString("ARGV", st.argv)
		st.watchKeys()
	}
	L.Env = st.evalEnv
	L.SetTop(0)
}

// allowedGlobals is Redis 7.2's allow list of globals (script_lua.c), without getfenv, setfenv
// and newproxy: Redis's security releases of October 2025 (7.2.11, CVE-2025-46818) refuse
// them by default, and so does the reference redis-server (Debian's 7.0.15 with the fixes).
var allowedGlobals = map[string]bool{
	"string": true, "cjson": true, "bit": true, "cmsgpack": true, "math": true, "table": true,
	"struct": true, "os": true, "coroutine": true,
	"xpcall": true, "tostring": true, "setmetatable": true, "next": true,
	"assert": true, "tonumber": true, "rawequal": true, "collectgarbage": true,
	"getmetatable": true, "rawset": true, "pcall": true, "type": true, "_G": true,
	"select": true, "unpack": true, "gcinfo": true, "pairs": true, "rawget": true,
	"loadstring": true, "ipairs": true, "_VERSION": true, "load": true, "error": true,
}

// proxyMeta returns a protected metatable reading through to real and refusing writes.
func (st *state) proxyMeta(real *lua.LTable) *lua.LTable {
	mt := st.L.NewTable()
	mt.RawSetString("__index", real)
	mt.RawSetString("__newindex", st.L.NewFunction(readonlyError))
	mt.RawSetString("__metatable", lua.LFalse)
	st.protected[mt] = true
	st.protected[real] = true
	return mt
}

// proxy returns an empty protected table that reads through to real.
func (st *state) proxy(real *lua.LTable) *lua.LTable {
	p := st.L.NewTable()
	st.L.SetMetatable(p, st.proxyMeta(real))
	st.protected[p] = true
	st.realOf[p] = real
	return p
}

// watchKeys gives KEYS and ARGV a metatable noting a write of a new key, so that the next
// run builds new tables rather than reuse written ones.
func (st *state) watchKeys() {
	mt := st.L.NewTable()
	mt.RawSetString("__newindex", st.L.NewFunction(func(L *lua.LState) int {
		st.keysDirty = true
		L.CheckTable(1).RawSet(L.CheckAny(2), L.CheckAny(3))
		return 0
	}))
	st.L.SetMetatable(st.keys, mt)
	st.L.SetMetatable(st.argv, mt)
}

// nonexistentGlobal is the globals' __index: reading a global that does not exist is an error.
func nonexistentGlobal(L *lua.LState) int {
	L.RaiseError("Script attempted to access nonexistent global variable '%s'", L.Get(2).String())
	return 0
}

// readonlyError is the protected tables' __newindex.
func readonlyError(L *lua.LState) int {
	L.RaiseError(readonlyMsg)
	return 0
}

// writable raises Redis's read-only error when t is protected (without a position: Redis's
// check is in the C API that rawset and the others call), and notes writes to KEYS/ARGV.
func (st *state) writable(L *lua.LState, t *lua.LTable) {
	if st.protected[t] {
		L.Error(lua.LString(readonlyMsg), 0)
	}
	st.noteWrite(t)
}

// noteWrite notes a write to KEYS or ARGV: the next run builds new tables.
func (st *state) noteWrite(t *lua.LTable) {
	if t == st.keys || t == st.argv {
		st.keysDirty = true
	}
}

func (st *state) luaRawset(L *lua.LState) int {
	t := L.CheckTable(1)
	st.writable(L, t)
	L.RawSet(t, L.CheckAny(2), L.CheckAny(3))
	L.SetTop(1)
	return 1
}

func (st *state) luaSetmetatable(L *lua.LState) int {
	if t, ok := L.Get(1).(*lua.LTable); ok {
		st.writable(L, t)
	}
	L.CheckTypes(2, lua.LTNil, lua.LTTable)
	obj := L.Get(1)
	if obj == lua.LNil {
		L.RaiseError("cannot set metatable to a nil object.")
	}
	if _, ok := obj.(*lua.LTable); !ok {
		L.ArgError(1, "table expected")
	}
	if mt, ok := L.GetMetatable(obj).(*lua.LTable); ok && mt.RawGetString("__metatable") != lua.LNil {
		L.RaiseError("cannot change a protected metatable")
	}
	L.SetMetatable(obj, L.Get(2))
	L.SetTop(1)
	return 1
}

// guardFirstArg wraps a table function that writes its first argument (table.insert…): refuse
// makes it refuse protected tables; a write to KEYS/ARGV is noted either way.
func (st *state) guardFirstArg(fn lua.LValue, refuse bool) lua.LGFunction {
	f := fn.(*lua.LFunction).GFunction
	return func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok {
			if refuse {
				st.writable(L, t)
			} else {
				st.noteWrite(t)
			}
		}
		return f(L)
	}
}

// luaPcall is Redis 7's pcall: as Lua's, but an error table's err field is what the caller
// gets (script_lua.c luaRedisPcall), for scripts written before errors were tables.
func (st *state) luaPcall(orig lua.LValue) lua.LGFunction {
	pcall := orig.(*lua.LFunction).GFunction
	return func(L *lua.LState) int {
		n := pcall(L)
		top := L.GetTop()
		if n >= 2 && L.Get(top-n+1) == lua.LFalse {
			if t, ok := L.Get(top - n + 2).(*lua.LTable); ok {
				if s, ok := t.RawGetString("err").(lua.LString); ok {
					L.Replace(top-n+2, s)
				}
			}
		}
		return n
	}
}

// errorHandler runs where an error was raised, before the stack unwinds: it records the
// position of the innermost Lua function (Redis's __redis__err__handler reads
// debug.getinfo(2) or (3) for a C function) and returns the error unchanged.
//
// When the innermost frame is Lua code, a gopher-lua runtime error is reworded as Lua 5.1's
// (see luaRuntimeError).
func (st *state) errorHandler(L *lua.LState) int {
	st.errLine, st.errSrc = -1, ""
	for level := 1; ; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		if _, err := L.GetInfo("Sl", dbg, lua.LNil); err != nil {
			break
		}
		if dbg.What != "G" && dbg.CurrentLine >= 0 {
			st.errLine, st.errSrc = dbg.CurrentLine, "@"+dbg.Source
			if msg, isStr := L.Get(1).(lua.LString); isStr {
				prefix := dbg.Source + ":" + strconv.Itoa(dbg.CurrentLine) + ": "
				if text, found := strings.CutPrefix(string(msg), prefix); found {
					re := quoteArgErrorFunc(text)
					if level == 1 {
						if fi, ok := readFrame(dbg); ok {
							re = luaRuntimeError(L, fi, re)
						}
					}
					if re != text {
						L.Push(lua.LString(prefix + re))
						return 1
					}
				}
			}
			break
		}
	}
	L.Push(L.Get(1))
	return 1
}

// luaTostring is tostring with Lua 5.1's number format (LUAI_NUMFFORMAT "%.14g": 1/3 is
// 0.33333333333333, 1/0 is inf) where gopher-lua writes Go's shortest form. Concatenation
// (..) still writes gopher-lua's form.
func luaTostring(orig lua.LValue) lua.LGFunction {
	tostring := orig.(*lua.LFunction).GFunction
	return func(L *lua.LState) int {
		if n, ok := L.Get(1).(lua.LNumber); ok {
			L.Push(lua.LString(formatNumber(float64(n))))
			return 1
		}
		return tostring(L)
	}
}

// formatNumber is C's printf("%.14g") on x86-64 Linux.
func formatNumber(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', 14, 64)
}

// luaError is Lua 5.1's error(v [, level]): v may be missing (the error is nil), and a number
// gets the position like a string does (lua_isstring is true for numbers).
func luaError(L *lua.LState) int {
	v := L.Get(1)
	level := L.OptInt(2, 1)
	if n, ok := v.(lua.LNumber); ok {
		v = lua.LString(formatNumber(float64(n)))
	}
	L.Error(v, level)
	return 0
}

// real returns the table a proxy stands for, or t itself.
func (st *state) real(t *lua.LTable) *lua.LTable {
	if r, ok := st.realOf[t]; ok {
		return r
	}
	return t
}

// luaNext is next(t [, k]), through the proxies.
func (st *state) luaNext(L *lua.LState) int {
	t := st.real(L.CheckTable(1))
	k, v := t.Next(L.Get(2))
	if k == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(k)
	L.Push(v)
	return 2
}
