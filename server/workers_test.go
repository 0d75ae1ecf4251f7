package server

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestHandoffWorkersReusedAndTrimmed: clients running commands that leave their loop (LRANGE is
// not @fast) are served by workers that stay for the next hand-off, so far fewer goroutines
// start than hand-offs happen; after a quiet second the cron ends the idle ones but a few.
func TestHandoffWorkersReusedAndTrimmed(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := context.Background()
	if err := rdb.RPush(ctx, "l", "a", "b", "c").Err(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if got, err := rdb.LRange(ctx, "l", 0, -1).Result(); err != nil || len(got) != 3 {
					t.Errorf("LRANGE: %v %v", got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	handoffs, started := s.workers.handoffs.Load(), s.workers.started.Load()
	if handoffs < 100 || started*4 > handoffs {
		t.Fatalf("%d hand-offs started %d workers: want many hand-offs, a worker for at most a quarter", handoffs, started)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(s.workers.idle) > keepIdleWorkers {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers still idle after a quiet 10 s, want at most %d", len(s.workers.idle), keepIdleWorkers)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
