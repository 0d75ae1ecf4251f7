package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestBlockingConcurrently drives the blocking machinery from many sides at once, in this
// process so that `go test -race` sees the loops, the wakers, the deadline timer and the
// closers together: consumers block in BLPOP, BRPOP and BLMOVE on a few keys with short
// timeouts or none, producers push from plain commands and from MULTI/EXEC, some consumers
// are unblocked with CLIENT UNBLOCK or drop their connection. Every element pushed must be
// received exactly once (by a consumer, or found left in the lists at the end), and at the end
// no client is blocked and no key is waited on.
func TestBlockingConcurrently(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := context.Background()
	keys := []string{"bq:0", "bq:1", "bq:2"}
	const (
		producers = 4
		perProd   = 300
		consumers = 12
	)
	var (
		mu       sync.Mutex
		received = map[string]int{}
		wg       sync.WaitGroup
		stop     = make(chan struct{})
	)
	got := func(v string) {
		mu.Lock()
		received[v]++
		mu.Unlock()
	}
	for i := range consumers {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := redis.NewClient(&redis.Options{Addr: s.Addrs()[0], PoolSize: 1, ReadTimeout: -1})
			defer c.Close()
			rng := rand.New(rand.NewSource(int64(i)))
			for {
				select {
				case <-stop:
					return
				default:
				}
				timeout := []string{"0", "0.05", "0.1"}[rng.Intn(3)] // seconds; 0 waits forever
				k := keys[rng.Intn(len(keys))]
				var (
					r   any
					err error
				)
				switch rng.Intn(3) {
				case 0:
					r, err = c.Do(ctx, "BLPOP", k, keys[rng.Intn(len(keys))], timeout).Result()
				case 1:
					r, err = c.Do(ctx, "BRPOP", k, timeout).Result()
				case 2:
					// Moves into another waited key: the element goes on, counted once there.
					_, err = c.Do(ctx, "BLMOVE", k, keys[rng.Intn(len(keys))], "LEFT", "RIGHT", timeout).Result()
				}
				switch {
				case err == nil:
					if pair, ok := r.([]any); ok {
						got(pair[1].(string))
					}
				case !errors.Is(err, redis.Nil) && !isUnblocked(err):
					t.Errorf("blocking command: %v", err)
					return
				}
			}
		}(i)
	}
	// An unblocker and a disconnector, while the producers run.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			for _, line := range clientLines(rdb) {
				if line.cmd == "blpop" || line.cmd == "brpop" {
					rdb.Do(ctx, "CLIENT", "UNBLOCK", line.id, "ERROR")
					break
				}
			}
			// A connection that blocks and goes away (on a key of its own: an element served to
			// it as it leaves would be lost, as in Redis).
			if conn, err := net.Dial("tcp", s.Addrs()[0]); err == nil {
				_, _ = conn.Write([]byte("*4\r\n$5\r\nBLPOP\r\n$7\r\nbq:gone\r\n$8\r\nbq:gone2\r\n$1\r\n0\r\n"))
				time.Sleep(5 * time.Millisecond)
				conn.Close()
			}
		}
	}()
	var pwg sync.WaitGroup
	for p := range producers {
		pwg.Add(1)
		go func(p int) {
			defer pwg.Done()
			for n := 0; n < perProd; n++ {
				v := fmt.Sprintf("p%d:%d", p, n)
				k := keys[n%len(keys)]
				var err error
				if n%5 == 0 {
					_, err = rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
						pipe.RPush(ctx, k, v)
						return nil
					})
				} else {
					err = rdb.LPush(ctx, k, v).Err()
				}
				if err != nil {
					t.Errorf("push: %v", err)
					return
				}
			}
		}(p)
	}
	pwg.Wait()
	time.Sleep(300 * time.Millisecond) // let the consumers drain what they can
	close(stop)
	// Consumers blocked forever are released by pushing markers until all have returned.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-time.After(50 * time.Millisecond):
			for _, k := range keys {
				rdb.RPush(ctx, k, "marker")
			}
		}
	}
	for _, k := range keys {
		for _, v := range rdb.LRange(ctx, k, 0, -1).Val() {
			got(v)
		}
	}
	for p := range producers {
		for n := 0; n < perProd; n++ {
			v := fmt.Sprintf("p%d:%d", p, n)
			if received[v] != 1 {
				t.Errorf("%s received %d times, want once", v, received[v])
			}
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.pipeline.BlockedClients() != 0 || s.ks.BlockingKeys() != 0 || s.ks.Blocking() {
		if time.Now().After(deadline) {
			t.Fatalf("after the run: %d blocked clients, %d blocking keys", s.pipeline.BlockedClients(), s.ks.BlockingKeys())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// isUnblocked reports whether err is CLIENT UNBLOCK … ERROR's reply or the end of a connection.
func isUnblocked(err error) bool {
	return err != nil && (err.Error() == "UNBLOCKED client unblocked via CLIENT UNBLOCK")
}

// clientLine is what TestBlockingConcurrently reads of a CLIENT LIST line.
type clientLine struct{ id, cmd string }

// clientLines parses CLIENT LIST's id= and cmd= fields.
func clientLines(rdb *redis.Client) []clientLine {
	var out []clientLine
	list, err := rdb.ClientList(context.Background()).Result()
	if err != nil {
		return nil
	}
	for _, l := range strings.Split(strings.TrimSpace(list), "\n") {
		var cl clientLine
		for _, f := range strings.Fields(l) {
			switch {
			case len(f) > 3 && f[:3] == "id=":
				cl.id = f[3:]
			case len(f) > 4 && f[:4] == "cmd=":
				cl.cmd = f[4:]
			}
		}
		out = append(out, cl)
	}
	return out
}
