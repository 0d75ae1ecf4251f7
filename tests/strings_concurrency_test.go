package tests

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestConcurrentIncr: 50 clients each send 1,000 INCRs of one key in one pipeline (10,000
// against a server not built with the race detector), all at once. Every INCR is atomic, so
// the replies are exactly 1…50,000, each once, and increasing on each connection; the key
// ends at 50,000.
func TestConcurrentIncr(t *testing.T) {
	t.Parallel()
	const clients = 50
	incrs := 10000
	if raceBuilt() {
		incrs = 1000
	}
	srv := startServer(t)
	ctx := context.Background()
	rcs := make([]*redis.Client, clients)
	for i := range rcs {
		rcs[i] = srv.Client(t)
	}
	replies := make([][]int64, clients)
	errs := make(chan error, clients)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, rc := range rcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pipe := rc.Pipeline()
			cmds := make([]*redis.IntCmd, incrs)
			for j := range cmds {
				cmds[j] = pipe.Incr(ctx, "counter")
			}
			<-start
			if _, err := pipe.Exec(ctx); err != nil {
				errs <- fmt.Errorf("client %d: %v", i, err)
				return
			}
			for _, c := range cmds {
				replies[i] = append(replies[i], c.Val())
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var all []int64
	for i, r := range replies {
		for j := 1; j < len(r); j++ {
			if r[j] <= r[j-1] {
				t.Fatalf("client %d: reply %d is %d after %d", i, j, r[j], r[j-1])
			}
		}
		all = append(all, r...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i, v := range all {
		if v != int64(i+1) {
			t.Fatalf("the %dth smallest reply is %d: replies are not 1…%d each once", i+1, v, clients*incrs)
		}
	}
	if got, err := rcs[0].Get(ctx, "counter").Int64(); err != nil || got != int64(clients*incrs) {
		t.Fatalf("counter = %d, %v; want %d", got, err, clients*incrs)
	}
}

// TestMSetAtomic: writers MSET the same ten keys to one value per round while readers MGET
// them; a reader must never see two different values (an MSET half done), and MSETNX of keys
// that partly exist must never set any of them.
func TestMSetAtomic(t *testing.T) {
	t.Parallel()
	const (
		nkeys    = 10
		writers  = 4
		readers  = 8
		duration = 1500 * time.Millisecond
	)
	srv := startServer(t)
	ctx := context.Background()
	keys := make([]string, nkeys)
	for i := range keys {
		keys[i] = fmt.Sprintf("atomic:{%d}:%d", i*7919, i) // spread over the shards
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers+readers)
	deadline := time.Now().Add(duration)
	var reads, writes [readers + writers]int
	for w := 0; w < writers; w++ {
		rc := srv.Client(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; time.Now().Before(deadline); round++ {
				args := make([]interface{}, 0, 2*nkeys)
				for _, k := range keys {
					args = append(args, k, fmt.Sprintf("w%d-r%d", w, round))
				}
				if err := rc.MSet(ctx, args...).Err(); err != nil {
					errs <- fmt.Errorf("MSET: %v", err)
					return
				}
				// The first key exists, the new one does not: nothing is set.
				if n, err := rc.MSetNX(ctx, "atomic:new", "x", keys[0], "x").Result(); err != nil || n {
					errs <- fmt.Errorf("MSETNX over an existing key: %v %v", n, err)
					return
				}
				writes[w]++
			}
		}()
	}
	for r := 0; r < readers; r++ {
		rc := srv.Client(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				vals, err := rc.MGet(ctx, append(keys, "atomic:new")...).Result()
				if err != nil {
					errs <- fmt.Errorf("MGET: %v", err)
					return
				}
				for i := 1; i < nkeys; i++ {
					if vals[i] != vals[0] {
						errs <- fmt.Errorf("MGET saw a half-done MSET: %v", vals)
						return
					}
				}
				if vals[nkeys] != nil {
					errs <- fmt.Errorf("MSETNX set a key while another existed: %v", vals[nkeys])
					return
				}
				reads[r]++
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("MSET rounds per writer %v, MGETs per reader %v", writes[:writers], reads[:readers])
}
