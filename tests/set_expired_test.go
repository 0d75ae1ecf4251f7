package tests

import (
	"strings"
	"testing"
	"time"
)

// TestSetOverExpiredKey: a plain SET over a key whose time has passed counts it in
// expired_keys, as Redis's lookupKeyWrite expires it first (kvserver's plain SET does not look
// the key up: the replacement counts it); the new value has no TTL.
func TestSetOverExpiredKey(t *testing.T) {
	t.Parallel()
	c := startServer(t).RawConn(t)
	for _, cmd := range [][]string{{"DEBUG", "SET-ACTIVE-EXPIRE", "0"}, {"CONFIG", "RESETSTAT"}, {"SET", "k", "v", "PX", "1"}, {"SET", "plain", "v", "PX", "100000"}} {
		if r := c.Do(cmd...); r.Str != "OK" {
			t.Fatalf("%q: %s", cmd, formatReply(r, false))
		}
	}
	time.Sleep(20 * time.Millisecond)
	c.Do("SET", "k", "w")
	c.Do("SET", "plain", "w") // its time has not passed: not expired
	if r := c.Do("GET", "k"); r.Str != "w" {
		t.Errorf("GET k: %s", formatReply(r, false))
	}
	if r := c.Do("TTL", "k"); r.Int != -1 {
		t.Errorf("TTL k: %s", formatReply(r, false))
	}
	if info := c.Do("INFO", "stats").Str; !strings.Contains(info, "\r\nexpired_keys:1\r\n") {
		t.Errorf("expired_keys after a SET over one expired key:\n%s", info)
	}
}
