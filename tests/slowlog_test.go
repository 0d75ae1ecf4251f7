package tests

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// slowEntry is one SLOWLOG GET entry.
type slowEntry struct {
	id, time, duration int64
	args               []string
	peer, name         string
}

func slowlogGet(t *testing.T, c *rawConn, count ...string) []slowEntry {
	t.Helper()
	r := c.Do(append([]string{"SLOWLOG", "GET"}, count...)...)
	if r.Kind != '*' {
		t.Fatalf("SLOWLOG GET: %s", formatReply(r, false))
	}
	var out []slowEntry
	for _, e := range r.Elems {
		if len(e.Elems) != 6 {
			t.Fatalf("entry of %d fields: %s", len(e.Elems), formatReply(e, false))
		}
		se := slowEntry{id: e.Elems[0].Int, time: e.Elems[1].Int, duration: e.Elems[2].Int,
			peer: e.Elems[4].Str, name: e.Elems[5].Str}
		for _, a := range e.Elems[3].Elems {
			se.args = append(se.args, a.Str)
		}
		out = append(out, se)
	}
	return out
}

// TestSlowlog: with slowlog-log-slower-than 0 every command is logged, newest first, with its
// id, unix time, duration, arguments (at most 32, each cut at 128 bytes as Redis does),
// client address and name; slowlog-max-len bounds the log; SLOWLOG LEN, RESET and GET's count.
// Run against redis-server too.
func TestSlowlog(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	c.Do("CONFIG", "SET", "slowlog-log-slower-than", "0")
	c.Do("CLIENT", "SETNAME", "observer")
	c.Do("SLOWLOG", "RESET")
	before := time.Now().Unix()
	c.Do("SET", "k", strings.Repeat("v", 200))
	del := []string{"DEL"}
	for i := 0; i < 40; i++ {
		del = append(del, "key"+strconv.Itoa(i))
	}
	c.Do(del...)
	es := slowlogGet(t, c, "2")
	if len(es) != 2 {
		t.Fatalf("SLOWLOG GET 2: %d entries", len(es))
	}
	if got := strings.Join(es[0].args, " "); got != strings.Join(del[:31], " ")+" ... (10 more arguments)" {
		t.Errorf("DEL of 40 keys logged as %q", got)
	}
	set := es[1]
	if len(set.args) != 3 || set.args[2] != strings.Repeat("v", 128)+"... (72 more bytes)" {
		t.Errorf("SET of a 200-byte value logged as %q", set.args)
	}
	if set.id+1 != es[0].id {
		t.Errorf("ids %d then %d: not consecutive", set.id, es[0].id)
	}
	if set.time < before || set.time > time.Now().Unix() || set.duration < 0 {
		t.Errorf("time %d (test began %d), duration %d", set.time, before, set.duration)
	}
	if set.peer != c.LocalAddr().String() || set.name != "observer" {
		t.Errorf("client %q named %q, want %q named observer", set.peer, set.name, c.LocalAddr())
	}

	// SLOWLOG RESET empties the log; it is then logged itself, as any command.
	if r := c.Do("SLOWLOG", "RESET"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	if r := c.Do("SLOWLOG", "LEN"); r.Int != 1 {
		t.Errorf("SLOWLOG LEN after RESET: %s", formatReply(r, false))
	}
	if es := slowlogGet(t, c); len(es) != 2 || es[0].args[1] != "LEN" || es[1].args[1] != "RESET" {
		t.Errorf("after RESET: %+v", es)
	}

	c.Do("CONFIG", "SET", "slowlog-max-len", "3")
	for i := 0; i < 5; i++ {
		c.Do("PING")
	}
	if r := c.Do("SLOWLOG", "LEN"); r.Int != 3 {
		t.Errorf("SLOWLOG LEN with slowlog-max-len 3: %s", formatReply(r, false))
	}
	if es := slowlogGet(t, c, "-1"); len(es) != 3 {
		t.Errorf("SLOWLOG GET -1: %d entries", len(es))
	}
	if es := slowlogGet(t, c, "0"); len(es) != 0 {
		t.Errorf("SLOWLOG GET 0: %d entries", len(es))
	}
	for _, bad := range []string{"-2", "abc"} {
		if r := c.Do("SLOWLOG", "GET", bad); r.Kind != '-' || r.Str != "ERR count should be greater than or equal to -1" {
			t.Errorf("SLOWLOG GET %s: %s", bad, formatReply(r, false))
		}
	}
	if r := c.Do("SLOWLOG", "GET", "1", "2"); r.Kind != '-' || !strings.HasPrefix(r.Str, "ERR unknown subcommand or wrong number of arguments for 'GET'") {
		t.Errorf("SLOWLOG GET 1 2: %s", formatReply(r, false))
	}
	if r := c.Do("SLOWLOG", "HELP"); len(r.Elems) < 10 || r.Elems[0].Str != "SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:" {
		t.Errorf("SLOWLOG HELP: %s", formatReply(r, false))
	}
}

// TestSlowlogThreshold: only commands at least slowlog-log-slower-than µs long are logged
// (DEBUG SLEEP makes one), and -1 logs none.
func TestSlowlogThreshold(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	c.Do("CONFIG", "SET", "slowlog-log-slower-than", "20000")
	c.Do("SLOWLOG", "RESET")
	c.Do("DEBUG", "SLEEP", "0.03")
	c.Do("PING")
	es := slowlogGet(t, c)
	if len(es) != 1 || strings.Join(es[0].args, " ") != "DEBUG SLEEP 0.03" || es[0].duration < 20000 {
		t.Fatalf("slow log: %+v", es)
	}
	c.Do("CONFIG", "SET", "slowlog-log-slower-than", "-1")
	c.Do("SLOWLOG", "RESET")
	c.Do("DEBUG", "SLEEP", "0.03")
	if r := c.Do("SLOWLOG", "LEN"); r.Int != 0 {
		t.Errorf("slowlog-log-slower-than -1: %s entries", formatReply(r, false))
	}
}

// TestSlowlogRedactsPasswords: AUTH's password and CONFIG SET requirepass's value are shown as
// "(redacted)", never logged.
func TestSlowlogRedactsPasswords(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	c.Do("CONFIG", "SET", "slowlog-log-slower-than", "0")
	c.Do("CONFIG", "SET", "requirepass", "s3cret")
	c.Do("AUTH", "s3cret")
	c.Do("AUTH", "default", "s3cret")
	c.Do("HELLO", "2", "AUTH", "default", "s3cret")
	es := slowlogGet(t, c, "4")
	want := []string{
		"HELLO 2 AUTH (redacted) (redacted)",
		"AUTH (redacted) (redacted)",
		"AUTH (redacted)",
		"CONFIG SET requirepass (redacted)",
	}
	for i, w := range want {
		if i >= len(es) || strings.Join(es[i].args, " ") != w {
			t.Errorf("entry %d: %+v, want %q", i, es, w)
		}
	}
}
