package scripting

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib"
)

// extraLibs open the libraries Redis adds to Lua (scripting/lualib): cjson, struct, cmsgpack
// and bit, each setting its global table.
var extraLibs = []func(L *lua.LState){lualib.OpenAll}
