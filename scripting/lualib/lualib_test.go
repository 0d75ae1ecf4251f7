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

// TestParallelStates: states on different goroutines share only cjson.Null (read-only); run
// with -race.
func TestParallelStates(t *testing.T) {
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			L := lua.NewState()
			defer L.Close()
			lualib.OpenAll(L)
			done <- L.DoString(`
				for i = 1, 200 do
					local v = cjson.decode('[null,{"a":null},1]')
					assert(v[1] == cjson.null and v[2].a == cjson.null)
					assert(cjson.encode(v) == '[null,{"a":null},1]')
					assert(cmsgpack.pack(v) == '\147\192\129\161a\192\001')
				end`)
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
