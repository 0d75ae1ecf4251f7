package tests

import (
	"context"
	"strings"
	"testing"
	"time"
)

// client-output-buffer-limit's normal class (issue 17): a client whose replies wait unread past
// the hard limit is closed and counted in client_output_buffer_limit_disconnections; without a
// limit (Redis's default for normal clients) it keeps its connection and every reply.
func TestOutputBufferLimit(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	const size = 32 << 20 // more than the kernel's socket buffers take
	if err := c.Set(ctx, "big", strings.Repeat("v", size), 0).Err(); err != nil {
		t.Fatal(err)
	}
	// client_output_buffer_limit_disconnections is Redis 7.4's (and Valkey 8's): redis-server
	// 7.0 has none, and there only the closed connections tell.
	disconnections := func() int64 {
		if targetRedis {
			return 0
		}
		return infoInt(t, s, "stats", "client_output_buffer_limit_disconnections")
	}
	before := disconnections()

	// No limit: two GETs of 32 MB wait unread, and then all of both arrive.
	patient := s.RawConn(t)
	patient.SendString("GET big\r\nGET big\r\n")
	time.Sleep(500 * time.Millisecond)
	if n := disconnections(); n != before {
		t.Fatalf("a client closed without a limit: disconnections %d -> %d", before, n)
	}
	reply := size + len("$33554432\r\n\r\n")
	if got := len(patient.ReadN(2 * reply)); got != 2*reply {
		t.Fatalf("read %d bytes of two replies", got)
	}

	// A hard limit of 4 MB: the client is closed without all of its replies.
	if err := c.ConfigSet(ctx, "client-output-buffer-limit", "normal 4mb 0 0").Err(); err != nil {
		t.Fatal(err)
	}
	greedy := s.RawConn(t)
	greedy.SendString("GET big\r\nGET big\r\nGET big\r\n")
	if !targetRedis {
		deadline := time.Now().Add(10 * time.Second)
		for disconnections() == before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := disconnections(); n != before+1 {
			t.Fatalf("client_output_buffer_limit_disconnections %d, want %d", n, before+1)
		}
	}
	if got := len(greedy.ReadUntilClose()); got >= 3*size {
		t.Fatalf("the closed client got %d bytes: all its replies", got)
	}

	// A soft limit of 4 MB for 1 s (kvserver: replies waiting over it are timed even when no
	// more are added).
	if targetRedis {
		return
	}
	c.ConfigSet(ctx, "client-output-buffer-limit", "normal 0 4mb 1")
	slow := s.RawConn(t)
	slow.SendString("GET big\r\n")
	deadline := time.Now().Add(10 * time.Second)
	for disconnections() == before+1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := disconnections(); n != before+2 {
		t.Fatalf("soft limit: client_output_buffer_limit_disconnections %d, want %d", n, before+2)
	}
	if got := len(slow.ReadUntilClose()); got >= size {
		t.Fatalf("the client over the soft limit got all of its reply: %d bytes", got)
	}
}
