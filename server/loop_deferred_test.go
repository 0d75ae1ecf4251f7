package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestDeferredRepliesRound sends requests on many connections at once, so that the readiness
// loop finds several ready in one round and writes their replies after running them all
// (writeDeferred), and checks every step's ending on that path: plain replies, QUIT (close
// after the reply), a half-closed socket (the read's EOF kept for after the write), and a reply
// too big for the socket (handed to a goroutine with its unwritten bytes).
func TestDeferredRepliesRound(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := context.Background()
	big := strings.Repeat("b", 4<<20)
	if err := rdb.Set(ctx, "big", big, 0).Err(); err != nil {
		t.Fatal(err)
	}
	shared := func() (n int64) {
		for _, l := range s.loops {
			n += l.sharedRounds.Load()
		}
		return n
	}
	before := shared()
	const conns = 80
	for attempt := 0; attempt < 20 && (attempt == 0 || shared() == before); attempt++ {
		cs := make([]*net.TCPConn, conns)
		for i := range cs {
			c, err := net.Dial("tcp", s.Addrs()[0])
			if err != nil {
				t.Fatal(err)
			}
			cs[i] = c.(*net.TCPConn)
			defer c.Close()
		}
		for i, c := range cs {
			var req string
			switch i % 4 {
			case 0:
				req = fmt.Sprintf("SET k%d v%d\r\nGET k%d\r\n", i, i, i)
			case 1:
				req = "PING\r\nQUIT\r\n"
			case 2:
				req = "GET big\r\nPING\r\n"
			case 3:
				req = "PING\r\n"
			}
			if _, err := c.Write([]byte(req)); err != nil {
				t.Fatal(err)
			}
			if i%4 == 3 {
				_ = c.CloseWrite() // the server reads PING and the end together
			}
		}
		var wg sync.WaitGroup
		errs := make(chan error, conns)
		for i, c := range cs {
			wg.Add(1)
			go func(i int, c *net.TCPConn) {
				defer wg.Done()
				_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
				if i%4 == 2 {
					time.Sleep(20 * time.Millisecond) // a slow reader: the big reply fills the socket
				}
				var want string
				switch i % 4 {
				case 0:
					want = fmt.Sprintf("+OK\r\n$%d\r\nv%d\r\n", len(fmt.Sprint("v", i)), i)
				case 1:
					want = "+PONG\r\n+OK\r\n"
				case 2:
					want = fmt.Sprintf("$%d\r\n%s\r\n+PONG\r\n", len(big), big)
				case 3:
					want = "+PONG\r\n"
				}
				var got []byte
				var err error
				if i%4 == 0 || i%4 == 2 {
					// Still open: read the replies' length (under the deadline, however slow
					// the machine), not to the end.
					got = make([]byte, len(want))
					var n int
					n, err = io.ReadFull(bufio.NewReader(c), got)
					got = got[:n]
				} else {
					got, err = io.ReadAll(bufio.NewReader(c))
				}
				if err != nil || string(got) != want {
					errs <- fmt.Errorf("connection %d: %d bytes %.40q…, err %v; want %d bytes", i, len(got), got, err, len(want))
				}
			}(i, c)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	t.Logf("rounds sharing a write: %d", shared()-before)
	if shared() == before {
		t.Fatal("no round wrote two clients' replies together: the deferred path was not exercised")
	}
	if n, err := rdb.Ping(ctx).Result(); err != nil || n != "PONG" {
		t.Fatalf("PING after: %q %v", n, err)
	}
}
