package scripting

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/bit"
)

// extraLibs open the libraries Redis adds to Lua (scripting/lualib), each setting its global
// table: bit (cjson, cmsgpack and struct join as they are ready).
var extraLibs = []func(L *lua.LState){
	bit.Open,
}
