package tests

import (
	"bufio"
	"bytes"
	"errors"
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

// The listeners, as Redis 7.2 makes them: bind addresses exactly as written (0.0.0.0 is IPv4
// only, :: IPv6 only), port 0 is no TCP listener, the Unix socket, and CONFIG SET port and
// bind at run time. Each test passes against redis-server too.

// listenArgs are the harness's arguments without --port and --bind, which these tests give.
func listenArgs(t testing.TB) []string {
	return []string{"--save", "", "--appendonly", "no", "--dir", t.TempDir()}
}

// startListening starts the server with the harness's base arguments and args (its own --port,
// --bind, --unixsocket), waits until PING answers at network/address, and stops it when the
// test ends.
func startListening(t *testing.T, network, address string, args ...string) *server {
	t.Helper()
	s := &server{t: t, out: &syncBuffer{}, done: make(chan struct{})}
	if network == "tcp" {
		_, p, _ := net.SplitHostPort(address)
		s.Port, _ = strconv.Atoi(p)
		s.Addr = address
	}
	s.cmd = exec.Command(serverBin, append(listenArgs(t), args...)...)
	s.cmd.Env = withoutEnv("KVSERVER_PPROF_ADDR") // the profiler's listener is not the server's
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		close(s.done)
	}()
	deadline := time.Now().Add(startTimeout)
	for !pingAt(network, address) {
		select {
		case <-s.done:
			t.Fatalf("server exited before answering PING at %s: %v\n%s", address, s.exitErr, s.out.Tail(8<<10))
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			t.Fatalf("no PONG at %s within %v\n%s", address, startTimeout, s.out.Tail(8<<10))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(s.cleanup)
	return s
}

func withoutEnv(name string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, name+"=") {
			env = append(env, kv)
		}
	}
	return env
}

// pingAt reports whether a new connection to address answers PING with PONG.
func pingAt(network, address string) bool {
	c, err := net.DialTimeout(network, address, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && line == "+PONG\r\n"
}

// refuses reports whether a connection to address is refused (nothing listens there).
func refuses(network, address string) bool {
	c, err := net.DialTimeout(network, address, time.Second)
	if err == nil {
		c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// dialRaw opens a connection to network/address, closed when the test ends.
func dialRaw(t testing.TB, network, address string) *rawConn {
	t.Helper()
	c, err := net.DialTimeout(network, address, ioTimeout)
	if err != nil {
		t.Fatalf("dial %s: %v", address, err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t: t, Conn: c, r: bufio.NewReader(c)}
}

// hasIPv6Loopback reports whether this machine can listen on [::1].
func hasIPv6Loopback() bool {
	l, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// freePortT is freePort, failing the test on error.
func freePortT(t testing.TB) int {
	t.Helper()
	p, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func loopback4(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }
func loopback6(port int) string { return net.JoinHostPort("::1", strconv.Itoa(port)) }

// expectPing fails the test unless c answers PING (an existing connection stays usable).
func expectPing(t testing.TB, c *rawConn, what string) {
	t.Helper()
	if r := c.Do("PING"); r.Str != "PONG" {
		t.Errorf("%s: PING answered %s", what, formatReply(r, false))
	}
}

// TestBindIPv4Any: bind 0.0.0.0 listens on every IPv4 address and no IPv6 one (before, the
// server also listened on [::]).
func TestBindIPv4Any(t *testing.T) {
	t.Parallel()
	port := freePortT(t)
	startListening(t, "tcp", loopback4(port), "--port", strconv.Itoa(port), "--bind", "0.0.0.0")
	if !hasIPv6Loopback() {
		t.Skip("no IPv6 loopback on this machine: the IPv6 half is not tested")
	}
	if !refuses("tcp", loopback6(port)) {
		t.Errorf("bind 0.0.0.0: [::1]:%d accepts a connection; want IPv4 only", port)
	}
}

// TestBindBothFamilies: bind "0.0.0.0 ::" starts (the IPv6 socket is IPV6_V6ONLY, so the two
// do not collide) and answers on both loopbacks; "* ::*" is the same in Redis 7's words.
func TestBindBothFamilies(t *testing.T) {
	t.Parallel()
	for _, bind := range []string{"0.0.0.0 ::", "* ::*"} {
		port := freePortT(t)
		startListening(t, "tcp", loopback4(port), "--port", strconv.Itoa(port), "--bind", bind)
		if hasIPv6Loopback() && !pingAt("tcp", loopback6(port)) {
			t.Errorf("bind %q: no PONG at [::1]:%d", bind, port)
		}
	}
}

// TestBindIPv6Only: bind :: listens on IPv6 only; 127.0.0.1 is refused.
func TestBindIPv6Only(t *testing.T) {
	t.Parallel()
	if !hasIPv6Loopback() {
		t.Skip("no IPv6 loopback on this machine")
	}
	port := freePortT(t)
	startListening(t, "tcp", loopback6(port), "--port", strconv.Itoa(port), "--bind", "::")
	if !refuses("tcp", loopback4(port)) {
		t.Errorf("bind ::: 127.0.0.1:%d accepts a connection; want IPv6 only", port)
	}
}

// TestBindOptionalAddress: an address with a leading '-' that this machine does not have is
// skipped; without the '-' the server does not start.
func TestBindOptionalAddress(t *testing.T) {
	t.Parallel()
	const absent = "192.0.2.1" // TEST-NET-1: not an address of this machine
	port := freePortT(t)
	startListening(t, "tcp", loopback4(port), "--port", strconv.Itoa(port), "--bind", "-"+absent+" 127.0.0.1")
	out, err := runListening(t, "--port", strconv.Itoa(freePortT(t)), "--bind", absent+" 127.0.0.1")
	if exitCode(err) != 1 {
		t.Errorf("bind %s (not optional): exit %v, want status 1\n%s", absent, err, out)
	}
}

// TestUnixSocket: port 0 and a Unix socket: no TCP listener at all, redis-cli -s works, the
// socket has unixsocketperm's mode, CLIENT LIST names the client as Redis does, the client is
// local (enable-protected-configs local, enable-debug-command local, protected mode lets it
// in), and the socket file is gone after SIGTERM.
func TestUnixSocket(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "kv.sock")
	// A stale socket file from an earlier run is replaced.
	if stale, err := net.Listen("unix", path); err == nil {
		stale.(*net.UnixListener).SetUnlinkOnClose(false)
		stale.Close()
	}
	srv := startListening(t, "unix", path, "--port", "0", "--unixsocket", path, "--unixsocketperm", "640",
		"--protected-mode", "yes", "--enable-protected-configs", "local", "--enable-debug-command", "local")

	if n := tcpListenersOf(t, srv.Pid()); n != 0 {
		t.Errorf("port 0: the server has %d TCP listening sockets, want none", n)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o640 {
		t.Errorf("socket file mode %v, want a socket with 0640", fi.Mode())
	}
	out, err := exec.Command("redis-cli", "-s", path, "PING").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "PONG" {
		t.Errorf("redis-cli -s %s PING: %q, %v", path, out, err)
	}

	c := dialRaw(t, "unix", path)
	for _, sub := range []string{"LIST", "INFO"} {
		line := strings.TrimSpace(c.Do("CLIENT", sub).Str)
		fields := map[string]string{}
		for _, f := range strings.Fields(line) {
			if k, v, ok := strings.Cut(f, "="); ok {
				fields[k] = v
			}
		}
		want := path + ":0"
		if fields["addr"] != want || fields["laddr"] != want || fields["flags"] != "U" {
			t.Errorf("CLIENT %s: addr=%s laddr=%s flags=%s, want addr=%s laddr=%s flags=U", sub, fields["addr"], fields["laddr"], fields["flags"], want, want)
		}
	}
	if got := configGet(t, c, "port"); got != "0" {
		t.Errorf("CONFIG GET port: %s, want 0", got)
	}
	// Local only: a protected config and DEBUG are allowed over the Unix socket.
	if r := c.Do("CONFIG", "SET", "dir", t.TempDir()); r.Str != "OK" {
		t.Errorf("CONFIG SET dir over the Unix socket with enable-protected-configs local: %s", formatReply(r, false))
	}
	if r := c.Do("DEBUG", "SLEEP", "0"); r.Str != "OK" {
		t.Errorf("DEBUG SLEEP 0 over the Unix socket with enable-debug-command local: %s", formatReply(r, false))
	}

	if err := srv.Stop(stopTimeout); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket file is still there after SIGTERM: %v", err)
	}
}

// tcpListenersOf counts the TCP sockets in LISTEN state that process pid holds (from /proc).
func tcpListenersOf(t *testing.T, pid int) int {
	t.Helper()
	fdDir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(fdDir)
	if err != nil {
		t.Skipf("cannot list the server's descriptors: %v", err)
	}
	inodes := map[string]bool{}
	for _, e := range ents {
		link, err := os.Readlink(filepath.Join(fdDir, e.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	n := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
			if len(f) > 9 && f[3] == "0A" && inodes[f[9]] {
				n++
			}
		}
	}
	return n
}

// runListening runs the server with the base arguments and args, expecting it to exit, and
// returns its output and exit status.
func runListening(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(serverBin, append(listenArgs(t), args...)...)
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

// exitCode is the exit status in err (0 for nil, -1 if not an exit).
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// TestPortZeroNowhere: port 0 and no Unix socket is listening nowhere: the server says so and
// exits with status 1.
func TestPortZeroNowhere(t *testing.T) {
	t.Parallel()
	out, err := runListening(t, "--port", "0")
	if exitCode(err) != 1 {
		t.Errorf("port 0 without unixsocket: exit %v, want status 1", err)
	}
	if !strings.Contains(out, "Configured to not listen anywhere, exiting.") {
		t.Errorf("port 0 without unixsocket: output lacks Redis's message:\n%s", out)
	}
}

// TestPortConfigSet: CONFIG SET port moves the listener: the new port answers, the old one
// refuses, and a connection made before stays usable. port 0 closes the TCP listener.
func TestPortConfigSet(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	newPort := freePortT(t)
	if r := c.Do("CONFIG", "SET", "port", strconv.Itoa(newPort)); r.Str != "OK" {
		t.Fatalf("CONFIG SET port %d: %s", newPort, formatReply(r, false))
	}
	if !pingAt("tcp", loopback4(newPort)) {
		t.Errorf("no PONG at the new port %d", newPort)
	}
	if !refuses("tcp", srv.Addr) {
		t.Errorf("the old port %d still accepts connections", srv.Port)
	}
	expectPing(t, c, "the connection made before CONFIG SET port")
	if got := configGet(t, c, "port"); got != strconv.Itoa(newPort) {
		t.Errorf("CONFIG GET port: %s, want %d", got, newPort)
	}

	if r := c.Do("CONFIG", "SET", "port", "0"); r.Str != "OK" {
		t.Fatalf("CONFIG SET port 0: %s", formatReply(r, false))
	}
	if !refuses("tcp", loopback4(newPort)) {
		t.Errorf("port 0: %d still accepts connections", newPort)
	}
	expectPing(t, c, "the connection made before CONFIG SET port 0")
}

// TestPortConfigSetInUse: CONFIG SET port to a port taken by someone else fails with Redis's
// error, and nothing changes: CONFIG GET port shows the old port, which still answers.
func TestPortConfigSetInUse(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	busy := taken.Addr().(*net.TCPAddr).Port
	c := srv.RawConn(t)
	r := c.Do("CONFIG", "SET", "port", strconv.Itoa(busy))
	const want = "ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port. Check server logs."
	if r.Kind != '-' || r.Str != want {
		t.Errorf("CONFIG SET port %d (in use): %s, want -%s", busy, formatReply(r, false), want)
	}
	if got := configGet(t, c, "port"); got != strconv.Itoa(srv.Port) {
		t.Errorf("CONFIG GET port after the failure: %s, want %d (rolled back)", got, srv.Port)
	}
	if !pingAt("tcp", srv.Addr) {
		t.Errorf("the old port %d no longer answers after the failed CONFIG SET", srv.Port)
	}
	expectPing(t, c, "the connection that sent the failed CONFIG SET")
}

// TestBindConfigSet: CONFIG SET bind listens on the new addresses at the same port, an address
// that cannot be bound fails with Redis's error and changes nothing, an optional one is
// skipped, and 127.0.0.1 → 0.0.0.0 at the same port works.
func TestBindConfigSet(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	v6 := hasIPv6Loopback()

	if v6 {
		if r := c.Do("CONFIG", "SET", "bind", "127.0.0.1 ::1"); r.Str != "OK" {
			t.Fatalf("CONFIG SET bind \"127.0.0.1 ::1\": %s", formatReply(r, false))
		}
		if !pingAt("tcp", loopback6(srv.Port)) || !pingAt("tcp", srv.Addr) {
			t.Errorf("bind \"127.0.0.1 ::1\": both loopbacks should answer")
		}
		if r := c.Do("CONFIG", "SET", "bind", "::1"); r.Str != "OK" {
			t.Fatalf("CONFIG SET bind ::1: %s", formatReply(r, false))
		}
		if !refuses("tcp", srv.Addr) || !pingAt("tcp", loopback6(srv.Port)) {
			t.Errorf("bind ::1: want [::1] only")
		}
		expectPing(t, c, "the connection made over 127.0.0.1 before bind ::1")
		if r := c.Do("CONFIG", "SET", "bind", "127.0.0.1"); r.Str != "OK" {
			t.Fatalf("CONFIG SET bind 127.0.0.1: %s", formatReply(r, false))
		}
		if !refuses("tcp", loopback6(srv.Port)) || !pingAt("tcp", srv.Addr) {
			t.Errorf("bind 127.0.0.1 again: want 127.0.0.1 only")
		}
	}

	const absent = "192.0.2.1" // TEST-NET-1: not an address of this machine
	r := c.Do("CONFIG", "SET", "bind", "127.0.0.1 "+absent)
	const want = "ERR CONFIG SET failed (possibly related to argument 'bind') - Failed to bind to specified addresses."
	if r.Kind != '-' || r.Str != want {
		t.Errorf("CONFIG SET bind with %s: %s, want -%s", absent, formatReply(r, false), want)
	}
	if got := configGet(t, c, "bind"); got != "127.0.0.1" {
		t.Errorf("CONFIG GET bind after the failure: %q, want 127.0.0.1 (rolled back)", got)
	}
	if !pingAt("tcp", srv.Addr) {
		t.Errorf("127.0.0.1:%d no longer answers after the failed CONFIG SET bind", srv.Port)
	}

	if r := c.Do("CONFIG", "SET", "bind", "-"+absent+" 127.0.0.1"); r.Str != "OK" {
		t.Errorf("CONFIG SET bind with an optional absent address: %s", formatReply(r, false))
	}
	if !pingAt("tcp", srv.Addr) {
		t.Errorf("127.0.0.1:%d does not answer after bind \"-%s 127.0.0.1\"", srv.Port, absent)
	}

	// The same port on the any address: 127.0.0.1's listener is in the way until it closes.
	if r := c.Do("CONFIG", "SET", "bind", "0.0.0.0"); r.Str != "OK" {
		t.Fatalf("CONFIG SET bind 0.0.0.0: %s", formatReply(r, false))
	}
	if !pingAt("tcp", srv.Addr) {
		t.Errorf("bind 0.0.0.0: no PONG at 127.0.0.1:%d", srv.Port)
	}
	if v6 && !refuses("tcp", loopback6(srv.Port)) {
		t.Errorf("bind 0.0.0.0: [::1] accepts a connection; want IPv4 only")
	}
	expectPing(t, c, "the connection made before the CONFIG SET bind commands")
}
