// Package lualib opens Redis's four Lua libraries (cjson, struct, cmsgpack, bit) in a
// gopher-lua state, in the order Redis's luaLoadLibraries loads them. Each library is its own
// package (cjson, luastruct, cmsgpack, bit) with an Open of its own; their behaviour is Redis
// 7.2's byte for byte, checked against redis-server by their tests.
package lualib

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/bit"
	"github.com/kvserver/kvserver/scripting/lualib/cjson"
	"github.com/kvserver/kvserver/scripting/lualib/cmsgpack"
	"github.com/kvserver/kvserver/scripting/lualib/luastruct"
)

// OpenAll sets the globals cjson, struct, cmsgpack and bit.
func OpenAll(L *lua.LState) {
	cjson.Open(L)
	luastruct.Open(L)
	cmsgpack.Open(L)
	bit.Open(L)
}
