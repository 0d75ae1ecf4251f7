package tests

import (
	"context"
	"strings"
	"testing"
	"time"
)

// CLIENT NO-TOUCH (Redis 7.2): a client's reads and writes leave the keys' LRU/LFU clocks
// alone, except TOUCH; CLIENT LIST shows the T flag, and NO-EVICT's e.
func TestClientNoTouch(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "redis-server 7.0.15 has no CLIENT NO-TOUCH (Redis 7.2)")
	s := startServer(t)
	ctx := context.Background()
	c, quiet := s.Client(t), s.RawConn(t)
	if r := quiet.Do("CLIENT", "NO-TOUCH", "on"); r.Str != "OK" {
		t.Fatalf("CLIENT NO-TOUCH on: %s", formatReply(r, false))
	}
	if r := quiet.Do("CLIENT", "NO-EVICT", "on"); r.Str != "OK" {
		t.Fatalf("CLIENT NO-EVICT on: %s", formatReply(r, false))
	}
	if got := formatReply(quiet.Do("CLIENT", "NO-TOUCH", "maybe"), false); got != "(error) ERR syntax error\n" {
		t.Errorf("CLIENT NO-TOUCH maybe: %s", got)
	}
	if info := quiet.Do("CLIENT", "INFO").Str; !strings.Contains(info, " flags=eT ") {
		t.Errorf("CLIENT INFO of a NO-EVICT NO-TOUCH client: %s", info)
	}

	// LRU: the quiet client's reads leave the idle time growing; TOUCH resets it. (A SET makes
	// a new value, whose clock starts now, in Redis too.)
	c.Set(ctx, "k", "v", 0)
	time.Sleep(2100 * time.Millisecond)
	quiet.Do("GET", "k")
	quiet.Do("EXISTS", "k")
	quiet.Do("GETRANGE", "k", "0", "0")
	if idle, _ := c.ObjectIdleTime(ctx, "k").Result(); idle < 2*time.Second {
		t.Errorf("idle time after NO-TOUCH reads: %v, want at least 2 s", idle)
	}
	quiet.Do("TOUCH", "k")
	if idle, _ := c.ObjectIdleTime(ctx, "k").Result(); idle != 0 {
		t.Errorf("idle time after a NO-TOUCH client's TOUCH: %v, want 0", idle)
	}

	// LFU: 200 reads by the quiet client leave a new key's counter at 5; the other client's
	// raise it.
	c.ConfigSet(ctx, "maxmemory-policy", "allkeys-lfu")
	c.Set(ctx, "f", "v", 0)
	for range 200 {
		quiet.Do("GET", "f")
		quiet.Do("SET", "f", "w") // an overwrite keeps the counter (dbSetValue), not raised
	}
	if f, _ := c.ObjectFreq(ctx, "f").Result(); f != 5 {
		t.Errorf("OBJECT FREQ after 200 NO-TOUCH GETs and SETs: %d, want 5", f)
	}
	quiet.Do("CLIENT", "NO-TOUCH", "off")
	for range 200 {
		quiet.Do("GET", "f")
	}
	if f, _ := c.ObjectFreq(ctx, "f").Result(); f <= 5 {
		t.Errorf("OBJECT FREQ after 200 GETs with NO-TOUCH off: %d, want above 5", f)
	}
	if info := quiet.Do("CLIENT", "INFO").Str; !strings.Contains(info, " flags=e ") {
		t.Errorf("CLIENT INFO after NO-TOUCH off: %s", info)
	}
}
