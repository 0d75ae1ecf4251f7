package tests

import (
	"strings"
	"testing"
	"time"
)

// maxmemory-clients (issue 17): while the clients' buffers together pass the limit, the
// client using the most memory is closed and counted in evicted_clients; a CLIENT NO-EVICT
// client is spared.
func TestClientEviction(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	admin := s.RawConn(t)
	if r := admin.Do("CONFIG", "SET", "maxmemory-clients", "1mb"); r.Str != "OK" {
		t.Fatalf("CONFIG SET maxmemory-clients 1mb: %s", formatReply(r, false))
	}
	// Half of a 3 MB SET each: 1.5 MB of query buffer apiece.
	const size = 3 << 20
	head := "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3145728\r\n"
	half := strings.Repeat("x", size/2)

	spared := s.RawConn(t)
	if r := spared.Do("CLIENT", "NO-EVICT", "on"); r.Str != "OK" {
		t.Fatalf("CLIENT NO-EVICT on: %s", formatReply(r, false))
	}
	spared.SendString(head + half)
	victim := s.RawConn(t)
	// The write itself may meet the eviction (Redis evicts as it reads): a reset is fine.
	victim.SetWriteDeadline(time.Now().Add(ioTimeout))
	victim.Conn.Write([]byte(head + half))

	if got := victim.ReadUntilClose(); len(got) != 0 {
		t.Fatalf("the evicted client got %q", got)
	}
	if !targetRedis { // redis-server 7.0 counts it too, but only from its cron
		deadline := time.Now().Add(5 * time.Second)
		for infoInt(t, s, "stats", "evicted_clients") == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		// At least the victim: with the spared client alone over the limit, the other clients
		// that hold any buffer go too, as in Redis.
		if n := infoInt(t, s, "stats", "evicted_clients"); n < 1 {
			t.Fatalf("evicted_clients %d, want at least 1", n)
		}
	}
	// The NO-EVICT client kept its half command: the rest completes it.
	spared.SendString(half + "\r\n")
	if r := spared.ReadReply(); r.Str != "OK" {
		t.Fatalf("the spared client's SET: %s", formatReply(r, false))
	}
}
