package cmsgpack_test

import (
	"runtime"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/cmsgpack"
)

func newState(t testing.TB) (*lua.LState, *lua.LTable) {
	L := lua.NewState(lua.Options{RegistrySize: 1024 * 20, RegistryMaxSize: 1024 * 80})
	t.Cleanup(L.Close)
	cmsgpack.Open(L)
	return L, L.GetGlobal("cmsgpack").(*lua.LTable)
}

// callAll calls fn in protected mode and returns every result.
func callAll(L *lua.LState, fn lua.LValue, args ...lua.LValue) ([]lua.LValue, error) {
	top := L.GetTop()
	if err := L.CallByParam(lua.P{Fn: fn, NRet: lua.MultRet, Protect: true}, args...); err != nil {
		L.SetTop(top)
		return nil, err
	}
	out := make([]lua.LValue, 0, L.GetTop()-top)
	for i := top + 1; i <= L.GetTop(); i++ {
		out = append(out, L.Get(i))
	}
	L.SetTop(top)
	return out, nil
}

// FuzzUnpack feeds cmsgpack.unpack arbitrary bytes: it must return values or raise one of
// lua_cmsgpack's errors, never panic in Go; what it returns must pack again and unpack to as
// many values.
func FuzzUnpack(f *testing.F) {
	for _, s := range []string{"\x93\x01\xa1a\xc3", "\x81\xa1k\x92\xcb\x3f\xb9\x99\x99\x99\x99\x99\x9a\xc0",
		"\xdd\xff\xff\xff\xff\x01", "\xdf\x00\x01\x00\x00", "\xcf\xff\xff\xff\xff\xff\xff\xff\xff",
		"\xd9\x03abc\xda\x00\x01z", "\x91\x91\x91\x91\x90", "\xc1", "\x81\xc0\x01"} {
		f.Add([]byte(s))
	}
	// gopher-lua keeps integer keys 1..MaxArrayIndex (2^26) in a table's array part, so a map
	// key of 2^26-1 costs a 1 GB array, in cmsgpack as in any script (t[2^26-1] = 1). That is
	// the engine's, not the decoder's; the fuzzer lowers the bound to keep its runs small.
	defer func(n int) { lua.MaxArrayIndex = n }(lua.MaxArrayIndex)
	lua.MaxArrayIndex = 1 << 16
	L, mod := newState(f)
	unpack, pack := mod.RawGetString("unpack"), mod.RawGetString("pack")
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, err := callAll(L, unpack, lua.LString(data))
		if err != nil {
			msg := err.(*lua.ApiError).Object.String()
			for _, ok := range []string{"Missing bytes in input.", "Bad data format in input.",
				"table index is nil", "table index is NaN", "stack overflow ("} {
				if strings.HasPrefix(msg, ok) {
					return
				}
			}
			t.Fatalf("unpack(%q): unexpected error %q", data, msg)
		}
		if len(vals) == 0 {
			if len(data) != 0 {
				t.Fatalf("unpack(%q): no value", data)
			}
			return
		}
		packed, err := callAll(L, pack, vals...)
		if err != nil {
			t.Fatalf("pack(unpack(%q)): %v", data, err)
		}
		again, err := callAll(L, unpack, packed[0])
		if err != nil || len(again) != len(vals) {
			t.Fatalf("unpack(pack(unpack(%q))) = %d values (%v), want %d", data, len(again), err, len(vals))
		}
	})
}

// TestHugeHeaders: headers that claim 2^32-1 elements or bytes fail on the missing bytes
// without allocating for what they claim.
func TestHugeHeaders(t *testing.T) {
	L, mod := newState(t)
	unpack := mod.RawGetString("unpack")
	for _, s := range []string{"\xdd\xff\xff\xff\xff\x01\x02", "\xdf\xff\xff\xff\xff\x01\x02",
		"\xdb\xff\xff\xff\xffabc", "\x91\xdd\xff\xff\xff\xff"} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := callAll(L, unpack, lua.LString(s))
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "Missing bytes in input.") {
			t.Errorf("unpack(%q): %v, want Missing bytes", s, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("unpack(%q) allocated %d bytes", s, grew)
		}
	}
}
