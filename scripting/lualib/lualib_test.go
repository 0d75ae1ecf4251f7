package lualib_test

import (
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib"
)

// TestOpenAll: the four globals, usable together (cmsgpack packs what cjson decodes, struct
// and bit read the bytes).
func TestOpenAll(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	lualib.OpenAll(L)
	err := L.DoString(`
		local p = cmsgpack.pack(cjson.decode('[1,300]'))
		assert(p == '\146\001\205\001\044', p)
		local n = struct.unpack('>H', p, 4)
		assert(n == 300, n)
		assert(bit.tohex(n) == '0000012c')
		assert(cjson.encode(cmsgpack.unpack(p)) == '[1,300]')`)
	if err != nil {
		t.Fatal(err)
	}
}
