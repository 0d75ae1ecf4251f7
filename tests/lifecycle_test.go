package tests

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestMaxClients: with --maxclients 2 a third connection is told so and closed; a slot freed
// by a closing client is reused.
func TestMaxClients(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--maxclients", "2")
	// The readiness probe's connection may still count for a moment: retry until two
	// clients are served.
	var first, second *rawConn
	deadline := time.Now().Add(ioTimeout)
	for {
		first, second = srv.RawConn(t), srv.RawConn(t)
		if pingOK(first) && pingOK(second) {
			break
		}
		first.Close()
		second.Close()
		if time.Now().After(deadline) {
			t.Fatalf("two clients are not served with --maxclients 2")
		}
		time.Sleep(20 * time.Millisecond)
	}
	third := srv.RawConn(t)
	if got, want := string(third.ReadUntilClose()), "-ERR max number of clients reached\r\n"; got != want {
		t.Fatalf("third client: got %q, want %q", got, want)
	}
	// The two clients are unaffected.
	for i, c := range []*rawConn{first, second} {
		if r := c.Do("ECHO", "still here"); r.Str != "still here" {
			t.Errorf("client %d after the refusal: %s", i+1, formatReply(r, false))
		}
	}
	// Closing a client frees its slot.
	first.Close()
	deadline = time.Now().Add(ioTimeout)
	for {
		c := srv.RawConn(t)
		if pingOK(c) {
			if r := c.Do("INFO", "stats"); !strings.Contains(r.Str, "\r\nrejected_connections:") || strings.Contains(r.Str, "\r\nrejected_connections:0\r\n") {
				t.Errorf("INFO stats after a refusal: rejected_connections missing or 0")
			}
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("no slot freed %v after a client closed", ioTimeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pingOK says whether PING on c answers PONG (false when the server refused or closed it).
func pingOK(c *rawConn) bool {
	c.SetWriteDeadline(time.Now().Add(ioTimeout))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	r, err := c.TryReadReply(ioTimeout)
	return err == nil && r.Kind == '+' && r.Str == "PONG"
}

// TestSIGTERM: the server exits 0 soon after SIGTERM, closing its clients — idle ones, one
// in the middle of a command, and one in RESP3 — and no longer accepts connections.
func TestSIGTERM(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	idle := srv.RawConn(t)
	if !pingOK(idle) {
		t.Fatal("PING failed")
	}
	partial := srv.RawConn(t)
	partial.SendString("*3\r\n$3\r\nSET\r\n$1\r\nk")
	resp3 := srv.RawConn(t)
	if r := resp3.Do("HELLO", "3"); r.Kind != '%' {
		t.Fatalf("HELLO 3: %s", formatReply(r, false))
	}
	rc := srv.Client(t)
	if err := rc.Ping(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}

	if err := srv.Stop(stopTimeout); err != nil {
		t.Fatalf("after SIGTERM: %v (want exit status 0)", err)
	}
	for name, c := range map[string]*rawConn{"idle": idle, "partial": partial, "resp3": resp3} {
		if b := c.ReadUntilClose(); len(b) != 0 {
			t.Errorf("%s client got %q before the close", name, b)
		}
	}
	if c, err := net.DialTimeout("tcp", srv.Addr, time.Second); err == nil {
		c.Close()
		t.Errorf("a connection was accepted after the server exited")
	}
}

// TestShutdownCommand: SHUTDOWN (NOSAVE) stops the server with exit status 0.
func TestShutdownCommand(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	srv.mu.Lock()
	srv.stopping = true // the exit is expected
	srv.mu.Unlock()
	c := srv.RawConn(t)
	c.SendString("SHUTDOWN NOSAVE\r\n")
	if b := c.ReadUntilClose(); len(b) != 0 {
		t.Errorf("SHUTDOWN answered %q; want the connection closed without a reply", b)
	}
	select {
	case <-srv.done:
		if srv.exitErr != nil {
			t.Errorf("exit after SHUTDOWN: %v, want status 0", srv.exitErr)
		}
	case <-time.After(stopTimeout):
		t.Errorf("still running %v after SHUTDOWN", stopTimeout)
	}
}
