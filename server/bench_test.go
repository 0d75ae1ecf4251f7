package server

import (
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/kvserver/kvserver/config"
)

// loopConn is a net.Conn whose reads return the same request bytes forever and whose writes
// are counted and dropped: the whole read → parse → dispatch → reply path without a socket.
type loopConn struct {
	req     []byte
	written int
}

func (l *loopConn) Read(b []byte) (int, error)  { return copy(b, l.req), nil }
func (l *loopConn) Write(b []byte) (int, error) { l.written += len(b); return len(b), nil }
func (l *loopConn) Close() error                { return nil }
func (l *loopConn) LocalAddr() net.Addr         { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 6379} }
func (l *loopConn) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 50000}
}
func (l *loopConn) SetDeadline(t time.Time) error      { return nil }
func (l *loopConn) SetReadDeadline(t time.Time) error  { return nil }
func (l *loopConn) SetWriteDeadline(t time.Time) error { return nil }

func benchServer(b *testing.B) *Server {
	b.Helper()
	s, err := New(Options{Config: config.New()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

// benchmarkPipeline runs batches of n copies of one command through a client; it reports
// per-command figures. In steady state GET and SET allocate nothing on the Go heap.
func benchmarkPipeline(b *testing.B, n int, cmd string) {
	s := benchServer(b)
	var req []byte
	for i := 0; i < n; i++ {
		req = append(req, cmd...)
	}
	conn := &loopConn{req: req}
	c := newClient(s, conn, 1)
	c.mu.Lock()
	c.attachActiveLocked(nil)
	c.mu.Unlock()
	c.step(false) // first batch: the key exists, the buffers have grown
	b.ReportAllocs()
	b.SetBytes(int64(len(req)))
	b.ResetTimer()
	for b.Loop() {
		if c.step(false) != serveContinue {
			b.Fatal("client closed")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/cmd")
}

// benchCommands are the benchmarks' requests: a SET of an 18-byte key to an 85-byte value, a
// GET of it, and the value as a bulk string (the GET's reply).
func benchCommands() (set, get, value string) {
	value = fmt.Sprintf("$85\r\n%085d\r\n", 7)
	set = "*3\r\n$3\r\nSET\r\n$18\r\nkey:00000000000001\r\n" + value
	get = "*2\r\n$3\r\nGET\r\n$18\r\nkey:00000000000001\r\n"
	return set, get, value
}

func BenchmarkPipeline(b *testing.B) {
	set, get, _ := benchCommands()
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("SET/P=%d", n), func(b *testing.B) { benchmarkPipeline(b, n, set) })
		b.Run(fmt.Sprintf("GET/P=%d", n), func(b *testing.B) { benchmarkPipeline(b, n, get) })
	}
}

// benchmarkSocketPipeline runs batches of n copies of one command through the path clients
// take: a socket (one end of a socketpair) in a readiness loop, served inline — epoll, read,
// parse, dispatch, reply, write — while the benchmark writes the requests on the other end and
// reads every reply. Allocations are counted for the whole process: the loop's included.
func benchmarkSocketPipeline(b *testing.B, n int, setup, cmd, reply string) {
	s := benchServer(b)
	s.byFD = make([]atomic.Pointer[client], fdTableSize())
	if err := s.startReadinessLoops(); err != nil {
		b.Fatal(err)
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	peer := fds[1]
	if err := unix.SetNonblock(peer, false); err != nil {
		b.Fatal(err)
	}
	c := newSocketClient(s, fds[0], peerAddr{}, 1)
	if !s.addClient(c) {
		b.Fatal("server closing")
	}
	s.byFD[fds[0]].Store(c)
	if err := s.register(c); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		unix.Close(peer)
		s.Shutdown()
		s.Wait()
	})
	buf := make([]byte, 64<<10)
	if setup != "" { // SET the key a GET reads: one command, one "+OK\r\n"
		if _, err := unix.Write(peer, []byte(setup)); err != nil {
			b.Fatal(err)
		}
		if m, err := unix.Read(peer, buf); err != nil || string(buf[:m]) != "+OK\r\n" {
			b.Fatalf("setup: %q, %v", buf[:max(m, 0)], err)
		}
	}
	req := []byte(strings.Repeat(cmd, n))
	want := len(reply) * n
	roundTrip := func() {
		if _, err := unix.Write(peer, req); err != nil {
			b.Fatal(err)
		}
		for got := 0; got < want; {
			m, err := unix.Read(peer, buf)
			if err != nil || m <= 0 {
				b.Fatalf("reading replies: %d, %v", m, err)
			}
			got += m
		}
	}
	roundTrip() // the key exists, the buffers have grown
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		roundTrip()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/cmd")
}

func BenchmarkSocketPipeline(b *testing.B) {
	set, get, value := benchCommands()
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("SET/P=%d", n), func(b *testing.B) { benchmarkSocketPipeline(b, n, "", set, "+OK\r\n") })
		b.Run(fmt.Sprintf("GET/P=%d", n), func(b *testing.B) { benchmarkSocketPipeline(b, n, set, get, value) })
	}
}
