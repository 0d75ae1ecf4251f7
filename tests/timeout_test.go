package tests

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// The idle timeout (`timeout N`): a client that sends nothing for more than N seconds is
// closed by the clients cron, which sees every client about once a second. Redis counts whole
// seconds (a client idle 1 s is closed after between 1 and 3 s with timeout 1), kvserver
// milliseconds; both fall within these bounds.
const (
	idleTimeout    = 1 * time.Second
	idleCloseBound = 4 * time.Second // closed by then at the latest
)

// waitClosed reads from c until the server closes it, at most bound after since, and returns
// when that happened (measured from since) and what the server sent. It fails the test if the
// connection is still open then.
func waitClosed(t *testing.T, c *rawConn, since time.Time, bound time.Duration) (time.Duration, []byte) {
	t.Helper()
	c.SetReadDeadline(since.Add(bound))
	b, err := io.ReadAll(c.r)
	elapsed := time.Since(since)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("still connected %v after the last request (timeout %v); read %q", elapsed.Round(time.Millisecond), idleTimeout, b)
	}
	return elapsed, b // EOF, or a reset: closed either way
}

// TestIdleTimeoutClosesIdleClient: an idle client is closed after more than the timeout and
// within the bound, without a reply.
func TestIdleTimeoutClosesIdleClient(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--timeout", "1")
	c := srv.RawConn(t)
	if !pingOK(c) {
		t.Fatal("PING failed")
	}
	last := time.Now()
	elapsed, b := waitClosed(t, c, last, idleCloseBound)
	if elapsed < idleTimeout {
		t.Errorf("closed after %v idle, before the timeout of %v", elapsed, idleTimeout)
	}
	if len(b) != 0 {
		t.Errorf("server sent %q before closing", b)
	}
}

// TestIdleTimeoutHalfCommand: a client that stopped in the middle of a command is idle too.
func TestIdleTimeoutHalfCommand(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--timeout", "1")
	for _, half := range []string{"*2\r\n$3\r\nGET\r\n$5\r\nab", "GET k"} {
		c := srv.RawConn(t)
		c.SendString(half)
		last := time.Now()
		elapsed, b := waitClosed(t, c, last, idleCloseBound)
		if elapsed < idleTimeout {
			t.Errorf("%q: closed after %v, before the timeout", half, elapsed)
		}
		if len(b) != 0 {
			t.Errorf("%q: server sent %q before closing", half, b)
		}
	}
}

// TestIdleTimeoutActiveClientStays: a client sending a PING every 300 ms is never idle long
// enough, over three times the timeout.
func TestIdleTimeoutActiveClientStays(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--timeout", "1")
	c := srv.RawConn(t)
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
		if !pingOK(c) {
			t.Fatal("an active client was closed")
		}
	}
	if !pingOK(c) {
		t.Fatal("an active client was closed")
	}
}

// TestIdleTimeoutConfigSet: with timeout 0 (the default) an idle client stays; CONFIG SET
// timeout 1 applies at once, closing the clients idle longer, and CONFIG SET timeout 0 stops it.
func TestIdleTimeoutConfigSet(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	idle := srv.RawConn(t)
	if !pingOK(idle) {
		t.Fatal("PING failed")
	}
	last := time.Now()
	time.Sleep(2500 * time.Millisecond)
	if !pingOK(idle) {
		t.Fatalf("closed after %v idle with timeout 0", time.Since(last))
	}
	last = time.Now()

	admin := srv.RawConn(t)
	if r := admin.Do("CONFIG", "SET", "timeout", "1"); r.Str != "OK" {
		t.Fatalf("CONFIG SET timeout 1: %s", formatReply(r, false))
	}
	if r := admin.Do("CONFIG", "GET", "timeout"); formatReply(r, false) != "1) \"timeout\"\n2) \"1\"\n" {
		t.Errorf("CONFIG GET timeout: %s", formatReply(r, false))
	}
	elapsed, _ := waitClosed(t, idle, last, idleCloseBound)
	if elapsed < idleTimeout {
		t.Errorf("closed after %v idle, before the timeout", elapsed)
	}

	// Back to 0: a client idle well past a second stays.
	admin = srv.RawConn(t)
	if r := admin.Do("CONFIG", "SET", "timeout", "0"); r.Str != "OK" {
		t.Fatalf("CONFIG SET timeout 0: %s", formatReply(r, false))
	}
	c := srv.RawConn(t)
	if !pingOK(c) {
		t.Fatal("PING failed")
	}
	time.Sleep(2500 * time.Millisecond)
	if !pingOK(c) || !pingOK(admin) {
		t.Fatal("a client was closed with timeout 0")
	}
}
