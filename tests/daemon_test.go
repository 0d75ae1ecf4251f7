package tests

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The daemon as operators run it: configuration file, flags over it, rewrite, pid file, log
// file and levels, descriptor limits, SHUTDOWN. Each test runs the binary.

// baseArgs are the harness's arguments after the optional configuration file.
func baseArgs(t testing.TB, port int) []string {
	return []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir(), "--enable-debug-command", "yes"}
}

// startServerCmd starts the server with args (a configuration file first, when there is one)
// and the harness's arguments on a free port, waits for PING and stops it when the test ends.
// argv0, when not nil, is the command line that runs the binary (a wrapper and the binary).
func startServerCmd(t testing.TB, argv0 []string, args ...string) *server {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	full := serverArgs(t, port, args)
	s := &server{
		Port: port,
		Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		t:    t,
		out:  &syncBuffer{},
		done: make(chan struct{}),
	}
	if argv0 == nil {
		argv0 = []string{serverBin}
	}
	argv := append(append([]string(nil), argv0...), full...)
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(); err != nil {
		s.kill()
		t.Fatalf("%v\nserver output:\n%s", err, s.out.Tail(8<<10))
	}
	t.Cleanup(s.cleanup)
	return s
}

// runServerExpectFailure runs the server with args and returns its output and exit status,
// failing the test if it is still running after a few seconds.
func runServerExpectFailure(t *testing.T, args ...string) (string, error) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	full := serverArgs(t, port, args)
	cmd := exec.Command(serverBin, full...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(startTimeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("server still running with %q; output:\n%s", args, out.String())
	}
	return "", nil
}

// serverArgs puts a configuration file first, then the harness's arguments, then the rest of
// args, which override them.
func serverArgs(t testing.TB, port int, args []string) []string {
	var full []string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		full, args = []string{args[0]}, args[1:]
	}
	return append(append(full, baseArgs(t, port)...), args...)
}

func writeFile(t testing.TB, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// configGet returns CONFIG GET name's value.
func configGet(t testing.TB, c *rawConn, name string) string {
	t.Helper()
	r := c.Do("CONFIG", "GET", name)
	if len(r.Elems) != 2 {
		t.Fatalf("CONFIG GET %s: %s", name, formatReply(r, false))
	}
	return r.Elems[1].Str
}

// TestConfigFileAndFlags: a configuration file with comments, quotes, units and an include,
// with command-line directives overriding it.
func TestConfigFileAndFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	inc := writeFile(t, filepath.Join(dir, "inc.conf"), "# included\nrepl-backlog-size 3kb\ntimeout 100\nmaxmemory-policy allkeys-lru\n")
	conf := writeFile(t, filepath.Join(dir, "main.conf"),
		"# kvserver test\n\n   hz 20\nactive-defrag-ignore-bytes 1g\ninclude "+inc+"\ntimeout 50\nproto-max-bulk-len 2MB\n"+
			"client-query-buffer-limit 1gb\nlatency-tracking-info-percentiles \"50 99\"\n")
	srv := startServerCmd(t, nil, conf, "--timeout", "7", "--hz", "25")
	c := srv.RawConn(t)
	for name, want := range map[string]string{
		"hz":                                "25",         // the flag over the file
		"timeout":                           "7",          // the flag over the file and the include
		"active-defrag-ignore-bytes":        "1000000000", // g = 10^9
		"repl-backlog-size":                 "3072",       // kb = 1024, from the include
		"maxmemory-policy":                  "allkeys-lru",
		"proto-max-bulk-len":                "2097152", // units in any case
		"client-query-buffer-limit":         "1073741824",
		"latency-tracking-info-percentiles": "50 99",
	} {
		if got := configGet(t, c, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// TestConfigFileErrors: an unknown directive or a bad value stops start-up with Redis's
// block naming the line, the directive and (kvserver) the file; so does a missing file.
func TestConfigFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conf := writeFile(t, filepath.Join(dir, "bad.conf"), "# comment\n\nhz 10\nnot-a-directive 1 2\n")
	out, err := runServerExpectFailure(t, conf)
	if err == nil {
		t.Fatalf("started with an unknown directive; output:\n%s", out)
	}
	want := "Reading the configuration file, at line 4\n>>> 'not-a-directive 1 2'\nBad directive or wrong number of arguments\n"
	if !strings.Contains(out, want) || !strings.Contains(out, "*** FATAL CONFIG FILE ERROR (Redis ") {
		t.Errorf("output:\n%s\nwant it to contain:\n%s", out, want)
	}
	if !targetRedis {
		full := "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\n" + want + "(in " + conf + ")\n"
		if out != full {
			t.Errorf("output:\n%q\nwant:\n%q", out, full)
		}
		var ee *exec.ExitError
		if !asExitError(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("exit: %v, want status 1", err)
		}
		// In an included file, the message names that file and its line.
		inc := writeFile(t, filepath.Join(dir, "inc.conf"), "maxmemory lots\n")
		top := writeFile(t, filepath.Join(dir, "top.conf"), "include "+inc+"\n")
		out, _ = runServerExpectFailure(t, top)
		if !strings.Contains(out, "at line 1\n>>> 'maxmemory lots'\nargument must be a memory value\n(in "+inc+")") {
			t.Errorf("bad value in an include:\n%s", out)
		}
	}
	out, err = runServerExpectFailure(t, filepath.Join(dir, "missing.conf"))
	if err == nil || !strings.Contains(out, "Fatal error, can't open config file '"+filepath.Join(dir, "missing.conf")+"': No such file or directory") {
		t.Errorf("missing file: %v\n%s", err, out)
	}
	// A bad flag value is reported the same way, the flags counted as lines.
	out, err = runServerExpectFailure(t, "--maxmemory", "lots")
	if err == nil || !strings.Contains(out, "argument must be a memory value") {
		t.Errorf("bad flag: %v\n%s", err, out)
	}
}

func asExitError(err error, target **exec.ExitError) bool {
	ee, ok := err.(*exec.ExitError)
	if ok {
		*target = ee
	}
	return ok
}

// TestDaemonizeRefused: kvserver does not fork; it says so and exits 1.
func TestDaemonizeRefused(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis forks into the background")
	out, err := runServerExpectFailure(t, "--daemonize", "yes")
	if err == nil || !strings.Contains(out, "kvserver does not daemonize itself") || !strings.Contains(out, "kvserver.service") {
		t.Fatalf("daemonize yes: %v\n%s", err, out)
	}
}

// TestPidFileAndLogFile: the pid file holds the pid and goes at exit; the log goes to the
// log file, relative to dir.
func TestPidFileAndLogFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "kv.pid")
	srv := startServerCmd(t, nil, "--pidfile", pidfile, "--dir", dir, "--logfile", "server.log")
	b, err := os.ReadFile(pidfile)
	if err != nil || string(b) != strconv.Itoa(srv.Pid())+"\n" {
		t.Fatalf("pid file: %q, %v; want %d", b, err, srv.Pid())
	}
	if err := srv.Stop(stopTimeout); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	if _, err := os.Stat(pidfile); !os.IsNotExist(err) {
		t.Errorf("pid file still there after exit: %v", err)
	}
	log, err := os.ReadFile(filepath.Join(dir, "server.log"))
	if err != nil || len(log) == 0 {
		t.Fatalf("log file: %v, %d bytes", err, len(log))
	}
	if !strings.Contains(string(log), "ready to exit") {
		t.Errorf("log file does not record the exit:\n%s", log)
	}
	if out := srv.Output(); strings.Contains(out, "ready to exit") {
		t.Errorf("log written to standard output too:\n%s", out)
	}
}

// TestConfigSetErrors: CONFIG SET refuses bad values, immutable and protected parameters,
// unknown names and duplicates with Redis's words, and changes nothing then.
func TestConfigSetErrors(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"maxmemory", "lots"}, "ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value"},
		{[]string{"hz", "x"}, "ERR CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be parsed into an integer"},
		{[]string{"maxclients", "0"}, "ERR CONFIG SET failed (possibly related to argument 'maxclients') - argument must be between 1 and 4294967295 inclusive"},
		{[]string{"daemonize", "yes"}, "ERR CONFIG SET failed (possibly related to argument 'daemonize') - can't set immutable config"},
		{[]string{"port", "1", "daemonize", "no"}, "ERR CONFIG SET failed (possibly related to argument 'daemonize') - can't set immutable config"},
		{[]string{"dir", "/"}, "ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config"},
		{[]string{"no-such-thing", "1"}, "ERR Unknown option or number of arguments for CONFIG SET - 'no-such-thing'"},
		{[]string{"hz", "5", "HZ", "6"}, "ERR CONFIG SET failed (possibly related to argument 'HZ') - duplicate parameter"},
		{[]string{"appendfsync", "loud"}, "ERR CONFIG SET failed (possibly related to argument 'appendfsync') - argument(s) must be one of the following: everysec, always, no"},
		{[]string{"hz", "5", "maxmemory", "x"}, "ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value"},
	} {
		r := c.Do(append([]string{"CONFIG", "SET"}, tc.args...)...)
		if r.Kind != '-' || r.Str != tc.want {
			t.Errorf("CONFIG SET %q: %s\nwant %s", tc.args, formatReply(r, false), tc.want)
		}
	}
	if got := configGet(t, c, "hz"); got != "10" {
		t.Errorf("hz after refused CONFIG SETs: %s", got)
	}
	if r := c.Do("CONFIG", "SET", "hz", "600"); r.Str != "OK" || configGet(t, c, "hz") != "500" {
		t.Errorf("hz 600 should be accepted and capped to 500")
	}
	if r := c.Do("CONFIG", "REWRITE"); r.Str != "ERR The server is running without a config file" {
		t.Errorf("CONFIG REWRITE without a file: %s", formatReply(r, false))
	}
	if r := c.Do("CONFIG", "RESETSTAT"); r.Str != "OK" {
		t.Errorf("CONFIG RESETSTAT: %s", formatReply(r, false))
	}
}

// TestConfigRewrite: CONFIG REWRITE updates lines in place, keeps comments and includes,
// appends new values under Redis's signature, drops duplicates; a restart reads it back.
func TestConfigRewrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	inc := writeFile(t, filepath.Join(dir, "inc.conf"), "timeout 30\n")
	conf := writeFile(t, filepath.Join(dir, "kv.conf"),
		"# my server\nhz 20\n\n# memory\nmaxmemory-policy allkeys-lru\nhz 21\ninclude "+inc+"\n")
	srv := startServerCmd(t, nil, conf)
	c := srv.RawConn(t)
	if r := c.Do("CONFIG", "SET", "hz", "33", "repl-backlog-size", "2mb", "maxmemory-policy", "noeviction"); r.Str != "OK" {
		t.Fatalf("CONFIG SET: %s", formatReply(r, false))
	}
	if r := c.Do("CONFIG", "REWRITE"); r.Str != "OK" {
		t.Fatalf("CONFIG REWRITE: %s", formatReply(r, false))
	}
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	wantHead := "# my server\nhz 33\n\n# memory\nmaxmemory-policy noeviction\n\ninclude " + inc + "\n"
	if !strings.HasPrefix(got, wantHead) {
		t.Errorf("rewritten file:\n%s\nwant it to start with:\n%s", got, wantHead)
	}
	tail := got[strings.Index(got, "# Generated by CONFIG REWRITE\n")+1:]
	for _, want := range []string{"\nrepl-backlog-size 2mb\n", "\nsave \"\"\n", "\nport " + strconv.Itoa(srv.Port) + "\n", "\ndir \""} {
		if !strings.Contains(tail, want) {
			t.Errorf("rewritten file lacks %q under the signature:\n%s", want, got)
		}
	}
	// A value from the include differs from the default: Redis writes it in the main file.
	if strings.Count(got, "hz ") != 1 || !strings.Contains(tail, "\ntimeout 30\n") {
		t.Errorf("duplicate lines kept or the included value not written:\n%s", got)
	}

	// Restarted from the file (without the harness's flags), the server has the values.
	if err := srv.Stop(stopTimeout); err != nil {
		t.Fatal(err)
	}
	again := startServerCmd(t, nil, conf)
	c2 := again.RawConn(t)
	for name, want := range map[string]string{"hz": "33", "repl-backlog-size": "2097152", "maxmemory-policy": "noeviction", "timeout": "30"} {
		if v := configGet(t, c2, name); v != want {
			t.Errorf("after restart %s = %q, want %q", name, v, want)
		}
	}
	// A file that cannot be written is reported.
	if !targetRedis && os.Geteuid() != 0 {
		os.Chmod(dir, 0o500)
		defer os.Chmod(dir, 0o700)
		if r := c2.Do("CONFIG", "REWRITE"); !strings.HasPrefix(r.Str, "ERR Rewriting config file: ") {
			t.Errorf("rewrite into a read-only directory: %s", formatReply(r, false))
		}
	}
}

// TestConfigSetApplies: the settings the server acts on take effect when changed.
func TestConfigSetApplies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := startServer(t, "--enable-protected-configs", "yes", "--maxclients", "100")
	c := srv.RawConn(t)
	// dir: the working directory changes.
	if r := c.Do("CONFIG", "SET", "dir", dir); r.Str != "OK" {
		t.Fatalf("CONFIG SET dir: %s", formatReply(r, false))
	}
	if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", srv.Pid())); err != nil || cwd != dir {
		t.Errorf("working directory %q (%v), want %q", cwd, err, dir)
	}
	// maxclients: lowered below the clients connected, new ones are refused.
	if r := c.Do("CONFIG", "SET", "maxclients", "1"); r.Str != "OK" {
		t.Fatalf("CONFIG SET maxclients: %s", formatReply(r, false))
	}
	extra := srv.RawConn(t)
	if got := string(extra.ReadUntilClose()); got != "-ERR max number of clients reached\r\n" {
		t.Errorf("client past maxclients 1: %q", got)
	}
	if r := c.Do("CONFIG", "SET", "maxclients", "100"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	// proto-max-bulk-len: new clients get the new limit.
	if r := c.Do("CONFIG", "SET", "proto-max-bulk-len", "1mb"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	n := srv.RawConn(t)
	n.SendString("*2\r\n$4\r\nECHO\r\n$1048577\r\n")
	if got := string(n.ReadUntilClose()); got != "-ERR Protocol error: invalid bulk length\r\n" {
		t.Errorf("bulk over the new proto-max-bulk-len: %q", got)
	}
}

// TestLogLevelAndThrottle: protocol errors are logged at verbose; CONFIG SET loglevel
// changes the level at once; a flood of them is cut to a few lines a second, with the count
// of those left out.
func TestLogLevelAndThrottle(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis logs protocol errors one per line without a rate limit")
	srv := startServer(t, "--loglevel", "notice")
	garbage := func(n int) {
		for i := 0; i < n; i++ {
			g := srv.RawConn(t)
			g.SendString("*1\r\nx\r\n")
			g.ReadUntilClose()
			g.Close()
		}
	}
	garbage(1)
	time.Sleep(100 * time.Millisecond)
	if strings.Contains(srv.Output(), "protocol error") {
		t.Fatalf("protocol error logged at notice:\n%s", srv.Output())
	}
	c := srv.RawConn(t)
	if r := c.Do("CONFIG", "SET", "loglevel", "verbose"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	start := time.Now()
	garbage(60)
	elapsed := time.Since(start)
	time.Sleep(100 * time.Millisecond)
	// A burst of 10, then 10 a second.
	logged := strings.Count(srv.Output(), "protocol error")
	if most := 10 + int(elapsed.Seconds()*10) + 2; logged < 1 || logged > most || logged >= 60 {
		t.Fatalf("%d protocol errors logged for 60 in %v; want 1..%d", logged, elapsed, most)
	}
	time.Sleep(300 * time.Millisecond) // tokens come back
	garbage(1)
	time.Sleep(100 * time.Millisecond)
	if !strings.Contains(srv.Output(), "suppressed=") {
		t.Errorf("no count of suppressed messages:\n%s", srv.Output())
	}
}

// TestMaxClientsCappedByFDLimit: run as an unprivileged user under a hard limit of 64
// descriptors, maxclients is lowered to 64-32 with Redis's warning, and CONFIG SET cannot
// raise it past that.
func TestMaxClientsCappedByFDLimit(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root to start the server as an unprivileged user")
	}
	for _, tool := range []string{"setpriv", "prlimit"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed")
		}
	}
	// The unprivileged user needs to reach the binary and a directory to run in.
	pub := t.TempDir()
	os.Chmod(filepath.Dir(pub), 0o755) // the test's temporary directories, --dir of the harness too
	os.Chmod(pub, 0o777)
	bin := serverBin
	if !targetRedis {
		data, err := os.ReadFile(serverBin)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(pub, "kvserver")
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	prefix := []string{"setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "prlimit", "--nofile=64:64", "--", bin}
	srv := startServerCmd(t, prefix, "--dir", pub)
	c := srv.RawConn(t)
	if got := configGet(t, c, "maxclients"); got != "32" {
		t.Errorf("maxclients %s under 64 descriptors, want 32", got)
	}
	if want := "maxclients has been reduced to 32 to compensate for low ulimit."; !strings.Contains(srv.Output(), want) {
		t.Errorf("no warning %q in:\n%s", want, srv.Output())
	}
	r := c.Do("CONFIG", "SET", "maxclients", "40")
	if want := "ERR CONFIG SET failed (possibly related to argument 'maxclients') - The operating system is not able to handle the specified number of clients, try with 32"; r.Str != want {
		t.Errorf("CONFIG SET maxclients 40: %s", formatReply(r, false))
	}
	if got := configGet(t, c, "maxclients"); got != "32" {
		t.Errorf("maxclients after the refusal: %s", got)
	}
	if r := c.Do("CONFIG", "SET", "maxclients", "20"); r.Str != "OK" {
		t.Errorf("CONFIG SET maxclients 20: %s", formatReply(r, false))
	}
}

// TestAcceptBacksOffOnEMFILE: with the descriptor limit lowered under a running server, the
// connections past it wait in the backlog while accept backs off (5 ms doubling to 1 s)
// instead of spinning; clients already connected are served, and once descriptors free up
// the server accepts again.
func TestAcceptBacksOffOnEMFILE(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis retries accept on every event loop turn")
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit not installed")
	}
	srv := startServer(t)
	keep := srv.RawConn(t)
	if !pingOK(keep) {
		t.Fatal("PING")
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", srv.Pid()))
	limit := len(fds) + 4
	if out, err := exec.Command("prlimit", "--pid", strconv.Itoa(srv.Pid()), fmt.Sprintf("--nofile=%d:%d", limit, limit)).CombinedOutput(); err != nil {
		t.Skipf("prlimit: %v %s", err, out)
	}
	var conns []net.Conn
	for i := 0; i < 20; i++ {
		nc, err := net.DialTimeout("tcp", srv.Addr, ioTimeout)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		conns = append(conns, nc)
	}
	time.Sleep(300 * time.Millisecond)
	if !pingOK(keep) {
		t.Fatal("a connected client is not served while accept fails")
	}
	if n := strings.Count(srv.Output(), "too many open files"); n == 0 || n > 12 {
		t.Errorf("%d accept failures logged in 300 ms; want a few (backing off)", n)
	}
	for _, nc := range conns {
		nc.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", srv.Addr, ioTimeout)
		if err == nil {
			rc := &rawConn{t: t, Conn: c, r: bufio.NewReader(c)}
			ok := pingOK(rc)
			c.Close()
			if ok {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new connection served 5 s after descriptors were freed\n%s", srv.Output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := syscall.Kill(srv.Pid(), 0); err != nil {
		t.Fatalf("server gone: %v", err)
	}
}

// TestShutdownVariants: SHUTDOWN's option errors are Redis's; ABORT finds nothing to abort;
// SHUTDOWN NOW FORCE, NOSAVE and SAVE close the connection without a reply and exit 0, and
// remove the pid file.
func TestShutdownVariants(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"SHUTDOWN", "ABORT"}, "ERR No shutdown in progress."},
		{[]string{"SHUTDOWN", "ABORT", "NOW"}, "ERR syntax error"},
		{[]string{"SHUTDOWN", "SAVE", "NOSAVE"}, "ERR syntax error"},
		{[]string{"SHUTDOWN", "LATER"}, "ERR syntax error"},
		{[]string{"SHUTDOWN", "abort", "abort"}, "ERR No shutdown in progress."},
	} {
		if r := c.Do(tc.args...); r.Kind != '-' || r.Str != tc.want {
			t.Errorf("%q: %s, want %s", tc.args, formatReply(r, false), tc.want)
		}
	}

	exits := [][]string{{"SHUTDOWN", "NOW", "FORCE"}, {"shutdown", "nosave", "now", "force"}, {"SHUTDOWN", "SAVE"}}
	for _, args := range exits {
		pidfile := filepath.Join(t.TempDir(), "s.pid")
		s := startServer(t, "--pidfile", pidfile)
		s.mu.Lock()
		s.stopping = true
		s.mu.Unlock()
		sc := s.RawConn(t)
		sc.Send(encodeCommand(args...))
		if b := sc.ReadUntilClose(); len(b) != 0 {
			t.Errorf("%q answered %q; want the connection closed", args, b)
		}
		select {
		case <-s.done:
			if s.exitErr != nil {
				t.Errorf("%q: exit %v, want status 0", args, s.exitErr)
			}
		case <-time.After(stopTimeout):
			t.Fatalf("%q: still running", args)
		}
		if _, err := os.Stat(pidfile); !os.IsNotExist(err) {
			t.Errorf("%q: pid file left: %v", args, err)
		}
	}
}
