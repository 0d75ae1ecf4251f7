package server

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestTxReleasedOnCloseAndReset: a connection's watched keys and transaction are released by
// RESET, by EXEC, DISCARD and UNWATCH, and when the connection closes in the middle of a
// transaction.
func TestTxReleasedOnCloseAndReset(t *testing.T) {
	s, _ := startInProcess(t)
	ctx := context.Background()
	rc := redis.NewClient(&redis.Options{Addr: s.Addrs()[0], PoolSize: 1})
	t.Cleanup(func() { rc.Close() })
	c := rc.Conn() // one connection for the whole test
	do := func(args ...any) {
		t.Helper()
		if err := c.Do(ctx, args...).Err(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	watched := func(want int) {
		t.Helper()
		if got := s.ks.WatchedKeys(); got != want {
			t.Fatalf("%d keys watched, want %d", got, want)
		}
	}
	do("WATCH", "a", "b", "c")
	watched(3)
	do("UNWATCH")
	watched(0)
	do("WATCH", "a", "b")
	do("MULTI")
	do("SET", "a", "1")
	do("DISCARD")
	watched(0)
	do("WATCH", "a")
	do("MULTI")
	do("RESET")
	watched(0)
	if err := c.Do(ctx, "EXEC").Err(); err == nil || err.Error() != "ERR EXEC without MULTI" {
		t.Fatalf("EXEC after RESET: %v", err)
	}
	do("WATCH", "a", "b")
	do("MULTI")
	do("SET", "a", "1")
	c.Close()
	rc.Close() // the socket closes in MULTI, watching
	deadline := time.Now().Add(10 * time.Second)
	for s.ks.WatchedKeys() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d keys still watched after the connection closed", s.ks.WatchedKeys())
		}
		time.Sleep(time.Millisecond)
	}
}
