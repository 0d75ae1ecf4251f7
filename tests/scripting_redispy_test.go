package tests

import "testing"

// TestRedisPyScripting: redis-py's Lock (acquire, extend, reacquire, release, another token's
// release refused — its Lua scripts) and register_script with its NOSCRIPT fallback, alone and
// in pipelines, plus FUNCTION LOAD and FCALL; testdata/py/scripting.py checks the values.
func TestRedisPyScripting(t *testing.T) {
	requireRedisPy(t)
	for _, name := range []string{"lock", "register_script"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t)
			skipWithoutScripting(t, s, name == "register_script")
			runPyCase(t, s, "scripting.py", name)
		})
	}
}
