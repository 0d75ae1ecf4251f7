// Command conns measures what a connection costs a server in RSS. It reads the server's RSS
// from /proc, opens -n connections and makes each speak once — a PING (reading the PONG), a
// SUBSCRIBE to one of -channels channels (reading the confirmation), or the first -sent bytes
// of a SET whose value is -value bytes long, which leaves the server holding a partial
// command — then waits -settle after the last client spoke, reads the RSS
// again, checks every connection is still open, and prints one line of key=value figures:
//
//	conns -addr 127.0.0.1:6379 -pid 1234 -n 10000 -mode ping
//	conns=10000 mode=ping open_secs=... rss_before=... rss_after=... per_conn_bytes=...
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6379", "server address")
	pid := flag.Int("pid", 0, "server process id, for its RSS")
	n := flag.Int("n", 10000, "connections")
	mode := flag.String("mode", "ping", "ping: each connection sends PING; subscribe: SUBSCRIBE to a channel; partial: the first -sent bytes of a SET")
	channels := flag.Int("channels", 10, "subscribe mode: connection i subscribes to channel chan:<i mod channels>")
	value := flag.Int("value", 100000, "partial mode: the SET's value size")
	sent := flag.Int("sent", 5000, "partial mode: bytes of the SET command sent")
	settle := flag.Duration("settle", 5*time.Second, "wait after the last client spoke before reading RSS")
	dialers := flag.Int("dialers", 32, "connections opened at once")
	flag.Parse()
	if err := run(*addr, *pid, *n, *mode, *value, *sent, *channels, *settle, *dialers); err != nil {
		fmt.Fprintln(os.Stderr, "conns:", err)
		os.Exit(1)
	}
}

// run measures once; see the package comment.
func run(addr string, pid, n int, mode string, value, sent, channels int, settle time.Duration, dialers int) error {
	var speak func(c net.Conn, i int) error
	switch mode {
	case "ping":
		speak = ping
	case "subscribe":
		if channels < 1 {
			return fmt.Errorf("-channels %d: want at least 1", channels)
		}
		speak = func(c net.Conn, i int) error { return subscribe(c, i%channels) }
	case "partial":
		speak = func(c net.Conn, i int) error { return partialSet(c, i, value, sent) }
	default:
		return fmt.Errorf("unknown -mode %q", mode)
	}
	before, err := rss(pid)
	if err != nil {
		return err
	}

	conns := make([]net.Conn, n)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	opening := time.Now()
	next := make(chan int)
	errs := make([]error, dialers)
	var wg sync.WaitGroup
	for w := range dialers {
		wg.Go(func() {
			for i := range next {
				c, err := net.Dial("tcp", addr)
				if err == nil {
					conns[i] = c
					err = speak(c, i)
				}
				if err != nil && errs[w] == nil {
					errs[w] = fmt.Errorf("connection %d: %w", i, err)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}

	opened := time.Since(opening)

	time.Sleep(settle)
	after, err := rss(pid)
	if err != nil {
		return err
	}
	closed, err := countClosed(conns)
	if err != nil {
		return err
	}
	if closed > 0 {
		return fmt.Errorf("the server closed or answered %d of %d connections", closed, n)
	}
	fmt.Printf("conns=%d mode=%s open_secs=%.1f rss_before=%d rss_after=%d per_conn_bytes=%.0f\n",
		n, mode, opened.Seconds(), before, after, float64(after-before)/float64(n))
	return nil
}

// ping sends PING and reads the reply.
func ping(c net.Conn, _ int) error {
	if _, err := c.Write([]byte("*1\r\n$4\r\nPING\r\n")); err != nil {
		return err
	}
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, err := bufio.NewReaderSize(c, 64).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING: %q", strings.TrimSpace(line))
	}
	return nil
}

// subscribe sends SUBSCRIBE chan:<ch> and reads the confirmation, ["subscribe", channel, 1].
func subscribe(c net.Conn, ch int) error {
	name := "chan:" + strconv.Itoa(ch)
	cmd := fmt.Sprintf("*2\r\n$9\r\nSUBSCRIBE\r\n$%d\r\n%s\r\n", len(name), name)
	if _, err := c.Write([]byte(cmd)); err != nil {
		return err
	}
	want := fmt.Sprintf("*3\r\n$9\r\nsubscribe\r\n$%d\r\n%s\r\n:1\r\n", len(name), name)
	got := make([]byte, len(want))
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.ReadFull(c, got); err != nil {
		return fmt.Errorf("SUBSCRIBE: %w (read %q)", err, got)
	}
	if string(got) != want {
		return fmt.Errorf("SUBSCRIBE: %q, want %q", got, want)
	}
	return nil
}

// partialSet sends the first sent bytes of SET conn:<i> <value bytes of 'x'>; the server has no
// reply to give until the rest arrives, which it never does.
func partialSet(c net.Conn, i, value, sent int) error {
	key := "conn:" + strconv.Itoa(i)
	cmd := fmt.Sprintf("*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n", len(key), key, value)
	if sent < len(cmd) || sent > len(cmd)+value {
		return fmt.Errorf("-sent must be between %d and %d", len(cmd), len(cmd)+value)
	}
	_, err := c.Write([]byte(cmd + strings.Repeat("x", sent-len(cmd))))
	return err
}

// countClosed counts connections the server has closed or written to (an error reply, such as
// max clients reached), peeking at each socket without waiting.
func countClosed(conns []net.Conn) (int, error) {
	closed := 0
	var b [64]byte
	for _, c := range conns {
		rc, err := c.(*net.TCPConn).SyscallConn()
		if err != nil {
			return 0, err
		}
		var rerr error
		if err := rc.Read(func(fd uintptr) bool {
			_, _, rerr = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
			return true
		}); err != nil {
			return 0, err
		}
		if rerr != syscall.EAGAIN {
			closed++ // end of file, bytes to read, or a reset
		}
	}
	return closed, nil
}

// rss returns the resident set size of process pid in bytes, from /proc/pid/status.
func rss(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
