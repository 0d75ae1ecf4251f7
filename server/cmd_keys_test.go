package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestKeyspaceCommandsConcurrently runs the keyspace family from many clients at once in this
// process, so that -race sees RENAME and COPY between shards, MOVE, SWAPDB, KEYS, SCAN,
// RANDOMKEY, the expire commands and DEBUG OBJECT together. Tokens only ever move (RENAMENX
// between names of many shards): KEYS, which sees the whole keyspace at one instant, must
// always count exactly as many tokens as were made, each with its own value.
func TestKeyspaceCommandsConcurrently(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := context.Background()
	const (
		tokens  = 40
		names   = 400
		workers = 12
	)
	for i := range tokens {
		if err := rdb.Set(ctx, fmt.Sprintf("tok:%d", i), fmt.Sprintf("token-%d", i), 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(1500 * time.Millisecond)
	var wg sync.WaitGroup
	errs := make(chan error, workers+2)
	fail := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	noSuchKey := func(err error) bool { return err != nil && strings.Contains(err.Error(), "no such key") }

	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for time.Now().Before(deadline) {
				a, b := fmt.Sprintf("tok:%d", r.IntN(names)), fmt.Sprintf("tok:%d", r.IntN(names))
				if err := rdb.RenameNX(ctx, a, b).Err(); err != nil && !noSuchKey(err) {
					fail(fmt.Errorf("RENAMENX %s %s: %w", a, b, err))
					return
				}
				var err error
				switch r.IntN(8) {
				case 0:
					err = rdb.Copy(ctx, b, fmt.Sprintf("copy:%d", r.IntN(50)), 0, true).Err()
				case 1:
					err = rdb.Expire(ctx, b, time.Hour).Err()
				case 2:
					err = rdb.Persist(ctx, b).Err()
				case 3:
					k := fmt.Sprintf("copy:%d", r.IntN(50))
					err = rdb.Rename(ctx, k, fmt.Sprintf("copy:%d", r.IntN(50))).Err()
					if noSuchKey(err) {
						err = nil
					}
				case 4:
					k := fmt.Sprintf("mv:%d", r.IntN(20))
					rdb.Set(ctx, k, "v", 0)
					err = rdb.Move(ctx, k, 1).Err()
				case 5:
					err = rdb.Do(ctx, "DEBUG", "OBJECT", b).Err()
					if noSuchKey(err) {
						err = nil
					}
				case 6:
					err = rdb.Do(ctx, "SWAPDB", 2, 3).Err()
				case 7:
					err = rdb.TTL(ctx, b).Err()
				}
				if err != nil && !errors.Is(err, redis.Nil) {
					fail(fmt.Errorf("worker %d: %w", w, err))
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // the checker
		defer wg.Done()
		for time.Now().Before(deadline) {
			keys, err := rdb.Keys(ctx, "tok:*").Result()
			if err != nil {
				fail(err)
				return
			}
			if len(keys) != tokens {
				fail(fmt.Errorf("KEYS tok:* found %d tokens, want %d: a RENAME was seen half done", len(keys), tokens))
				return
			}
			if _, err := rdb.RandomKey(ctx).Result(); err != nil {
				fail(err)
				return
			}
		}
	}()
	wg.Add(1)
	go func() { // a scanner
		defer wg.Done()
		for time.Now().Before(deadline) {
			var cursor uint64
			for {
				_, next, err := rdb.Scan(ctx, cursor, "tok:*", 7).Result()
				if err != nil {
					fail(err)
					return
				}
				if cursor = next; cursor == 0 {
					break
				}
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	// Every token still holds its own value, once.
	keys, err := rdb.Keys(ctx, "tok:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, k := range keys {
		v, err := rdb.Get(ctx, k).Result()
		if err != nil {
			t.Fatal(err)
		}
		if seen[v] {
			t.Fatalf("value %q twice", v)
		}
		seen[v] = true
	}
	if len(seen) != tokens {
		t.Fatalf("%d distinct token values, want %d", len(seen), tokens)
	}
}
