package server

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"
)

// TestHandleTimeout drives the cron's idle-timeout check on one parked socket client by hand
// (the cron itself paused): nothing happens with timeout 0, within the timeout, or while the
// client is being served; past the timeout a parked client is closed as CLIENT KILL closes one.
func TestHandleTimeout(t *testing.T) {
	s, rdb := startInProcess(t)
	if err := rdb.Do(t.Context(), "DEBUG", "PAUSE-CRON", "1").Err(); err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", s.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	if _, err := conn.Write([]byte("CLIENT ID\r\n")); err != nil {
		t.Fatal(err)
	}
	if line, err := r.ReadString('\n'); err != nil || line[0] != ':' {
		t.Fatalf("CLIENT ID: %q, %v", line, err)
	}
	var c *client
	for _, o := range s.clientsSnapshot() {
		if o.getName() == "" && o.lastCmd.Load() != nil && o.lastCmd.Load().FullName == "client|id" {
			c = o
		}
	}
	if c == nil {
		t.Fatal("client not found")
	}
	for c.state.Load() != clientParked { // the loop parks it after the reply
		time.Sleep(time.Millisecond)
	}
	last := c.lastInteraction.Load()
	present := func() bool {
		for _, o := range s.clientsSnapshot() {
			if o == c {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		name           string
		now, maxIdleMs int64
	}{
		{"timeout 0", last + 3_600_000, 0},
		{"within the timeout", last + 1000, 1000},
	} {
		if c.handleTimeout(tc.now, tc.maxIdleMs) || !present() {
			t.Fatalf("%s: client closed", tc.name)
		}
	}
	// Being served: busy, skipped.
	c.state.Store(clientActive)
	if c.handleTimeout(last+1001, 1000) || !present() {
		t.Fatal("a busy client was closed")
	}
	c.state.Store(clientParked)
	if !c.handleTimeout(last+1001, 1000) {
		t.Fatal("an idle parked client was not closed")
	}
	if present() || c.state.Load() != clientClosed {
		t.Fatal("closed client still registered")
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if b, err := io.ReadAll(r); err != nil || len(b) != 0 {
		t.Fatalf("after the timeout: read %q, %v; want EOF", b, err)
	}
}
