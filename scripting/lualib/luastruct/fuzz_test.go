package luastruct_test

import (
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/luastruct"
)

// FuzzStruct runs struct.size, struct.unpack and struct.pack on arbitrary formats and data:
// each returns or raises a Lua error, never panics in Go (gopher-lua would report a Go panic
// as an ApiErrorPanic).
func FuzzStruct(f *testing.F) {
	for _, s := range [][2]string{{"!4bi3>d", "\x01\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"},
		{"bc0s", "\x03abcd\x00"}, {"<I10 x f", "0123456789abcdefgh"}, {"!i40", ""}, {"c999999999999", "x"}} {
		f.Add(s[0], s[1])
	}
	L := lua.NewState(lua.Options{RegistrySize: 1024 * 20, RegistryMaxSize: 1024 * 80})
	defer L.Close()
	luastruct.Open(L)
	mod := L.GetGlobal("struct").(*lua.LTable)
	check := func(t *testing.T, name string, args ...lua.LValue) {
		top := L.GetTop()
		err := L.CallByParam(lua.P{Fn: mod.RawGetString(name), NRet: lua.MultRet, Protect: true}, args...)
		L.SetTop(top)
		if err != nil && err.(*lua.ApiError).Type != lua.ApiErrorRun {
			t.Fatalf("struct.%s%v: %v", name, args, err)
		}
	}
	f.Fuzz(func(t *testing.T, format, data string) {
		if len(format) > 200 {
			return
		}
		check(t, "size", lua.LString(format))
		check(t, "unpack", lua.LString(format), lua.LString(data))
		check(t, "unpack", lua.LString(format), lua.LString(data), lua.LNumber(len(format)%7))
		check(t, "pack", lua.LString(format), lua.LNumber(-1.5), lua.LString(data), lua.LNumber(1e300),
			lua.LString(data), lua.LNumber(7))
	})
}
