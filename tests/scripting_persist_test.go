package tests

import (
	"testing"
)

// Function libraries survive a restart (issue 23): FUNCTION LOAD, SAVE, a new process on the
// same directory, FCALL still works (RDB opcode 245); FUNCTION DUMP of one server restores on
// another. These run against redis-server too.

const persistLib = "#!lua name=keep\n" +
	"redis.register_function('keep_get', function(keys) return redis.call('GET', keys[1]) end)\n" +
	"redis.register_function{function_name='keep_ro', callback=function() return 'ro' end, flags={'no-writes'}, description='kept'}"

// TestFunctionPersistRestart: the libraries and the keys of a SAVE are loaded by the next
// process; a library loaded after the SAVE is not; the flags are kept (FCALL_RO).
func TestFunctionPersistRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, "--dir", dir)
	skipWithoutScripting(t, s, true)
	c := s.RawConn(t)
	expectStatus(t, "FUNCTION LOAD", c.Do("FUNCTION", "LOAD", persistLib), "$keep")
	expectStatus(t, "SET", c.Do("SET", "k", "saved value"), "+OK")
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	expectStatus(t, "FUNCTION LOAD after the save", c.Do("FUNCTION", "LOAD", "#!lua name=later\nredis.register_function('later', function() return 1 end)"), "$later")
	c.Close()
	if err := s.Stop(stopTimeout); err != nil {
		t.Fatalf("stop: %v", err)
	}

	s2 := restart(t, dir)
	c2 := s2.RawConn(t)
	expectStatus(t, "FCALL after the restart", c2.Do("FCALL", "keep_get", "1", "k"), "$saved value")
	expectStatus(t, "FCALL_RO after the restart", c2.Do("FCALL_RO", "keep_ro", "0"), "$ro")
	expectStatus(t, "FCALL_RO of a function without no-writes", c2.Do("FCALL_RO", "keep_get", "1", "k"),
		"-ERR Can not execute a script with write flag using *_ro command.")
	expectStatus(t, "FCALL of the library loaded after the save", c2.Do("FCALL", "later", "0"), "-ERR Function not found")
	list := c2.Do("FUNCTION", "LIST", "WITHCODE")
	if got := formatReply(list, false); list.Kind != '*' || len(list.Elems) != 1 || len(list.Elems[0].Elems) != 8 || list.Elems[0].Elems[7].Str != persistLib {
		t.Errorf("FUNCTION LIST WITHCODE after the restart:\n%s", got)
	}
}

// TestFunctionDumpRestoreAcross: FUNCTION DUMP's payload restores on another server, whose
// FCALL then works; RESTORE of the same payload again is refused (APPEND), accepted with
// REPLACE.
func TestFunctionDumpRestoreAcross(t *testing.T) {
	t.Parallel()
	s1 := startServer(t)
	skipWithoutScripting(t, s1, true)
	c1 := s1.RawConn(t)
	expectStatus(t, "FUNCTION LOAD", c1.Do("FUNCTION", "LOAD", persistLib), "$keep")
	dump := c1.Do("FUNCTION", "DUMP")
	if dump.Kind != '$' {
		t.Fatalf("FUNCTION DUMP: %s", formatReply(dump, false))
	}
	s2 := startServer(t)
	c2 := s2.RawConn(t)
	expectStatus(t, "SET", c2.Do("SET", "k", "v2"), "+OK")
	expectStatus(t, "FUNCTION RESTORE", c2.Do("FUNCTION", "RESTORE", dump.Str), "+OK")
	expectStatus(t, "FCALL after RESTORE", c2.Do("FCALL", "keep_get", "1", "k"), "$v2")
	expectStatus(t, "FUNCTION RESTORE again", c2.Do("FUNCTION", "RESTORE", dump.Str), "-ERR Library keep already exists")
	expectStatus(t, "FUNCTION RESTORE REPLACE", c2.Do("FUNCTION", "RESTORE", dump.Str, "REPLACE"), "+OK")
	if again := c2.Do("FUNCTION", "DUMP"); again.Kind != '$' || again.Str != dump.Str {
		t.Errorf("FUNCTION DUMP of the restored library differs:\n%q\n%q", again.Str, dump.Str)
	}
}
