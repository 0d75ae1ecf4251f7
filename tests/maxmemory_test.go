package tests

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// The memory limit (issue 17): eviction by maxmemory-policy before each command, OOM refusals
// when nothing can be evicted. These run against redis-server too (KVSERVER_TARGET=redis):
// what they assert holds for both.

// errOOM is Redis's refusal of a denyoom command over maxmemory.
const errOOM = "OOM command not allowed when used memory > 'maxmemory'."

// fill writes n keys prefix:0 … of size-byte values, pipelined, with the given TTL (0: none),
// and returns how many writes failed with OOM; any other error, or another OOM text, fails the
// test.
func fill(t *testing.T, c *redis.Client, prefix string, n, size int, ttl time.Duration) (oom int) {
	t.Helper()
	ctx := context.Background()
	value := strings.Repeat("x", size)
	for start := 0; start < n; start += 1000 {
		p := c.Pipeline()
		for i := start; i < min(start+1000, n); i++ {
			p.Set(ctx, fmt.Sprintf("%s:%d", prefix, i), value, ttl)
		}
		cmds, _ := p.Exec(ctx)
		for _, cmd := range cmds {
			if err := cmd.Err(); err != nil {
				if err.Error() != errOOM {
					t.Fatalf("SET: %v", err)
				}
				oom++
			}
		}
	}
	return oom
}

// waitEvictionsSettle waits until the evictions stop (what one command could not evict in its
// time goes on in the background, slowly in a race-built server): evicted_keys unchanged for
// 300 ms with used_memory under limit, for 20 s at most.
func waitEvictionsSettle(t *testing.T, s *server, limit int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for last := int64(-1); time.Now().Before(deadline); {
		time.Sleep(300 * time.Millisecond)
		evicted := infoInt(t, s, "stats", "evicted_keys")
		if evicted == last && infoInt(t, s, "memory", "used_memory") <= limit {
			return
		}
		last = evicted
	}
}

// The trial: maxmemory 20mb allkeys-lru, 100,000 SETs of 1 KB. Used memory stays near
// the limit, keys are evicted, no write fails.
func TestMaxmemoryAllkeysLRUTrial(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	if err := c.ConfigSet(ctx, "maxmemory", "20mb").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru").Err(); err != nil {
		t.Fatal(err)
	}
	if oom := fill(t, c, "trial", 100_000, 1000, 0); oom != 0 {
		t.Fatalf("%d SETs refused under allkeys-lru", oom)
	}
	waitEvictionsSettle(t, s, 20<<20)
	used := infoInt(t, s, "memory", "used_memory")
	evicted := infoInt(t, s, "stats", "evicted_keys")
	keys, _ := c.DBSize(ctx).Result()
	t.Logf("used_memory %d (%.1f MB), rss %s, evicted %d, keys %d", used, float64(used)/1e6, s.Info(t, "memory")["used_memory_rss"], evicted, keys)
	if used > 22<<20 {
		t.Errorf("used_memory %d after eviction, want about 20 MB or less", used)
	}
	if evicted < 50_000 || keys+evicted != 100_000 {
		t.Errorf("evicted %d with %d keys left, want most of 100,000 evicted and the rest left", evicted, keys)
	}
}

// noeviction: over the limit, writes that may grow memory are refused with Redis's OOM error;
// reads and DEL go on, and DEL brings the server back under.
func TestMaxmemoryNoeviction(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	fill(t, c, "base", 2000, 1000, 0)
	used := infoInt(t, s, "memory", "used_memory")
	// 4 MB of room: more than the Go runtime's heap moves by.
	if err := c.ConfigSet(ctx, "maxmemory", strconv.FormatInt(used+(4<<20), 10)).Err(); err != nil {
		t.Fatal(err)
	}
	if oom := fill(t, c, "more", 20_000, 1000, 0); oom == 0 {
		t.Fatal("no SET refused 16 MB past the limit under noeviction")
	}
	if v, err := c.Get(ctx, "base:1").Result(); err != nil || len(v) != 1000 {
		t.Fatalf("GET over the limit: %d bytes, %v", len(v), err)
	}
	if infoInt(t, s, "stats", "evicted_keys") != 0 {
		t.Fatal("noeviction evicted keys")
	}
	keys, _ := c.Keys(ctx, "more:*").Result()
	if err := c.Del(ctx, keys...).Err(); err != nil {
		t.Fatalf("DEL over the limit: %v", err)
	}
	if err := c.Set(ctx, "after-del", "v", 0).Err(); err != nil {
		t.Fatalf("SET after DEL brought memory under the limit: %v", err)
	}
}

// volatile-* policies never evict a key without an expire: with none, writes are refused.
func TestMaxmemoryVolatileWithoutTTLKeys(t *testing.T) {
	for _, policy := range []string{"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"} {
		t.Run(policy, func(t *testing.T) {
			s := startServer(t)
			c := s.Client(t)
			ctx := context.Background()
			fill(t, c, "persistent", 2000, 1000, 0)
			used := infoInt(t, s, "memory", "used_memory")
			c.ConfigSet(ctx, "maxmemory-policy", policy)
			if err := c.ConfigSet(ctx, "maxmemory", strconv.FormatInt(used+(4<<20), 10)).Err(); err != nil {
				t.Fatal(err)
			}
			if oom := fill(t, c, "more", 10_000, 1000, 0); oom == 0 {
				t.Fatal("no SET refused 6 MB past the limit without volatile keys")
			}
			if n, _ := c.Exists(ctx, "persistent:0", "persistent:1999").Result(); n != 2 {
				t.Fatalf("%s evicted keys without an expire", policy)
			}
			if infoInt(t, s, "stats", "evicted_keys") != 0 {
				t.Fatalf("%s evicted keys without an expire", policy)
			}
		})
	}
}

// volatile-ttl evicts the keys with the nearest expire first, whichever shard holds them: once
// eviction is done, the keys evicted are exactly the ones whose TTLs come first.
func TestMaxmemoryVolatileTTLOrder(t *testing.T) {
	const n = 20_000
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	ttlOf := func(i int) int { return 1000 + (i*7919)%n } // an order unrelated to the keys' hashes
	// Absolute expire times (PXAT), so that the order of the expires is the order of the TTLs
	// however long the writes take.
	base := time.Now()
	value := strings.Repeat("x", 1000)
	for start := 0; start < n; start += 1000 {
		p := c.Pipeline()
		for i := start; i < start+1000; i++ {
			p.SetArgs(ctx, fmt.Sprintf("ttl:%d", i), value, redis.SetArgs{ExpireAt: base.Add(time.Duration(ttlOf(i)) * time.Second)})
		}
		if _, err := p.Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	used := infoInt(t, s, "memory", "used_memory")
	c.ConfigSet(ctx, "maxmemory-policy", "volatile-ttl")
	limit := used - (5 << 20) // about a quarter of the keys must go
	if err := c.ConfigSet(ctx, "maxmemory", strconv.FormatInt(limit, 10)).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, "trigger", "v", 0).Err(); err != nil {
		t.Fatalf("SET with volatile keys to evict: %v", err)
	}
	waitEvictionsSettle(t, s, limit)
	// No limit while the keys are checked: the check's own buffers count in used memory.
	if err := c.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	p := c.Pipeline()
	exists := make([]*redis.IntCmd, n)
	for i := range n {
		exists[i] = p.Exists(ctx, fmt.Sprintf("ttl:%d", i))
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	type keyTTL struct {
		ttl  int
		gone bool
	}
	all := make([]keyTTL, n)
	for i := range n {
		all[i] = keyTTL{ttlOf(i), exists[i].Val() == 0}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ttl < all[j].ttl })
	gone, goneTTLs, keptTTLs := 0, 0, 0
	for i, k := range all {
		if k.gone {
			gone++
			goneTTLs += k.ttl
			if volatileTTLExact() && i > 0 && !all[i-1].gone {
				t.Fatalf("a key with TTL %d s was evicted while one with %d s was kept", k.ttl, all[i-1].ttl)
			}
		} else {
			keptTTLs += k.ttl
		}
	}
	if gone > 0 && gone < n && goneTTLs/gone >= keptTTLs/(n-gone) {
		t.Fatalf("the keys evicted expire in %d s on average, the kept ones in %d s", goneTTLs/gone, keptTTLs/(n-gone))
	}
	if gone < n/10 || gone > n/2 {
		t.Fatalf("%d of %d evicted for 5 MB of 20", gone, n)
	}
	t.Logf("%d of %d evicted, nearest TTLs first", gone, n)
}

// allkeys-lru keeps a key read every 100 ms while 100,000 others are written over about four
// seconds: the LRU clock counts seconds (in Redis too), so the key is never older than the
// keys written a second before it was last read, and those go first.
func TestMaxmemoryLRUKeepsHotKey(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	c.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru")
	c.ConfigSet(ctx, "maxmemory", "8mb")
	if err := c.Set(ctx, "hot", "value", 0).Err(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		value := strings.Repeat("x", 100)
		start := time.Now()
		for batch := range 1000 {
			p := c.Pipeline()
			for i := range 100 {
				p.Set(ctx, fmt.Sprintf("cold:%d", batch*100+i), value, 0)
			}
			if _, err := p.Exec(ctx); err != nil {
				done <- err
				return
			}
			// Pace the writes over about four seconds.
			if ahead := time.Duration(batch+1)*4*time.Millisecond - time.Since(start); ahead > 0 {
				time.Sleep(ahead)
			}
		}
		done <- nil
	}()
	reader := s.Client(t)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("writing: %v", err)
			}
			if err := reader.Get(ctx, "hot").Err(); err != nil {
				t.Fatalf("hot key after 100,000 writes: %v", err)
			}
			if infoInt(t, s, "stats", "evicted_keys") == 0 {
				t.Fatal("nothing was evicted: the test did not test")
			}
			return
		case <-time.After(100 * time.Millisecond):
			if err := reader.Get(ctx, "hot").Err(); err != nil {
				t.Fatalf("hot key read every 100 ms was evicted: %v", err)
			}
		}
	}
}

// OBJECT FREQ grows with reads under an LFU policy (Redis reaches about 10 after 100 GETs with
// lfu-log-factor 10), and OBJECT IDLETIME is refused there.
func TestLFUCounterGrows(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	c.ConfigSet(ctx, "maxmemory-policy", "allkeys-lfu")
	c.Set(ctx, "k", "v", 0)
	if f, _ := c.ObjectFreq(ctx, "k").Result(); f != 5 {
		t.Fatalf("a new key's OBJECT FREQ: %d, want 5", f)
	}
	for range 100 {
		c.Get(ctx, "k")
	}
	f, err := c.ObjectFreq(ctx, "k").Result()
	if err != nil || f < 7 || f > 14 {
		t.Fatalf("OBJECT FREQ after 100 GETs: %d, %v; want about 10", f, err)
	}
	if err := c.ObjectIdleTime(ctx, "k").Err(); err == nil || !strings.Contains(err.Error(), "An LFU maxmemory policy is selected") {
		t.Fatalf("OBJECT IDLETIME under LFU: %v", err)
	}
}
