package server

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kvserver/kvserver/config"
)

// startInProcess runs a Server in this process on a free loopback port, so that `go test -race`
// sees the clients, the cron and the handlers running together (the end-to-end tests in tests/
// drive the built binary, which the race detector does not instrument).
func startInProcess(t *testing.T, directives ...[]string) (*Server, *redis.Client) {
	t.Helper()
	cfg := config.New()
	// port 0 is no TCP listener at all (as in Redis): take a port that was free a moment ago.
	port := freePort(t)
	base := [][]string{{"port", strconv.Itoa(port)}, {"bind", "127.0.0.1"}, {"hz", "100"}, {"enable-debug-command", "yes"},
		{"save", ""}}
	if err := cfg.Load(append(base, directives...)); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Shutdown()
		s.Wait()
		s.Close()
	})
	rdb := redis.NewClient(&redis.Options{Addr: s.Addrs()[0], PoolSize: 64})
	t.Cleanup(func() { rdb.Close() })
	return s, rdb
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestInProcessConcurrentClients(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				key := fmt.Sprintf("k%d", i%20)
				val := strings.Repeat(string(rune('a'+w)), 10+i%300)
				pipe := rdb.Pipeline()
				pipe.Set(ctx, key, val, 0)
				get := pipe.Get(ctx, key)
				pipe.Del(ctx, fmt.Sprintf("gone%d", w))
				if _, err := pipe.Exec(ctx); err != nil {
					errs <- err
					return
				}
				if v := get.Val(); len(v) < 10 || strings.Count(v, v[:1]) != len(v) {
					errs <- fmt.Errorf("torn value %q", v)
					return
				}
			}
		}(w)
	}
	// CLIENT LIST and INFO read the clients' shared fields while they run.
	for i := 0; i < 20; i++ {
		if err := rdb.Do(ctx, "CLIENT", "LIST").Err(); err != nil {
			t.Fatal(err)
		}
		if err := rdb.Info(ctx, "everything").Err(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n, err := rdb.DBSize(ctx).Result(); err != nil || n != 20 {
		t.Fatalf("DBSIZE %d, %v", n, err)
	}
}

func TestInProcessShutdownClosesClients(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := context.Background()
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		s.Shutdown()
		s.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Shutdown did not finish")
	}
	if rdb.Ping(ctx).Err() == nil {
		t.Fatal("PING succeeded after Shutdown")
	}
}
