package cjson_test

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/cjson"
)

// FuzzDecode feeds cjson.decode arbitrary text: it must return a value or raise one of
// lua_cjson's errors, never panic in Go or run away; what it decodes must encode again
// (unless it holds NaN or Inf) and decode to the same text.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`[1,"a",{"b":null}]`, `{"a":[true,false]}`, `"\ud83d\ude00"`,
		`-1.5e3`, `NaN`, `[[[[]]]]`, `{"a":`, "\"\\u00", `0x1p3`, `nan(1)`, "[1]\x00x"} {
		f.Add([]byte(s))
	}
	L := lua.NewState()
	defer L.Close()
	cjson.Open(L)
	mod := L.GetGlobal("cjson").(*lua.LTable)
	decode, encode := mod.RawGetString("decode"), mod.RawGetString("encode")
	call := func(fn lua.LValue, arg lua.LValue) (lua.LValue, error) {
		err := L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, arg)
		if err != nil {
			return nil, err
		}
		v := L.Get(-1)
		L.Pop(1)
		return v, nil
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := call(decode, lua.LString(data))
		if err != nil {
			msg := err.(*lua.ApiError).Object.String()
			for _, ok := range []string{"Expected ", "Found too many nested data structures",
				"JSON parser does not support UTF-16 or UTF-32"} {
				if strings.HasPrefix(msg, ok) {
					return
				}
			}
			t.Fatalf("decode(%q): unexpected error %q", data, msg)
		}
		text, err := call(encode, v)
		if err != nil {
			msg := err.(*lua.ApiError).Object.String()
			if msg != "Cannot serialise number: must not be NaN or Inf" {
				t.Fatalf("encode(decode(%q)): %s", data, msg)
			}
			return
		}
		v2, err := call(decode, text)
		if err != nil {
			t.Fatalf("decode(encode(decode(%q))) = decode(%q): %v", data, text, err)
		}
		text2, err := call(encode, v2)
		if err != nil || text2.String() != text.String() && !sameObjects(text.String(), text2.String()) {
			t.Fatalf("%q: encoded %q, then %q (%v)", data, text, text2, err)
		}
	})
}

// sameObjects accepts a second encoding that differs only in key order (same length, same
// bytes): gopher-lua tables keep insertion order, which a round trip can change when a key
// repeats.
func sameObjects(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	var ca, cb [256]int
	for i := 0; i < len(a); i++ {
		ca[a[i]]++
		cb[b[i]]++
	}
	return ca == cb
}
