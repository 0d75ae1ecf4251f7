package funclib

import (
	"testing"

	"github.com/kvserver/kvserver/scripting"
)

// The registry over the real Lua engine: libraries register with redis.register_function, the
// engine's errors reach the caller, DUMP and RESTORE carry the code.
func TestLuaLibraries(t *testing.T) {
	e := scripting.New(scripting.Options{Version: "7.2.4", VersionNum: 0x070204})
	r := New(e)
	code := []byte("#!lua name=mylib\n" +
		"redis.register_function('myfunc', function(keys, args) return args[1] end)\n" +
		"redis.register_function{function_name='ro', callback=function() return 1 end, flags={'no-writes'}, description='reads'}")
	if name, err := r.Load(code, false); err != nil || name != "mylib" {
		t.Fatalf("Load: %q %v", name, err)
	}
	f := r.Lookup([]byte("RO"))
	if f == nil || f.Name != "ro" || f.Flags != scripting.NoWrites || f.Description != "reads" || f.Library.Name != "mylib" {
		t.Fatalf("Lookup(RO) = %+v", f)
	}
	_, err := r.Load([]byte("#!lua name=bad\nredis.register_function('x', function() return 1 end"), false)
	if err == nil || err.Error()[:36] != "ERR Error compiling function: user_f" {
		t.Errorf("compile error: %v", err)
	}
	_, err = r.Load([]byte("#!lua name=empty\nlocal x = 1"), false)
	check(t, "no functions", err, "ERR No functions registered")

	p := r.Dump()
	r2 := New(e)
	check(t, "RESTORE", r2.Restore(p, Append), "")
	if f := r2.Lookup([]byte("myfunc")); f == nil || f.Library == r.Lookup([]byte("myfunc")).Library {
		t.Errorf("restored function %+v", f)
	}
	if names(r2) != "mylib:myfunc,ro" {
		t.Errorf("restored %q", names(r2))
	}
	r.Flush()
	r2.Flush()
}
