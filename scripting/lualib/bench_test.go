package lualib_test

import (
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib"
)

// benchCall measures one library call on a fixed argument, made from Lua source.
func benchCall(b *testing.B, lib, fn, argSrc string) {
	L := lua.NewState()
	defer L.Close()
	lualib.OpenAll(L)
	if err := L.DoString("return " + argSrc); err != nil {
		b.Fatal(err)
	}
	arg := L.Get(-1)
	L.Pop(1)
	f := L.GetGlobal(lib).(*lua.LTable).RawGetString(fn)
	b.ReportAllocs()
	for b.Loop() {
		if err := L.CallByParam(lua.P{Fn: f, NRet: 1, Protect: true}, arg); err != nil {
			b.Fatal(err)
		}
		L.Pop(1)
	}
}

const doc = `{id = 12345, name = "job:queue:item", attempts = 3, delay = 1.5, tags = {"a", "b", "c"},
	data = {user = "u1", payload = string.rep("x", 64)}, done = false}`

func BenchmarkCjsonEncode(b *testing.B)  { benchCall(b, "cjson", "encode", doc) }
func BenchmarkCjsonDecode(b *testing.B)  { benchCall(b, "cjson", "decode", "cjson.encode("+doc+")") }
func BenchmarkCmsgpackPack(b *testing.B) { benchCall(b, "cmsgpack", "pack", doc) }
func BenchmarkCmsgpackUnpack(b *testing.B) {
	benchCall(b, "cmsgpack", "unpack", "cmsgpack.pack("+doc+")")
}
