package tests

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Where the servers under test come from; set once by TestMain.
var (
	// targetRedis is true when KVSERVER_TARGET=redis: the tests run against redis-server.
	targetRedis bool
	// serverBin is the executable started by startServer.
	serverBin string
)

const (
	startTimeout = 10 * time.Second // from exec to the first PONG
	stopTimeout  = 10 * time.Second // from SIGTERM to exit
	ioTimeout    = 10 * time.Second // any single read or write of a test connection
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	switch target := os.Getenv("KVSERVER_TARGET"); target {
	case "", "kvserver":
		if bin := os.Getenv("KVSERVER_BIN"); bin != "" {
			serverBin = bin
			break
		}
		dir, err := os.MkdirTemp("", "kvserver-tests-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "tests:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		serverBin = filepath.Join(dir, "kvserver")
		if err := buildServer(serverBin); err != nil {
			fmt.Fprintln(os.Stderr, "tests: building kvserver:", err)
			return 1
		}
	case "redis":
		targetRedis = true
		bin, err := exec.LookPath("redis-server")
		if err != nil {
			fmt.Fprintln(os.Stderr, "tests: KVSERVER_TARGET=redis needs redis-server on the PATH:", err)
			return 1
		}
		serverBin = bin
	default:
		fmt.Fprintf(os.Stderr, "tests: KVSERVER_TARGET=%q: want kvserver (the default) or redis\n", target)
		return 1
	}
	return m.Run()
}

// buildServer builds ./cmd/kvserver of the repository holding this file into out, with the
// extra go build flags of env KVSERVER_BUILD_FLAGS (e.g. "-race").
func buildServer(out string) error {
	return buildServerWith(out, os.Getenv("KVSERVER_BUILD_FLAGS"))
}

// buildServerWith builds ./cmd/kvserver into out with the given go build flags.
func buildServerWith(out, flags string) error {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return errors.New("cannot locate the test source file")
	}
	root := filepath.Dir(filepath.Dir(file))
	// The go command that runs the tests is on the PATH (go test puts its own GOROOT/bin first).
	goBin := "go"
	args := append([]string{"build"}, strings.Fields(flags)...)
	cmd := exec.Command(goBin, append(args, "-o", out, "./cmd/kvserver")...)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, b)
	}
	return nil
}

// raceBuilt reports whether the server under test is built with the race detector
// (KVSERVER_BUILD_FLAGS=-race): slower, and its arenas live in the Go heap.
func raceBuilt() bool { return strings.Contains(os.Getenv("KVSERVER_BUILD_FLAGS"), "race") }

// requireKvserver skips a test of behaviour that only kvserver has.
func requireKvserver(t testing.TB, why string) {
	t.Helper()
	if targetRedis {
		t.Skip("kvserver-only: " + why)
	}
}

// server is one server process on a loopback port, stopped when its test ends.
type server struct {
	Port int
	Addr string // 127.0.0.1:Port

	t    testing.TB
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{} // closed when the process has exited
	// exitErr is cmd.Wait's result: valid once done is closed.
	exitErr error
	// stopping is set before the test signals the process itself, so that an exit is expected.
	mu       sync.Mutex
	stopping bool
}

// startServer starts a server on a free loopback port with the harness's base arguments and
// then extraArgs (redis-server style: "--maxclients", "2"), and waits until it answers PING.
func startServer(t testing.TB, extraArgs ...string) *server {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		s, err := tryStartServer(t, extraArgs)
		if err == nil {
			return s
		}
		lastErr = err
		// A port picked as free may be taken before the server binds it: try another.
		if !strings.Contains(strings.ToLower(err.Error()), "address already in use") {
			break
		}
	}
	t.Fatalf("starting %s: %v", filepath.Base(serverBin), lastErr)
	return nil
}

func tryStartServer(t testing.TB, extraArgs []string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	// DEBUG is refused by default (Redis 7's enable-debug-command no): the suite uses it.
	args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir(), "--enable-debug-command", "yes"}
	args = append(args, extraArgs...)
	s := &server{
		Port: port,
		Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		t:    t,
		out:  &syncBuffer{},
		done: make(chan struct{}),
	}
	s.cmd = exec.Command(serverBin, args...)
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(); err != nil {
		s.kill()
		return nil, fmt.Errorf("%v\nserver output:\n%s", err, s.out.Tail(8<<10))
	}
	t.Cleanup(s.cleanup)
	return s, nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls until PING answers +PONG, the process exits, or startTimeout passes. The
// server that answers must be this one: freePort's port can be handed to two tests at once,
// and a server started slowly would otherwise find another test's server already answering
// there, both tests then sharing one keyspace. errPortTaken makes startServer try another port.
func (s *server) waitReady() error {
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case <-s.done:
			return fmt.Errorf("server exited before answering PING: %v", s.exitErr)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no PONG within %v", startTimeout)
		}
		c, err := net.DialTimeout("tcp", s.Addr, time.Second)
		if err == nil {
			c.SetDeadline(time.Now().Add(2 * time.Second))
			pid, err := pingAndPID(c)
			c.Close()
			if err == nil {
				if !s.isOurs(pid) {
					return fmt.Errorf("%w: process %d answers on %s, not %d", errPortTaken, pid, s.Addr, s.cmd.Process.Pid)
				}
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// errPortTaken says another process answered on the port picked for a new server. Its text
// holds "address already in use", which startServer retries on.
var errPortTaken = errors.New("address already in use")

// pingAndPID sends PING and INFO server on c and returns INFO's process_id once PING has
// answered +PONG.
func pingAndPID(c net.Conn) (int, error) {
	if _, err := c.Write([]byte("PING\r\nINFO server\r\n")); err != nil {
		return 0, err
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, err
	}
	if line != "+PONG\r\n" {
		return 0, fmt.Errorf("PING answered %q", line)
	}
	head, err := r.ReadString('\n')
	if err != nil {
		return 0, err
	}
	if !strings.HasPrefix(head, "$") {
		return 0, fmt.Errorf("INFO answered %q", head)
	}
	n, err := strconv.Atoi(strings.TrimSpace(head[1:]))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("INFO answered %q", head)
	}
	body := make([]byte, n+2)
	if _, err := io.ReadFull(r, body); err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(body), "\r\n") {
		if v, ok := strings.CutPrefix(l, "process_id:"); ok {
			return strconv.Atoi(v)
		}
	}
	return 0, errors.New("INFO server has no process_id")
}

// isOurs reports whether pid is the server this harness started: its process, or a child of
// it when the command line starts the binary through a wrapper that forks.
func (s *server) isOurs(pid int) bool {
	own := s.cmd.Process.Pid
	if pid == own {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// /proc/<pid>/stat: pid (comm) state ppid ...; comm may hold spaces, so read after ')'.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 1 && fields[1] == strconv.Itoa(own)
}

// cleanup stops the server (SIGTERM, then SIGKILL) and prints its output if the test failed.
func (s *server) cleanup() {
	t := s.t
	s.mu.Lock()
	stopping := s.stopping
	s.stopping = true
	s.mu.Unlock()
	select {
	case <-s.done:
		if !stopping {
			t.Errorf("server exited during the test: %v", s.exitErr)
		}
	default:
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
			if s.exitErr != nil {
				t.Errorf("server exit after SIGTERM: %v, want status 0", s.exitErr)
			}
		case <-time.After(stopTimeout):
			t.Errorf("server still running %v after SIGTERM; killed", stopTimeout)
			s.kill()
		}
	}
	// A server built with -race reports races on stderr; a panic in a client goroutine
	// may be recovered and logged rather than kill the process.
	for _, bad := range []string{"WARNING: DATA RACE", "panic:"} {
		if strings.Contains(s.out.String(), bad) {
			t.Errorf("server output contains %q", bad)
		}
	}
	if t.Failed() {
		t.Logf("server output (%s, port %d):\n%s", filepath.Base(serverBin), s.Port, s.out.Tail(32<<10))
	}
}

func (s *server) kill() {
	s.cmd.Process.Kill()
	<-s.done
}

// Stop sends SIGTERM and waits up to timeout for the process to exit, returning its exit
// status (nil for exit 0).
func (s *server) Stop(timeout time.Duration) error {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-s.done:
		return s.exitErr
	case <-time.After(timeout):
		return fmt.Errorf("still running %v after SIGTERM", timeout)
	}
}

// Pid is the server's process id.
func (s *server) Pid() int { return s.cmd.Process.Pid }

// Output is what the server has written to stdout and stderr so far.
func (s *server) Output() string { return s.out.String() }

// clientOption adjusts the go-redis options of srv.Client.
type clientOption func(*redis.Options)

// withProtocol makes a go-redis client speak RESP2 (2) or RESP3 (3).
func withProtocol(p int) clientOption { return func(o *redis.Options) { o.Protocol = p } }

// Client returns a go-redis client of the server, RESP2 unless an option says otherwise,
// without retries (a retry could hide a dropped connection), closed when the test ends.
func (s *server) Client(t testing.TB, opts ...clientOption) *redis.Client {
	o := &redis.Options{
		Addr:            s.Addr,
		Protocol:        2,
		DisableIdentity: true,
		MaxRetries:      -1,
		DialTimeout:     ioTimeout,
		ReadTimeout:     ioTimeout,
		WriteTimeout:    ioTimeout,
	}
	for _, opt := range opts {
		opt(o)
	}
	c := redis.NewClient(o)
	t.Cleanup(func() { c.Close() })
	return c
}

// RawConn opens a plain TCP connection to the server, closed when the test ends.
func (s *server) RawConn(t testing.TB) *rawConn {
	t.Helper()
	c, err := net.DialTimeout("tcp", s.Addr, ioTimeout)
	if err != nil {
		t.Fatalf("dial %s: %v", s.Addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t: t, Conn: c, r: bufio.NewReader(c)}
}

// CLI runs `redis-cli -p PORT args...` and returns its standard output.
func (s *server) CLI(t testing.TB, args ...string) string {
	t.Helper()
	return s.CLIInput(t, nil, args...)
}

// CLIInput runs `redis-cli -p PORT args...` with stdin as its standard input and returns its
// standard output; a non-zero exit fails the test.
func (s *server) CLIInput(t testing.TB, stdin io.Reader, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "redis-cli", append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(s.Port)}, args...)...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("redis-cli %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	if stderr.Len() > 0 {
		t.Logf("redis-cli %s: stderr: %s", strings.Join(args, " "), stderr.String())
	}
	return stdout.String()
}

// Info returns the fields of `INFO section` as a map.
func (s *server) Info(t testing.TB, section string) map[string]string {
	t.Helper()
	c := s.RawConn(t)
	r := c.Do("INFO", section)
	c.Close()
	if r.Kind != '$' && r.Kind != '=' {
		t.Fatalf("INFO %s: got %s", section, formatReply(r, false))
	}
	fields := map[string]string{}
	for _, line := range strings.Split(r.Str, "\r\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "#") {
			fields[k] = v
		}
	}
	return fields
}

// rawConn is a TCP connection to the server with helpers to write bytes and read replies.
// Every read and write has a deadline of ioTimeout unless said otherwise.
type rawConn struct {
	net.Conn
	t testing.TB
	r *bufio.Reader
}

// Send writes b completely.
func (c *rawConn) Send(b []byte) {
	c.t.Helper()
	c.SetWriteDeadline(time.Now().Add(ioTimeout))
	if _, err := c.Write(b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// SendString writes s completely.
func (c *rawConn) SendString(s string) { c.t.Helper(); c.Send([]byte(s)) }

// Do sends args as a multibulk command and reads its reply.
func (c *rawConn) Do(args ...string) *Reply {
	c.t.Helper()
	c.Send(encodeCommand(args...))
	return c.ReadReply()
}

// ReadReply reads one complete reply.
func (c *rawConn) ReadReply() *Reply {
	c.t.Helper()
	r, err := c.TryReadReply(ioTimeout)
	if err != nil {
		c.t.Fatalf("reading a reply: %v", err)
	}
	return r
}

// TryReadReply reads one complete reply within timeout.
func (c *rawConn) TryReadReply(timeout time.Duration) (*Reply, error) {
	c.SetReadDeadline(time.Now().Add(timeout))
	return readReply(c.r)
}

// ReadN reads exactly n bytes.
func (c *rawConn) ReadN(n int) []byte {
	c.t.Helper()
	c.SetReadDeadline(time.Now().Add(ioTimeout))
	b := make([]byte, n)
	if _, err := io.ReadFull(c.r, b); err != nil {
		c.t.Fatalf("reading %d bytes: %v (got %q)", n, err, b)
	}
	return b
}

// ReadUntilClose reads until the server closes the connection and returns every byte read.
// It fails the test if the connection is still open after ioTimeout. A reset after the
// data counts as closed.
func (c *rawConn) ReadUntilClose() []byte {
	c.t.Helper()
	c.SetReadDeadline(time.Now().Add(ioTimeout))
	b, err := io.ReadAll(c.r)
	switch {
	case err == nil, errors.Is(err, syscall.ECONNRESET):
		return b
	case errors.Is(err, os.ErrDeadlineExceeded):
		c.t.Fatalf("connection still open after %v; read %q", ioTimeout, b)
	default:
		c.t.Fatalf("reading until close: %v; read %q", err, b)
	}
	return nil
}

// ExpectNothing asserts that no byte arrives within wait.
func (c *rawConn) ExpectNothing(wait time.Duration) {
	c.t.Helper()
	c.SetReadDeadline(time.Now().Add(wait))
	b, err := c.r.Peek(1)
	if err == nil {
		c.t.Fatalf("unexpected bytes from the server: %q", b)
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		c.t.Fatalf("connection failed while waiting: %v", err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes (the process) and reads (the test).
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Tail returns the last n bytes written.
func (b *syncBuffer) Tail(n int) string {
	s := b.String()
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestHarnessRefusesAnotherServer: a server started on a port another test's server already
// answers on is not taken for ready (the two tests would share one keyspace); startServer
// retries on another port.
func TestHarnessRefusesAnotherServer(t *testing.T) {
	other := startServer(t)
	s := &server{Port: other.Port, Addr: other.Addr, t: t, out: &syncBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command("sleep", "30") // stands for a server that has not bound its port yet
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		close(s.done)
	}()
	defer s.kill()
	err := s.waitReady()
	if !errors.Is(err, errPortTaken) {
		t.Fatalf("waitReady with another server on the port: %v, want errPortTaken", err)
	}
}
