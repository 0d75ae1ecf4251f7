package tests

import (
	"bufio"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// No directive is silently ignored: the ones whose being ignored would weaken security or lose
// data stop the server at start-up and fail CONFIG SET; rename-command and
// enable-debug-command are acted on; the ones accepted with no effect say so in the log.

// TestRefusedDirectivesAtStartup: each refused directive, in a configuration file, stops the
// server with Redis's FATAL CONFIG FILE ERROR block naming its line, and exit code 1.
func TestRefusedDirectivesAtStartup(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis acts on these directives")
	for _, line := range []string{
		"appendonly yes",
		"replicaof 127.0.0.1 6399",
		"cluster-enabled yes",
		"tls-port 6390",
		"tls-cert-file /etc/ssl/kv.crt",
		"tls-ca-cert-file /etc/ssl/ca.crt",
		"loadmodule /usr/lib/redis/modules/x.so",
		"mymodule.setting 1",
	} {
		name, _, _ := strings.Cut(line, " ")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conf := writeFile(t, filepath.Join(t.TempDir(), "r.conf"), "# a real deployment's file\nhz 10\n"+line+"\n")
			// The file alone: the harness's arguments would override some lines (--appendonly no),
			// and the server must stop at loading, before it listens.
			outb, err := exec.Command(serverBin, conf).CombinedOutput()
			out := string(outb)
			var ee *exec.ExitError
			if !asExitError(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1; output:\n%s", err, out)
			}
			want := "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 3\n>>> '" + line + "'\n"
			if !strings.HasPrefix(out, want) || !strings.Contains(out, "(in "+conf+")") {
				t.Errorf("output:\n%s\nwant it to start with:\n%s", out, want)
			}
		})
	}
}

// TestACLUserConfigNotServedOpen: the ACL way to set a password, on an open bind without
// protected mode, must not leave the server serving every client without a password: as
// Redis, it answers NOAUTH until AUTH gives the default user's password.
func TestACLUserConfigNotServedOpen(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "the harness's readiness PING cannot pass the password")
	port := freePortT(t)
	conf := writeFile(t, filepath.Join(t.TempDir(), "acl.conf"),
		"bind 127.0.0.1\nprotected-mode no\nsave \"\"\nport "+strconv.Itoa(port)+"\nuser default on >S3cretPw ~* &* +@all\n")
	cmd := exec.Command(serverBin, conf)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var c net.Conn
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		if c, err = net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server does not listen: %v", err)
		}
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	for _, step := range [][2]string{
		{"PING", "-NOAUTH Authentication required."},
		{"AUTH wrong", "-WRONGPASS invalid username-password pair or user is disabled."},
		{"AUTH S3cretPw", "+OK"},
		{"PING", "+PONG"},
	} {
		if _, err := c.Write([]byte(step[0] + "\r\n")); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil || strings.TrimRight(line, "\r\n") != step[1] {
			t.Fatalf("%s: %q %v, want %q", step[0], line, err, step[1])
		}
	}
}

// TestRefusedDirectivesConfigSet: CONFIG SET of a refused value fails and changes nothing, the
// whole command included; the defaults are accepted.
func TestRefusedDirectivesConfigSet(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis acts on these directives")
	srv := startServer(t)
	c := srv.RawConn(t)
	for _, pv := range [][2]string{{"appendonly", "yes"}, {"tls-port", "6390"},
		{"tls-cert-file", "/x.crt"}, {"tls-replication", "yes"}} {
		r := c.Do("CONFIG", "SET", "hz", "33", pv[0], pv[1])
		want := "ERR CONFIG SET failed (possibly related to argument '" + pv[0] + "') - "
		if r.Kind != '-' || !strings.HasPrefix(r.Str, want) || !strings.Contains(r.Str, "not") {
			t.Errorf("CONFIG SET %s %s: %s", pv[0], pv[1], formatReply(r, false))
		}
	}
	if hz := configGet(t, c, "hz"); hz != "10" {
		t.Errorf("hz = %s after refused CONFIG SETs, want 10 (all or nothing)", hz)
	}
	for _, pv := range [][2]string{{"appendonly", "no"}, {"tls-port", "0"}} {
		if r := c.Do("CONFIG", "SET", pv[0], pv[1]); r.Str != "OK" {
			t.Errorf("CONFIG SET %s %s (the default): %s", pv[0], pv[1], formatReply(r, false))
		}
	}
	// user and aclfile are not CONFIG SET parameters (aclfile is immutable, as in Redis).
	if r := c.Do("CONFIG", "SET", "aclfile", "/tmp/users.acl"); !strings.Contains(r.Str, "can't set immutable config") {
		t.Errorf("CONFIG SET aclfile: %s", formatReply(r, false))
	}
}

// TestRenameCommand: rename-command in the configuration file renames a command or, with "",
// removes it. As in Redis, the command keeps its own name where Redis prints cmd->fullname
// (COMMAND INFO's first field, COMMAND LIST, CLIENT LIST's cmd=), and only lookups see the new
// name. A rename of an unknown command stops start-up.
func TestRenameCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plain := startServer(t).RawConn(t)
	conf := writeFile(t, filepath.Join(dir, "rn.conf"), "rename-command FLUSHALL \"\"\nrename-command CONFIG cfg_9f8e\n")
	srv := startServerCmd(t, nil, conf)
	c := srv.RawConn(t)
	c.Do("SET", "k", "v")
	if r := c.Do("FLUSHALL"); !strings.HasPrefix(r.Str, "ERR unknown command 'FLUSHALL'") {
		t.Errorf("FLUSHALL after rename to \"\": %s", formatReply(r, false))
	}
	if r := c.Do("GET", "k"); r.Str != "v" {
		t.Errorf("GET k = %s: the disabled FLUSHALL flushed", formatReply(r, false))
	}
	if r := c.Do("CONFIG", "GET", "port"); !strings.HasPrefix(r.Str, "ERR unknown command 'CONFIG'") {
		t.Errorf("CONFIG after rename: %s", formatReply(r, false))
	}
	if r := c.Do("cfg_9f8e", "GET", "hz"); len(r.Elems) != 2 || r.Elems[1].Str != "10" {
		t.Errorf("cfg_9f8e GET hz: %s", formatReply(r, false))
	}
	if r := c.Do("CFG_9F8E", "GET"); r.Str != "ERR wrong number of arguments for 'config|get' command" {
		t.Errorf("CFG_9F8E GET: %s", formatReply(r, false))
	}
	if r := c.Do("COMMAND", "INFO", "cfg_9f8e", "config", "flushall"); len(r.Elems) != 3 ||
		len(r.Elems[0].Elems) == 0 || r.Elems[0].Elems[0].Str != "config" || r.Elems[1].Kind != '_' || r.Elems[2].Kind != '_' {
		t.Errorf("COMMAND INFO cfg_9f8e config flushall: %s", formatReply(r, false))
	}
	before, after := plain.Do("COMMAND", "COUNT").Int, c.Do("COMMAND", "COUNT").Int
	if after != before-1 {
		t.Errorf("COMMAND COUNT %d, want %d (one command removed)", after, before-1)
	}
	list := c.Do("COMMAND", "LIST")
	for _, e := range list.Elems {
		if e.Str == "flushall" || e.Str == "cfg_9f8e" {
			t.Errorf("COMMAND LIST lists %s", e.Str)
		}
	}
	// Another client sees this one's last command under the command's own name.
	other := srv.RawConn(t)
	other.Do("CFG_9F8E", "GET", "port")
	id := other.Do("CLIENT", "ID").Int
	other.Do("cfg_9f8e", "GET", "hz")
	clients := c.Do("CLIENT", "LIST", "ID", strconv.FormatInt(id, 10)).Str
	if !strings.Contains(clients, " cmd=config|get ") {
		t.Errorf("CLIENT LIST after cfg_9f8e GET: %s", clients)
	}

	bad := writeFile(t, filepath.Join(dir, "bad.conf"), "rename-command NOSUCHCMD foo\n")
	out, err := runServerExpectFailure(t, bad)
	if err == nil || !strings.Contains(out, "No such command in rename-command") {
		t.Errorf("rename of an unknown command: %v\n%s", err, out)
	}
}

// TestDebugCommandRefused: DEBUG answers Redis's error unless enable-debug-command allows it;
// "local" allows loopback clients; the directive cannot change at run time.
func TestDebugCommandRefused(t *testing.T) {
	t.Parallel()
	const refused = "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", " +
		"you can run it from a local connection, otherwise you need to set this option in the configuration file, " +
		"and then restart the server."
	srv := startServer(t, "--enable-debug-command", "no")
	c := srv.RawConn(t)
	for _, args := range [][]string{{"DEBUG", "SLEEP", "0"}, {"DEBUG", "PAUSE-CRON", "1"}, {"debug", "log", "x"}, {"DEBUG", "HELP"}} {
		if r := c.Do(args...); r.Str != refused {
			t.Errorf("%q: %s", args, formatReply(r, false))
		}
	}
	// Arity is checked first, as in processCommand.
	if r := c.Do("DEBUG"); r.Str != "ERR wrong number of arguments for 'debug' command" {
		t.Errorf("DEBUG alone: %s", formatReply(r, false))
	}
	if r := c.Do("CONFIG", "SET", "enable-debug-command", "yes"); !strings.Contains(r.Str, "can't set immutable config") {
		t.Errorf("CONFIG SET enable-debug-command: %s", formatReply(r, false))
	}
	local := startServer(t, "--enable-debug-command", "local").RawConn(t)
	if r := local.Do("DEBUG", "SLEEP", "0"); r.Str != "OK" {
		t.Errorf("DEBUG SLEEP 0 from loopback with enable-debug-command local: %s", formatReply(r, false))
	}
}

// TestInertDirectivesWarn: a directive accepted with no effect logs a warning the first time it
// is set to a value other than its default — from the configuration or by CONFIG SET — and only
// once. Save points are acted on since persistence exists, so they log no such warning.
func TestInertDirectivesWarn(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis acts on these directives")
	srv := startServer(t, "--lazyfree-lazy-eviction", "yes", "--save", "3600 1")
	c := srv.RawConn(t)
	for range 3 {
		if r := c.Do("CONFIG", "SET", "dynamic-hz", "no"); r.Str != "OK" {
			t.Fatalf("CONFIG SET dynamic-hz: %s", formatReply(r, false))
		}
		c.Do("CONFIG", "SET", "dynamic-hz", "yes")
	}
	c.Do("PING")
	out := srv.Output()
	for name, want := range map[string]int{"'lazyfree-lazy-eviction' is accepted for compatibility and has no effect": 1,
		"'dynamic-hz' is accepted for compatibility and has no effect": 1,
		"nothing will be saved": 0, "no persistence": 0} {
		if n := strings.Count(out, name); n != want {
			t.Errorf("log has %d lines with %q, want %d:\n%s", n, name, want, out)
		}
	}
	// Directives at their defaults say nothing.
	if strings.Contains(out, "'lazyfree-lazy-expire'") {
		t.Errorf("a directive at its default was reported:\n%s", out)
	}
}
