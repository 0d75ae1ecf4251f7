package tests

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// Parked clients (issue 7): a client without data gives its goroutine up and waits in a
// readiness loop. Past 64 client goroutines per P a client parks as soon as it has nothing to
// read, so a few hundred clients make most of them park between requests.

const parkingClients = 300 // above the goroutine budget of a 2-core machine (128)

// openClients opens n raw connections, each named, PINGed once.
func openClients(t *testing.T, srv *server, n int, prefix string) []*rawConn {
	t.Helper()
	conns := make([]*rawConn, n)
	for i := range conns {
		conns[i] = srv.RawConn(t)
		if r := conns[i].Do("CLIENT", "SETNAME", fmt.Sprintf("%s%d", prefix, i)); r.Str != "OK" {
			t.Fatalf("CLIENT SETNAME: %s", formatReply(r, false))
		}
	}
	return conns
}

func TestParkedClientsAlternateIdleAndBusy(t *testing.T) {
	requireKvserver(t, "kvserver's parked_clients")
	t.Parallel()
	srv := startServer(t, "--maxclients", "2000")
	conns := openClients(t, srv, parkingClients, "alt")
	sawParked := false
	var wg sync.WaitGroup
	errs := make(chan error, parkingClients)
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c *rawConn) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 3))
			for round := 0; round < 10; round++ {
				key := fmt.Sprintf("alt:%d", i)
				val := fmt.Sprintf("v%d-%d", i, round)
				// A pipeline of three, replies checked in order.
				c.SetWriteDeadline(time.Now().Add(ioTimeout))
				if _, err := c.Write([]byte(string(encodeCommand("SET", key, val)) + string(encodeCommand("GET", key)) + string(encodeCommand("STRLEN", key)))); err != nil {
					errs <- err
					return
				}
				r1, err1 := c.TryReadReply(ioTimeout)
				r2, err2 := c.TryReadReply(ioTimeout)
				r3, err3 := c.TryReadReply(ioTimeout)
				if err1 != nil || err2 != nil || err3 != nil || r1.Str != "OK" || r2.Str != val || r3.Int != int64(len(val)) {
					errs <- fmt.Errorf("client %d round %d: %v %v %v / %v %v %v", i, round, r1, r2, r3, err1, err2, err3)
					return
				}
				time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
			}
		}(i, c)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-time.After(50 * time.Millisecond):
			if infoInt(t, srv, "clients", "parked_clients") > 0 {
				sawParked = true
			}
		}
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if !sawParked {
		t.Fatal("no client was ever parked: the test did not exercise parking")
	}
}

func TestParkedMidPipelineResumes(t *testing.T) {
	requireKvserver(t, "kvserver's parked_clients")
	t.Parallel()
	srv := startServer(t, "--maxclients", "2000")
	conns := openClients(t, srv, parkingClients, "mid")
	for i, c := range conns {
		// A complete command, then half of the next one.
		c.SendString(string(encodeCommand("SET", fmt.Sprintf("mid:%d", i), "a")) + "*3\r\n$6\r\nAPPEND\r\n$" + fmt.Sprint(len(fmt.Sprintf("mid:%d", i))) + "\r\n")
	}
	for i, c := range conns {
		if r := c.ReadReply(); r.Str != "OK" {
			t.Fatalf("client %d: %s", i, formatReply(r, false))
		}
	}
	waitFor(t, 5*time.Second, "clients holding half a command did not park", func() bool {
		return infoInt(t, srv, "clients", "parked_clients") >= parkingClients/2
	})
	for i, c := range conns {
		c.SendString(fmt.Sprintf("mid:%d\r\n$1\r\nb\r\n", i))
	}
	for i, c := range conns {
		if r := c.ReadReply(); r.Int != 2 {
			t.Fatalf("client %d: APPEND after parking: %s", i, formatReply(r, false))
		}
		if r := c.Do("GET", fmt.Sprintf("mid:%d", i)); r.Str != "ab" {
			t.Fatalf("client %d: %s", i, formatReply(r, false))
		}
	}
}

func TestKillParkedClient(t *testing.T) {
	requireKvserver(t, "kvserver's parked_clients")
	t.Parallel()
	srv := startServer(t, "--maxclients", "2000")
	conns := openClients(t, srv, parkingClients, "kill")
	waitFor(t, 5*time.Second, "clients did not park", func() bool {
		return infoInt(t, srv, "clients", "parked_clients") >= parkingClients/2
	})
	admin := srv.RawConn(t)
	list := admin.Do("CLIENT", "LIST").Str
	var id string
	for _, line := range strings.Split(list, "\n") {
		if strings.Contains(line, " name=kill7 ") {
			id = strings.TrimPrefix(strings.Fields(line)[0], "id=")
		}
	}
	// Counted over the admin connection: a new connection per INFO (infoInt) would count
	// itself, and the previous one until the server has seen it close.
	named := func() int {
		return strings.Count(admin.Do("CLIENT", "LIST").Str, " name=kill")
	}
	before := named()
	if r := admin.Do("CLIENT", "KILL", "ID", id); r.Int != 1 {
		t.Fatalf("CLIENT KILL ID %s: %s", id, formatReply(r, false))
	}
	if got := conns[7].ReadUntilClose(); len(got) != 0 {
		t.Fatalf("killed client read %q", got)
	}
	if after := named(); after != before-1 {
		t.Fatalf("clients %d → %d after killing one", before, after)
	}
	if r := conns[8].Do("PING"); r.Str != "PONG" {
		t.Fatalf("a neighbour of the killed client: %s", formatReply(r, false))
	}
}

func TestSIGTERMWithThousandsOfParkedClients(t *testing.T) {
	requireKvserver(t, "kvserver's parked_clients")
	t.Parallel()
	srv := startServer(t, "--maxclients", "5000")
	const n = 3000
	for i := 0; i < n; i++ {
		c := srv.RawConn(t)
		c.SendString("PING\r\n")
		c.ReadReply()
	}
	waitFor(t, 10*time.Second, "clients did not park", func() bool {
		return infoInt(t, srv, "clients", "parked_clients") >= n/2
	})
	start := time.Now()
	if err := srv.Stop(10 * time.Second); err != nil {
		t.Fatalf("SIGTERM with %d parked clients: %v", n, err)
	}
	t.Logf("SIGTERM with %d parked clients: exited 0 after %v", n, time.Since(start))
}

// TestParkedBigArgumentsResume: clients parked in the middle of a big argument (read straight
// into its own buffer) resume when the rest arrives. Woken past the goroutine budget they are
// served by a few workers, which must not be held by a client waiting for more of its
// argument: all 600 complete within the usual read deadline.
func TestParkedBigArgumentsResume(t *testing.T) {
	requireKvserver(t, "kvserver's parked_clients")
	t.Parallel()
	srv := startServer(t, "--maxclients", "2000")
	const n, size = 600, 40000
	conns := make([]*rawConn, n)
	for i := range conns {
		conns[i] = srv.RawConn(t)
		conns[i].SendString(fmt.Sprintf("*3\r\n$3\r\nSET\r\n$7\r\nbig:%03d\r\n$%d\r\n%s", i, size, strings.Repeat("x", 1000)))
	}
	waitFor(t, 10*time.Second, "clients in the middle of a big argument did not park", func() bool {
		return infoInt(t, srv, "clients", "parked_clients") >= n/2
	})
	rest := strings.Repeat("y", size-1000) + "\r\n"
	for _, c := range conns {
		c.SendString(rest)
	}
	for i, c := range conns {
		if r := c.ReadReply(); r.Str != "OK" {
			t.Fatalf("client %d: %s", i, formatReply(r, false))
		}
	}
	if r := conns[0].Do("STRLEN", "big:599"); r.Int != size {
		t.Fatalf("STRLEN: %s", formatReply(r, false))
	}
}
