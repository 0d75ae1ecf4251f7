// Package cmsgpack is lua-cmsgpack 0.4.0 as Redis 7.2 loads it (deps/lua/src/lua_cmsgpack.c)
// for gopher-lua: the global table "cmsgpack" with pack (every argument, concatenated),
// unpack, unpack_one and unpack_limit. (_COPYRIGHT keeps Redis 7.2's words; Valkey later changed it.)
//
// Encoding makes lua_cmsgpack's choices: integers in their smallest form, other numbers as a
// float when a float holds them exactly and as a double otherwise, strings as fixstr / str8 /
// str16 / str32, tables as arrays when their keys are exactly 1..n and as maps otherwise,
// tables nested 16 deep as nil, anything else as nil. Decoding allocates in proportion to its
// input, not to the lengths headers claim, and is bounded by Lua 5.1's 8000-slot stack as in
// C. A map's order is gopher-lua's table order (array part, then insertion order) where C Lua
// walks its hash part.
package cmsgpack

import (
	lua "github.com/yuin/gopher-lua"
)

// Open sets the global table "cmsgpack".
func Open(L *lua.LState) {
	t := L.CreateTable(0, 8)
	t.RawSetString("pack", L.NewFunction(pack))
	t.RawSetString("unpack", L.NewFunction(unpack))
	t.RawSetString("unpack_one", L.NewFunction(unpackOne))
	t.RawSetString("unpack_limit", L.NewFunction(unpackLimit))
	t.RawSetString("_NAME", lua.LString("cmsgpack"))
	t.RawSetString("_VERSION", lua.LString("lua-cmsgpack 0.4.0"))
	t.RawSetString("_COPYRIGHT", lua.LString("Copyright (C) 2012, Salvatore Sanfilippo"))
	t.RawSetString("_DESCRIPTION", lua.LString("MessagePack C implementation for Lua"))
	L.SetGlobal("cmsgpack", t)
}
