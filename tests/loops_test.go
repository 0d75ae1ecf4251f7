package tests

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// The server's readiness loops run most commands inline and hand a client to a goroutine for a
// slow command or a reply that does not fit the socket. These tests drive both paths through
// the real binary (they hold against redis-server too).

// TestSlowReaderDoesNotStallOthers: a client that asks for large replies and does not read
// them leaves its socket full; other clients are served meanwhile, and when it reads at last
// every byte arrives in order.
func TestSlowReaderDoesNotStallOthers(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx := context.Background()
	value := strings.Repeat("v", 4<<20)
	if err := srv.Client(t).Set(ctx, "big", value, 0).Err(); err != nil {
		t.Fatal(err)
	}
	slow := srv.RawConn(t)
	const gets = 5 // 20 MB of replies: far more than the socket buffers hold
	for i := 0; i < gets; i++ {
		slow.Send(encodeCommand("GET", "big"))
	}
	slow.Send(encodeCommand("PING"))
	time.Sleep(200 * time.Millisecond)

	// Other clients, on every loop, get their replies while the slow one's socket is full.
	other := srv.Client(t)
	for i := 0; i < 50; i++ {
		key := fmt.Sprintf("other:%d", i)
		if err := other.Set(ctx, key, i, 0).Err(); err != nil {
			t.Fatalf("another client while a reader is slow: %v", err)
		}
		if v, err := other.Get(ctx, key).Int(); err != nil || v != i {
			t.Fatalf("GET %s = %d, %v", key, v, err)
		}
	}
	for i := 0; i < gets; i++ {
		r := slow.ReadReply()
		if r.Kind != '$' || r.Str != value {
			t.Fatalf("reply %d of the slow reader: kind %q, %d bytes", i, r.Kind, len(r.Str))
		}
	}
	if r := slow.ReadReply(); r.Str != "PONG" {
		t.Fatalf("after the large replies: %s", formatReply(r, false))
	}
}

// TestKillClientWithFullSocket: CLIENT KILL of a client whose replies fill its socket closes
// it; the server goes on and the client count drops.
func TestKillClientWithFullSocket(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx := context.Background()
	if err := srv.Client(t).Set(ctx, "big", strings.Repeat("k", 4<<20), 0).Err(); err != nil {
		t.Fatal(err)
	}
	stuck := srv.RawConn(t)
	if r := stuck.Do("CLIENT", "SETNAME", "stuck"); r.Str != "OK" {
		t.Fatalf("SETNAME: %s", formatReply(r, false))
	}
	for i := 0; i < 5; i++ {
		stuck.Send(encodeCommand("GET", "big"))
	}
	time.Sleep(200 * time.Millisecond)
	admin := srv.RawConn(t)
	before := infoInt(t, srv, "clients", "connected_clients")
	if r := admin.Do("CLIENT", "KILL", "USER", "default", "SKIPME", "yes"); r.Kind != ':' || r.Int < 1 {
		t.Fatalf("CLIENT KILL: %s", formatReply(r, false))
	}
	waitFor(t, 5*time.Second, "killed client with a full socket still counted", func() bool {
		return infoInt(t, srv, "clients", "connected_clients") < before
	})
	if r := admin.Do("PING"); r.Str != "PONG" {
		t.Fatalf("server after the kill: %s", formatReply(r, false))
	}
}

// TestPipelinesMixingInlineAndSlowCommands: pipelines in which commands a loop runs itself
// (SET, GET, INCR) alternate with ones it hands to a goroutine (KEYS, INFO, CONFIG GET, DBSIZE
// with others) keep their replies in order, under many clients at once.
func TestPipelinesMixingInlineAndSlowCommands(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for w := 0; w < 20; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := srv.RawConn(t)
			for round := 0; round < 20; round++ {
				key := fmt.Sprintf("mix:%d:%d", w, round)
				var req []byte
				req = append(req, encodeCommand("SET", key, "1")...)
				req = append(req, encodeCommand("KEYS", key)...)
				req = append(req, encodeCommand("INCR", key)...)
				req = append(req, encodeCommand("CONFIG", "GET", "hz")...)
				req = append(req, encodeCommand("GET", key)...)
				req = append(req, encodeCommand("ECHO", key)...)
				c.Send(req)
				want := []string{"OK", key, "2", "hz", "2", key}
				for i, exp := range want {
					r, err := c.TryReadReply(10 * time.Second)
					if err != nil {
						errs <- fmt.Errorf("client %d round %d reply %d: %v", w, round, i, err)
						return
					}
					got := r.Str
					switch r.Kind {
					case ':':
						got = fmt.Sprint(r.Int)
					case '*':
						if len(r.Elems) > 0 {
							got = r.Elems[0].Str
						}
					}
					if got != exp {
						errs <- fmt.Errorf("client %d round %d reply %d: %s, want %q", w, round, i, formatReply(r, false), exp)
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
