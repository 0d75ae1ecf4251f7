package server

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
)

// TestHashCommandsConcurrently runs the hash family from many clients at once in this process,
// so that -race sees hashes of both encodings written, converted, scanned and deleted together:
// counters (HINCRBY on listpacks), a big hash growing past the listpack limits and shrinking
// (HSET, HDEL, HSCAN, HRANDFIELD, HLEN), and hashes created and emptied (HSETNX, HDEL). Every
// increment must be counted, and the big hash must hold exactly the fields not deleted.
func TestHashCommandsConcurrently(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := context.Background()
	const (
		workers = 8
		rounds  = 150
	)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fail := func(err error) { errs <- fmt.Errorf("worker %d: %w", w, err) }
			for i := range rounds {
				if err := rdb.HIncrBy(ctx, fmt.Sprint("ctr:", i%4), fmt.Sprint("w", w), 1).Err(); err != nil {
					fail(err)
					return
				}
				// Each worker adds two fields to the big hash and deletes one of them.
				keep, drop := fmt.Sprintf("keep:%d:%d", w, i), fmt.Sprintf("drop:%d:%d", w, i)
				if err := rdb.HSet(ctx, "big", keep, i, drop, "x").Err(); err != nil {
					fail(err)
					return
				}
				if n, err := rdb.HDel(ctx, "big", drop).Result(); err != nil || n != 1 {
					fail(fmt.Errorf("HDEL %s: %d %v", drop, n, err))
					return
				}
				tmp := fmt.Sprint("tmp:", w)
				if err := rdb.HSetNX(ctx, tmp, "f", "v").Err(); err != nil {
					fail(err)
					return
				}
				if err := rdb.HDel(ctx, tmp, "f").Err(); err != nil {
					fail(err)
					return
				}
				switch i % 3 {
				case 0:
					var cursor uint64
					for {
						_, next, err := rdb.HScan(ctx, "big", cursor, "keep:*", 200).Result()
						if err != nil {
							fail(err)
							return
						}
						if cursor = next; cursor == 0 {
							break
						}
					}
				case 1:
					if err := rdb.HRandFieldWithValues(ctx, "big", 5).Err(); err != nil {
						fail(err)
						return
					}
				case 2:
					if err := rdb.HGetAll(ctx, "ctr:0").Err(); err != nil {
						fail(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	total := 0
	for c := range 4 {
		vals, err := rdb.HVals(ctx, fmt.Sprint("ctr:", c)).Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			n, _ := strconv.Atoi(v)
			total += n
		}
	}
	if total != workers*rounds {
		t.Errorf("counters sum to %d, want %d", total, workers*rounds)
	}
	if n, err := rdb.HLen(ctx, "big").Result(); err != nil || n != workers*rounds {
		t.Errorf("HLEN big = %d %v, want %d", n, err, workers*rounds)
	}
	if enc, _ := rdb.ObjectEncoding(ctx, "big").Result(); enc != "hashtable" {
		t.Errorf("big: %s", enc)
	}
	for w := range workers {
		if n, err := rdb.Exists(ctx, fmt.Sprint("tmp:", w)).Result(); err != nil || n != 0 {
			t.Errorf("tmp:%d left: %d %v", w, n, err)
		}
	}
}
