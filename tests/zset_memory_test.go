package tests

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// fillZset makes key a sorted set of n members m0000000… with scores i, 1,000 per ZADD.
func fillZset(t *testing.T, rdb *redis.Client, key string, n int) {
	t.Helper()
	ctx := context.Background()
	pipe := rdb.Pipeline()
	for i := 0; i < n; i += 1000 {
		zs := make([]redis.Z, 0, 1000)
		for j := i; j < min(i+1000, n); j++ {
			zs = append(zs, redis.Z{Score: float64(j), Member: fmt.Sprintf("m%07d", j)})
		}
		pipe.ZAdd(ctx, key, zs...)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rdb.ZCard(ctx, key).Val(); got != int64(n) {
		t.Fatalf("ZCARD %s = %d, want %d", key, got, n)
	}
}

// TestZsetUnlinkBig: UNLINK of a 200,000-member sorted set answers at once and takes the key
// out; the value waits in the lazy free queue while the cron is paused (lazyfree_pending_objects
// 1, used_memory_dataset still holding it), then the cron frees it, back to the dataset's size
// before the set was made, to the byte. DEL of a big one frees at once, to the byte too.
func TestZsetUnlinkBig(t *testing.T) {
	requireKvserver(t, "DEBUG PAUSE-CRON and the exact dataset charge")
	srv := zsetServer(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	base := infoInt(t, srv, "memory", "used_memory_dataset")

	fillZset(t, rdb, "big", 200_000)
	full := infoInt(t, srv, "memory", "used_memory_dataset")
	if full-base < 200_000*16 {
		t.Fatalf("the sorted set charges %d bytes", full-base)
	}
	t.Logf("200,000 members: used_memory_dataset +%d bytes, %.1f per member", full-base, float64(full-base)/200_000)
	if err := rdb.Do(ctx, "DEBUG", "PAUSE-CRON", "1").Err(); err != nil {
		t.Fatal(err)
	}
	if n := rdb.Unlink(ctx, "big").Val(); n != 1 {
		t.Fatalf("UNLINK = %d", n)
	}
	if n := rdb.Exists(ctx, "big").Val(); n != 0 {
		t.Fatal("big still exists after UNLINK")
	}
	if p := infoInt(t, srv, "memory", "lazyfree_pending_objects"); p < 1 {
		t.Fatalf("lazyfree_pending_objects %d after UNLINK with the cron paused", p)
	}
	if used := infoInt(t, srv, "memory", "used_memory_dataset"); used < full-(full-base)/10 {
		t.Fatalf("UNLINK freed %d of the set's %d bytes at once", full-used, full-base)
	}
	if err := rdb.Do(ctx, "DEBUG", "PAUSE-CRON", "0").Err(); err != nil {
		t.Fatal(err)
	}
	waitLazyFree(t, srv)
	if used := infoInt(t, srv, "memory", "used_memory_dataset"); used != base {
		t.Fatalf("used_memory_dataset %d after the lazy free, %d before the set", used, base)
	}

	fillZset(t, rdb, "big", 200_000)
	start := time.Now()
	rdb.Del(ctx, "big")
	t.Logf("DEL of 200,000 members answered in %v", time.Since(start))
	if used := infoInt(t, srv, "memory", "used_memory_dataset"); used != base {
		t.Fatalf("used_memory_dataset %d after DEL, %d before the set", used, base)
	}
}

// TestZsetMemoryReturns: after every kind of write — adds and updates in both encodings,
// conversions up (entries, value length, ZADD's early conversion) and the STORE results built
// both ways, pops, range removals, increments, renames and copies — deleting everything
// brings used_memory_dataset back to its value before, to the byte: nothing the sorted sets
// allocated is left behind.
func TestZsetMemoryReturns(t *testing.T) {
	requireKvserver(t, "the exact dataset charge")
	srv := zsetServer(t)
	c := srv.RawConn(t)
	do := func(args ...string) {
		t.Helper()
		if r := c.Do(args...); r.Kind == '-' {
			t.Fatalf("%v: %s", args, r.Str)
		}
	}
	base := infoInt(t, srv, "memory", "used_memory_dataset")
	for round := 0; round < 2; round++ {
		do("CONFIG", "SET", "zset-max-listpack-entries", "16")
		do("CONFIG", "SET", "zset-max-listpack-value", "16")
		for i := 0; i < 300; i++ {
			k := "zm:" + strconv.Itoa(i%7)
			do("ZADD", k, strconv.Itoa(i%50), "m"+strconv.Itoa(i%40))
			switch i % 10 {
			case 0:
				do("ZINCRBY", k, "1.5", "long-member-"+strconv.Itoa(i))
			case 1:
				do("ZREM", k, "m"+strconv.Itoa((i+3)%40))
			case 2:
				do("ZPOPMIN", k, "2")
			case 3:
				do("ZREMRANGEBYSCORE", k, "10", "(20")
			case 4:
				do("ZUNIONSTORE", "zm:u", "3", k, "zm:1", "zm:2", "WEIGHTS", "1", "2", "0.5")
			case 5:
				do("ZRANGESTORE", "zm:r", k, "0", strconv.Itoa(i%30))
			case 6:
				do("ZINTERSTORE", "zm:i", "2", k, "zm:u")
			case 7:
				do("ZDIFFSTORE", "zm:d", "2", "zm:u", k)
			case 8:
				do("ZADD", k, "XX", "1", "m1", "2", "m2", "3", "m3", "1", "m1", "2", "m2", "3", "m3", "1", "m1", "2", "m2", "3", "m3", "1", "m1", "2", "m2", "3", "m3", "1", "m1", "2", "m2")
			case 9:
				do("ZREMRANGEBYRANK", k, "0", "3")
				do("COPY", k, "zm:copy", "REPLACE")
			}
		}
		do("RENAME", "zm:u", "zm:renamed")
		do("ZMPOP", "2", "zm:0", "zm:1", "MAX", "COUNT", "3")
		do("CONFIG", "SET", "zset-max-listpack-entries", "128")
		do("CONFIG", "SET", "zset-max-listpack-value", "64")
		do("ZUNIONSTORE", "zm:small", "1", "zm:renamed")
		do("FLUSHALL")
		if used := infoInt(t, srv, "memory", "used_memory_dataset"); used != base {
			t.Fatalf("round %d: used_memory_dataset %d after FLUSHALL, %d before the sorted sets", round, used, base)
		}
	}
}
