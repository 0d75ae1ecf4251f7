package tests

import (
	"testing"
	"time"
)

// Busy scripts (issue 23): a script running longer than busy-reply-threshold makes the server
// answer other clients BUSY, except SCRIPT KILL / FUNCTION KILL and SHUTDOWN NOSAVE; a kill
// ends a script that has not written, with Redis's error to its client; one that wrote is
// UNKILLABLE and only SHUTDOWN NOSAVE stops the server. These run against redis-server too.
// Nothing here asserts a duration: the tests wait (up to ioTimeout) for BUSY to appear.

const (
	errBusyEval     = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."
	errBusyFunction = "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE."
	errUnkillable   = "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command."
	// spinSHA is the SHA1 of "while true do end".
	spinSHA = "694a5fe1ddb97a4c6a1bf299d9537c7d3d0f84e7"
)

// startBusyServer starts a server whose busy-reply-threshold is 100 ms, set through directive
// (busy-reply-threshold or its old name lua-time-limit), or skips without EVAL.
func startBusyServer(t *testing.T, functions bool, directive string) *server {
	t.Helper()
	s := startServer(t)
	skipWithoutScripting(t, s, functions)
	c := s.RawConn(t)
	expectStatus(t, "CONFIG SET "+directive, c.Do("CONFIG", "SET", directive, "100"), "+OK")
	for _, name := range []string{"busy-reply-threshold", "lua-time-limit"} {
		if r := c.Do("CONFIG", "GET", name); len(r.Elems) != 2 || r.Elems[1].Str != "100" {
			t.Fatalf("CONFIG GET %s after CONFIG SET %s 100: %s", name, directive, formatReply(r, false))
		}
	}
	c.Close()
	return s
}

// waitBusy sends PING on c until the server answers want (a BUSY error) instead of PONG.
func waitBusy(t *testing.T, c *rawConn, want string) {
	t.Helper()
	var last *Reply
	waitFor(t, ioTimeout, "BUSY from another client", func() bool {
		last = c.Do("PING")
		if last.Kind == '+' && last.Str == "PONG" {
			return false
		}
		return true
	})
	expectStatus(t, "PING during the busy script", last, "-"+want)
}

// TestScriptBusyKill: BUSY for other clients' commands while `while true do end` runs; FUNCTION
// KILL is refused for an EVAL; SCRIPT KILL ends it, its client gets the killed error, and the
// server serves everyone again.
func TestScriptBusyKill(t *testing.T) {
	t.Parallel()
	s := startBusyServer(t, false, "busy-reply-threshold")
	a := s.RawConn(t)
	a.Send(encodeCommand("EVAL", "while true do end", "0"))
	b := s.RawConn(t)
	waitBusy(t, b, errBusyEval)
	expectStatus(t, "GET during the busy script", b.Do("GET", "k"), "-"+errBusyEval)
	expectStatus(t, "SET during the busy script", b.Do("SET", "k", "v"), "-"+errBusyEval)
	expectStatus(t, "EVAL during the busy script", b.Do("EVAL", "return 1", "0"), "-"+errBusyEval)
	expectStatus(t, "FUNCTION KILL of an EVAL", b.Do("FUNCTION", "KILL"), "-"+errBusyEval)
	expectStatus(t, "SCRIPT KILL", b.Do("SCRIPT", "KILL"), "+OK")
	expectStatus(t, "the killed script's reply", a.ReadReply(),
		"-ERR Script killed by user with SCRIPT KILL... script: "+spinSHA+", on @user_script:1.")
	expectStatus(t, "PING after the kill", b.Do("PING"), "+PONG")
	expectStatus(t, "PING of the killed script's client", a.Do("PING"), "+PONG")
	expectStatus(t, "SCRIPT KILL with nothing running", b.Do("SCRIPT", "KILL"), "-NOTBUSY No scripts in execution right now.")
	if r := b.Do("SET", "k", "v"); r.Kind != '+' {
		t.Errorf("SET after the kill: %s", formatReply(r, false))
	}
}

// TestFunctionBusyKill: the same for FCALL of a function that never returns: SCRIPT KILL is
// refused, FUNCTION STATS names the running function, FUNCTION KILL ends it.
func TestFunctionBusyKill(t *testing.T) {
	t.Parallel()
	s := startBusyServer(t, true, "busy-reply-threshold")
	a := s.RawConn(t)
	expectStatus(t, "FUNCTION LOAD", a.Do("FUNCTION", "LOAD", "#!lua name=busy\nredis.register_function('spin', function() while true do end end)"), "$busy")
	a.Send(encodeCommand("FCALL", "spin", "0"))
	b := s.RawConn(t)
	waitBusy(t, b, errBusyFunction)
	expectStatus(t, "SCRIPT KILL of a function", b.Do("SCRIPT", "KILL"), "-"+errBusyFunction)
	stats := b.Do("FUNCTION", "STATS")
	if stats.Kind != '*' || len(stats.Elems) < 2 || stats.Elems[1].Kind != '*' || len(stats.Elems[1].Elems) < 2 || stats.Elems[1].Elems[1].Str != "spin" {
		t.Errorf("FUNCTION STATS during the busy function: %s", formatReply(stats, false))
	}
	expectStatus(t, "FUNCTION KILL", b.Do("FUNCTION", "KILL"), "+OK")
	expectStatus(t, "the killed function's reply", a.ReadReply(),
		"-ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:2.")
	expectStatus(t, "PING after the kill", b.Do("PING"), "+PONG")
}

// TestScriptUnkillable: a busy script that wrote cannot be killed (UNKILLABLE); SHUTDOWN
// NOSAVE from another client stops the server meanwhile, exit status 0, without a reply. The
// threshold is set by its old name, lua-time-limit, here.
func TestScriptUnkillable(t *testing.T) {
	t.Parallel()
	s := startBusyServer(t, false, "lua-time-limit")
	a := s.RawConn(t)
	a.Send(encodeCommand("EVAL", "redis.call('set', KEYS[1], 'written') while true do end", "1", "k"))
	b := s.RawConn(t)
	waitBusy(t, b, errBusyEval)
	expectStatus(t, "SCRIPT KILL after a write", b.Do("SCRIPT", "KILL"), "-"+errUnkillable)
	expectStatus(t, "PING after the refused kill", b.Do("PING"), "-"+errBusyEval)
	expectStatus(t, "SHUTDOWN (saving) during the script", b.Do("SHUTDOWN"), "-"+errBusyEval)
	markStopping(s)
	b.Send(encodeCommand("SHUTDOWN", "NOSAVE"))
	if got := b.ReadUntilClose(); len(got) != 0 {
		t.Errorf("SHUTDOWN NOSAVE answered %q", got)
	}
	if code := waitExitCode(t, s); code != 0 {
		t.Errorf("exit status %d after SHUTDOWN NOSAVE, want 0", code)
	}
	// The script's client is closed without a reply.
	a.SetReadDeadline(time.Now().Add(ioTimeout))
	if r, err := a.TryReadReply(ioTimeout); err == nil {
		t.Errorf("the busy script's client got %s", formatReply(r, false))
	}
}
