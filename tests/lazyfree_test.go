package tests

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// fillHash makes key a hash of n fields f0… with 8-byte values, 1,000 fields per HSET.
func fillHash(t *testing.T, rdb *redis.Client, key string, n int) {
	t.Helper()
	ctx := context.Background()
	pipe := rdb.Pipeline()
	for i := 0; i < n; i += 1000 {
		args := make([]any, 0, 2000)
		for j := i; j < min(i+1000, n); j++ {
			args = append(args, "f"+strconv.Itoa(j), fmt.Sprintf("v%07d", j))
		}
		pipe.HSet(ctx, key, args...)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rdb.HLen(ctx, key).Val(); got != int64(n) {
		t.Fatalf("HLEN %s = %d, want %d", key, got, n)
	}
}

// waitLazyFree polls INFO until lazyfree_pending_objects is 0 (the cron frees a bounded amount
// per tick: a 200,000-field hash takes a few ticks), failing after a generous deadline.
func waitLazyFree(t *testing.T, srv *server) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for infoInt(t, srv, "memory", "lazyfree_pending_objects") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("lazyfree_pending_objects still above 0 after 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestUnlinkBigHash: UNLINK of a 200,000-field hash answers at once and takes the key out; the
// value waits in the lazy free queue (lazyfree_pending_objects 1, used_memory_dataset still
// holding it) while the cron is paused, then the cron frees it: pending back to 0,
// lazyfreed_objects 1, and used_memory_dataset back to what it was before the hash was made.
// DEL under lazyfree-lazy-user-del and FLUSHALL ASYNC go the same way; CONFIG RESETSTAT
// clears lazyfreed_objects.
func TestUnlinkBigHash(t *testing.T) {
	requireKvserver(t, "DEBUG PAUSE-CRON and the exact dataset charge")
	srv := startServer(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	if err := rdb.Do(ctx, "HSET", "probe", "f", "v").Err(); err != nil {
		t.Skipf("no HSET: %v", err)
	}
	rdb.Del(ctx, "probe")
	base := infoInt(t, srv, "memory", "used_memory_dataset")

	fillHash(t, rdb, "big", 200_000)
	full := infoInt(t, srv, "memory", "used_memory_dataset")
	if full-base < 200_000*16 {
		t.Fatalf("the hash charges %d bytes", full-base)
	}
	if err := rdb.Do(ctx, "DEBUG", "PAUSE-CRON", "1").Err(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if n := rdb.Unlink(ctx, "big").Val(); n != 1 {
		t.Fatalf("UNLINK = %d", n)
	}
	t.Logf("UNLINK of 200,000 fields answered in %v", time.Since(start))
	if n := rdb.Exists(ctx, "big").Val(); n != 0 {
		t.Fatal("big still exists after UNLINK")
	}
	if p := infoInt(t, srv, "memory", "lazyfree_pending_objects"); p < 1 {
		t.Fatalf("lazyfree_pending_objects %d after UNLINK with the cron paused", p)
	}
	if used := infoInt(t, srv, "memory", "used_memory_dataset"); used < full-(full-base)/10 {
		t.Fatalf("UNLINK freed %d of the hash's %d bytes at once", full-used, full-base)
	}
	if err := rdb.Do(ctx, "DEBUG", "PAUSE-CRON", "0").Err(); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	waitLazyFree(t, srv)
	t.Logf("the cron freed it within %v", time.Since(start))
	if n := infoInt(t, srv, "memory", "lazyfreed_objects"); n != 1 {
		t.Fatalf("lazyfreed_objects %d, want 1", n)
	}
	if used := infoInt(t, srv, "memory", "used_memory_dataset"); used != base {
		t.Fatalf("used_memory_dataset %d after lazy free, %d before the hash", used, base)
	}

	// DEL frees at once unless lazyfree-lazy-user-del; FLUSHALL ASYNC queues.
	fillHash(t, rdb, "big", 200_000)
	start = time.Now()
	rdb.Del(ctx, "big")
	t.Logf("DEL of 200,000 fields answered in %v", time.Since(start))
	if p, n := infoInt(t, srv, "memory", "lazyfree_pending_objects"), infoInt(t, srv, "memory", "lazyfreed_objects"); p != 0 || n != 1 {
		t.Fatalf("after DEL: pending %d, lazyfreed %d (want 0, 1)", p, n)
	}
	rdb.ConfigSet(ctx, "lazyfree-lazy-user-del", "yes")
	fillHash(t, rdb, "big", 5000)
	rdb.Del(ctx, "big")
	fillHash(t, rdb, "big2", 5000)
	if err := rdb.Do(ctx, "FLUSHALL", "ASYNC").Err(); err != nil {
		t.Fatal(err)
	}
	waitLazyFree(t, srv)
	if n := infoInt(t, srv, "memory", "lazyfreed_objects"); n != 3 {
		t.Fatalf("lazyfreed_objects %d, want 3", n)
	}
	if used := infoInt(t, srv, "memory", "used_memory_dataset"); used != base {
		t.Fatalf("used_memory_dataset %d after lazy frees, %d at the start", used, base)
	}
	rdb.ConfigResetStat(ctx)
	if n := infoInt(t, srv, "memory", "lazyfreed_objects"); n != 0 {
		t.Fatalf("lazyfreed_objects %d after CONFIG RESETSTAT", n)
	}
}
