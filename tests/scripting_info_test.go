package tests

import (
	"strconv"
	"testing"
)

// TestScriptInfoFields: INFO memory's scripting fields (issue 23): number_of_cached_scripts
// counts SCRIPT LOAD's and EVAL's scripts (a script once, however often loaded) until SCRIPT
// FLUSH; number_of_functions and number_of_libraries follow FUNCTION LOAD and DELETE;
// used_memory_scripts_eval grows with the cache and is 0 when it is empty; the Lua VMs' fields
// are there and positive. Against redis-server too.
func TestScriptInfoFields(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, true)
	c := s.RawConn(t)
	field := func(name string) int64 {
		t.Helper()
		v, ok := s.Info(t, "memory")[name]
		if !ok {
			t.Fatalf("INFO memory has no %s", name)
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("INFO memory %s:%s: %v", name, v, err)
		}
		return n
	}
	expectField := func(name string, want int64) {
		t.Helper()
		if got := field(name); got != want {
			t.Errorf("%s: %d, want %d", name, got, want)
		}
	}
	expectStatus(t, "SCRIPT FLUSH", c.Do("SCRIPT", "FLUSH"), "+OK")
	expectField("number_of_cached_scripts", 0)
	expectField("used_memory_scripts_eval", 0)
	for _, name := range []string{"used_memory_vm_eval", "used_memory_vm_functions"} {
		if n := field(name); n <= 0 {
			t.Errorf("%s: %d, want > 0", name, n)
		}
	}

	c.Do("SCRIPT", "LOAD", "return 1")
	c.Do("SCRIPT", "LOAD", "return 1")
	c.Do("EVAL", "return 2", "0")
	c.Do("EVAL", "return 2", "0")
	expectField("number_of_cached_scripts", 2)
	if n := field("used_memory_scripts_eval"); n <= 0 {
		t.Errorf("used_memory_scripts_eval with 2 scripts cached: %d", n)
	}
	c.Do("EVAL", "x(", "0") // a script that does not compile is not cached
	expectField("number_of_cached_scripts", 2)
	expectStatus(t, "SCRIPT FLUSH", c.Do("SCRIPT", "FLUSH"), "+OK")
	expectField("number_of_cached_scripts", 0)
	expectField("used_memory_scripts_eval", 0)

	expectField("number_of_functions", 0)
	expectField("number_of_libraries", 0)
	expectStatus(t, "FUNCTION LOAD", c.Do("FUNCTION", "LOAD", "#!lua name=il\nredis.register_function('a', function() return 1 end)\nredis.register_function('b', function() return 2 end)"), "$il")
	expectStatus(t, "FUNCTION LOAD", c.Do("FUNCTION", "LOAD", "#!lua name=il2\nredis.register_function('c', function() return 1 end)"), "$il2")
	expectField("number_of_functions", 3)
	expectField("number_of_libraries", 2)
	expectStatus(t, "FUNCTION DELETE", c.Do("FUNCTION", "DELETE", "il"), "+OK")
	expectField("number_of_functions", 1)
	expectField("number_of_libraries", 1)
	expectStatus(t, "FUNCTION FLUSH", c.Do("FUNCTION", "FLUSH"), "+OK")
	expectField("number_of_functions", 0)
	expectField("number_of_libraries", 0)
}
