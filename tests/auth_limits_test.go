package tests

import (
	"bytes"
	"strings"
	"testing"
)

// TestUnauthenticatedReplyLimit: a client that must still authenticate is closed, with none
// of its pending replies written, once they pass 16 KiB — Redis's output limit for
// unauthenticated clients (more than 1024 bytes past its 16 KiB reply buffer). 256 pipelined
// `AUTH bad` (64-byte errors, 16,384 bytes) are all answered; 1,000 close the connection with
// no reply. An authenticated client has no such limit.
func TestUnauthenticatedReplyLimit(t *testing.T) {
	t.Parallel()
	srv := startServerWithPassword(t, "s3cret")
	authBad := encodeCommand("AUTH", "bad")
	wrongPass := "-WRONGPASS invalid username-password pair or user is disabled.\r\n"

	c := srv.RawConn(t)
	c.Send(bytes.Repeat(authBad, 256))
	if got := string(c.ReadN(256 * len(wrongPass))); got != strings.Repeat(wrongPass, 256) {
		t.Fatalf("256 AUTH bad: unexpected replies %q…", got[:min(len(got), 200)])
	}
	if r := c.Do("PING"); formatReply(r, false) != "(error) NOAUTH Authentication required.\n" {
		t.Errorf("PING after 256 AUTH bad: %s", formatReply(r, false))
	}

	c = srv.RawConn(t)
	c.Send(bytes.Repeat(authBad, 1000))
	if got := c.ReadUntilClose(); len(got) != 0 {
		t.Errorf("1000 AUTH bad: %d bytes before the close, want none: %q…", len(got), got[:min(len(got), 200)])
	}

	// Authenticated, the same pipeline is answered in full (a failed AUTH keeps the client
	// authenticated).
	c = srv.RawConn(t)
	if r := c.Do("AUTH", "s3cret"); r.Str != "OK" {
		t.Fatalf("AUTH: %s", formatReply(r, false))
	}
	c.Send(bytes.Repeat(authBad, 1000))
	if got := string(c.ReadN(1000 * len(wrongPass))); got != strings.Repeat(wrongPass, 1000) {
		t.Fatalf("1000 AUTH bad once authenticated: unexpected replies")
	}
	if r := c.Do("PING"); r.Str != "PONG" {
		t.Errorf("PING: %s", formatReply(r, false))
	}
	// The close is counted as Redis 7.2 counts output-limit disconnections (7.0.15 has no
	// such field).
	if info := c.Do("INFO", "stats").Str; !targetRedis && !strings.Contains(info, "client_output_buffer_limit_disconnections:1\r\n") {
		t.Errorf("INFO stats after one output-limit close:\n%s", info)
	}
}
