package tests

import (
	"bufio"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// startServerWithPassword starts a server and sets requirepass (the harness's readiness
// PING could not pass a password given at start).
func startServerWithPassword(t *testing.T, pw string) *server {
	t.Helper()
	srv := startServer(t)
	if r := srv.RawConn(t).Do("CONFIG", "SET", "requirepass", pw); r.Str != "OK" {
		t.Fatalf("CONFIG SET requirepass: %s", formatReply(r, false))
	}
	return srv
}

// TestRequirePass: with requirepass set, a new connection may only QUIT, RESET, HELLO and
// AUTH until it authenticates; AUTH and HELLO AUTH check the password, and a client library
// given the password works.
func TestRequirePass(t *testing.T) {
	t.Parallel()
	srv := startServerWithPassword(t, "s3cret")
	c := srv.RawConn(t)
	for _, tc := range []struct {
		args []string
		want string // the reply, formatted
	}{
		{[]string{"GET", "k"}, "(error) NOAUTH Authentication required.\n"},
		{[]string{"PING"}, "(error) NOAUTH Authentication required.\n"},
		{[]string{"CONFIG", "GET", "requirepass"}, "(error) NOAUTH Authentication required.\n"},
		{[]string{"NOSUCH"}, "(error) ERR unknown command 'NOSUCH', with args beginning with: \n"},
		{[]string{"GET"}, "(error) ERR wrong number of arguments for 'get' command\n"},
		{[]string{"AUTH", "wrong"}, "(error) WRONGPASS invalid username-password pair or user is disabled.\n"},
		{[]string{"AUTH", "nobody", "s3cret"}, "(error) WRONGPASS invalid username-password pair or user is disabled.\n"},
		{[]string{"HELLO", "3", "AUTH", "default", "wrong"}, "(error) WRONGPASS invalid username-password pair or user is disabled.\n"},
		{[]string{"RESET"}, "RESET\n"},
		{[]string{"GET", "k"}, "(error) NOAUTH Authentication required.\n"},
		{[]string{"AUTH", "s3cret"}, "OK\n"},
		{[]string{"GET", "k"}, "(nil)\n"},
		{[]string{"RESET"}, "RESET\n"},
		{[]string{"GET", "k"}, "(error) NOAUTH Authentication required.\n"},
		{[]string{"AUTH", "default", "s3cret"}, "OK\n"},
		{[]string{"SET", "k", "v"}, "OK\n"},
	} {
		if got := formatReply(c.Do(tc.args...), false); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
	}
	// HELLO without AUTH is refused before authentication (7.2's text names <proto>).
	h := srv.RawConn(t)
	if r := h.Do("HELLO", "3"); r.Kind != '-' || !strings.HasPrefix(r.Str, "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO ") {
		t.Errorf("HELLO 3 before AUTH: %s", formatReply(r, false))
	}
	if r := h.Do("HELLO", "3", "AUTH", "default", "s3cret", "SETNAME", "me"); r.Kind != '%' {
		t.Fatalf("HELLO 3 AUTH: %s", formatReply(r, false))
	}
	if r := h.Do("CLIENT", "GETNAME"); r.Str != "me" {
		t.Errorf("name after HELLO SETNAME: %s", formatReply(r, false))
	}
	// QUIT needs no authentication.
	q := srv.RawConn(t)
	q.SendString("QUIT\r\n")
	if got := string(q.ReadUntilClose()); got != "+OK\r\n" {
		t.Errorf("QUIT before AUTH: %q", got)
	}
	// go-redis authenticates with HELLO 3 AUTH (RESP3) or AUTH (RESP2).
	for _, proto := range []int{2, 3} {
		rc := srv.Client(t, withProtocol(proto), func(o *redis.Options) { o.Password = "s3cret" })
		if v, err := rc.Get(t.Context(), "k").Result(); err != nil || v != "v" {
			t.Errorf("go-redis RESP%d with the password: %q, %v", proto, v, err)
		}
		bad := srv.Client(t, withProtocol(proto), func(o *redis.Options) { o.Password = "nope" })
		if err := bad.Ping(t.Context()).Err(); err == nil || !strings.Contains(err.Error(), "WRONGPASS") {
			t.Errorf("go-redis RESP%d with a wrong password: %v", proto, err)
		}
	}
	// Clearing the password lets everyone in; connections that never authenticated too.
	fresh := srv.RawConn(t)
	if r := fresh.Do("PING"); r.Str != "NOAUTH Authentication required." { // accepted under the password
		t.Fatalf("PING: %s", formatReply(r, false))
	}
	if r := c.Do("CONFIG", "SET", "requirepass", ""); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	if r := fresh.Do("GET", "k"); r.Str != "v" {
		t.Errorf("GET after the password was cleared: %s", formatReply(r, false))
	}
	// Setting one at run time leaves the clients connected while there was none authenticated;
	// one that connected under a password and never authenticated must again.
	before := srv.RawConn(t)
	if !pingOK(before) {
		t.Fatal("PING without a password")
	}
	if r := c.Do("CONFIG", "SET", "requirepass", "again"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	if r := before.Do("GET", "k"); r.Str != "v" {
		t.Errorf("a client connected before requirepass was set: %s", formatReply(r, false))
	}
	if r := fresh.Do("GET", "k"); r.Str != "NOAUTH Authentication required." {
		t.Errorf("a client that never authenticated: %s", formatReply(r, false))
	}
	if r := srv.RawConn(t).Do("GET", "k"); r.Str != "NOAUTH Authentication required." {
		t.Errorf("a new client after requirepass was set: %s", formatReply(r, false))
	}
}

// TestUnauthenticatedLimits: before AUTH, more than 10 arguments or an argument longer than
// 16 KiB is a protocol error (the error, then the connection closed); within those limits
// AUTH works, and after it the limits are gone.
func TestUnauthenticatedLimits(t *testing.T) {
	t.Parallel()
	srv := startServerWithPassword(t, "pw")
	for _, tc := range []struct {
		name, send, want string
	}{
		{"count", "*11\r\n", "-ERR Protocol error: unauthenticated multibulk length\r\n"},
		{"huge count", "*100000\r\n", "-ERR Protocol error: unauthenticated multibulk length\r\n"},
		{"bulk", "*2\r\n$4\r\nAUTH\r\n$16385\r\n", "-ERR Protocol error: unauthenticated bulk length\r\n"},
		{"huge bulk", "*1\r\n$100000000\r\n", "-ERR Protocol error: unauthenticated bulk length\r\n"},
		{"bad count first", "*1x\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
		{"commands before", "*1\r\n$4\r\nQUIT\r\n", "+OK\r\n"},
		{"noauth then limit", "GET k\r\n*11\r\n", "-NOAUTH Authentication required.\r\n-ERR Protocol error: unauthenticated multibulk length\r\n"},
	} {
		c := srv.RawConn(t)
		c.SendString(tc.send)
		if got := string(c.ReadUntilClose()); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// Ten arguments and 16384-byte arguments are allowed.
	c := srv.RawConn(t)
	if r := c.Do("AUTH", "pw", "a", "b", "c", "d", "e", "f", "g", "h"); r.Str != "ERR syntax error" {
		t.Errorf("AUTH with 10 arguments: %s", formatReply(r, false))
	}
	if r := c.Do("AUTH", strings.Repeat("p", 16384)); r.Kind != '-' || !strings.HasPrefix(r.Str, "WRONGPASS") {
		t.Errorf("AUTH with a 16384-byte password: %s", formatReply(r, false))
	}
	// Authenticated, the same connection may send anything.
	if r := c.Do("AUTH", "pw"); r.Str != "OK" {
		t.Fatalf("AUTH: %s", formatReply(r, false))
	}
	big := strings.Repeat("v", 100000)
	if r := c.Do("MSET", "a", big, "b", "1", "c", "1", "d", "1", "e", "1", "f", "1"); r.Str != "OK" {
		t.Fatalf("MSET after AUTH: %s", formatReply(r, false))
	}
	if r := c.Do("STRLEN", "a"); r.Int != int64(len(big)) {
		t.Errorf("STRLEN: %s", formatReply(r, false))
	}
	// Without requirepass nothing is limited.
	open := startServer(t)
	o := open.RawConn(t)
	if r := o.Do("MSET", "a", big, "b", "1", "c", "1", "d", "1", "e", "1", "f", "1"); r.Str != "OK" {
		t.Errorf("MSET without requirepass: %s", formatReply(r, false))
	}
}

// nonLoopbackIPv4 returns an IPv4 address of this machine that is not loopback, or "".
func nonLoopbackIPv4() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && ipn.IP.To4() != nil {
			return ipn.IP.String()
		}
	}
	return ""
}

// TestProtectedMode: with protected mode on and no password, a client from a non-loopback
// address gets Redis's DENIED message and is closed; loopback clients are served; turning
// protected mode off or setting a password lets the outside client in.
//
// It connects to this machine's own non-loopback address, which some sandboxes watch as
// outside traffic, so it runs only when KVSERVER_TEST_OWN_ADDRESS=1; the decision itself is
// unit-tested in server/auth_test.go.
func TestProtectedMode(t *testing.T) {
	t.Parallel()
	if os.Getenv("KVSERVER_TEST_OWN_ADDRESS") != "1" {
		t.Skip("set KVSERVER_TEST_OWN_ADDRESS=1 to test protected mode over this machine's own address")
	}
	ip := nonLoopbackIPv4()
	if ip == "" {
		t.Skip("no non-loopback IPv4 address on this machine")
	}
	srv := startServer(t, "--bind", "127.0.0.1", ip)
	outside := net.JoinHostPort(ip, strconv.Itoa(srv.Port))
	dialOutside := func() *rawConn {
		nc, err := net.DialTimeout("tcp", outside, ioTimeout)
		if err != nil {
			t.Fatalf("dial %s: %v", outside, err)
		}
		t.Cleanup(func() { nc.Close() })
		return &rawConn{t: t, Conn: nc, r: bufio.NewReader(nc)}
	}
	d := dialOutside()
	d.SendString("PING\r\n")
	got := string(d.ReadUntilClose())
	head := "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user. In this mode connections are only accepted from the loopback interface."
	tail := "NOTE: You only need to do one of the above things in order for the server to start accepting connections from the outside.\r\n"
	if !strings.HasPrefix(got, head) || !strings.HasSuffix(got, tail) || strings.Count(got, "\r\n") != 1 {
		t.Fatalf("outside client: %q", got)
	}
	if !targetRedis && !strings.Contains(got, " 4) Set up an authentication password for the default user. ") {
		t.Errorf("7.2's wording expected: %q", got)
	}
	local := srv.RawConn(t)
	if !pingOK(local) {
		t.Fatal("loopback client not served")
	}
	if r := local.Do("CONFIG", "SET", "protected-mode", "no"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	if !pingOK(dialOutside()) {
		t.Error("outside client refused with protected-mode no")
	}
	if r := local.Do("CONFIG", "SET", "protected-mode", "yes", "requirepass", "pw"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	o := dialOutside()
	if r := o.Do("PING"); r.Str != "NOAUTH Authentication required." {
		t.Errorf("outside client with a password set: %s", formatReply(r, false))
	}
	if r := o.Do("AUTH", "pw"); r.Str != "OK" || !pingOK(o) {
		t.Errorf("outside client after AUTH: %s", formatReply(r, false))
	}
}
