// Command blocked measures blocked clients: what a client parked in BLPOP costs a server in
// memory, and how long a blocked client takes to get its element once another client pushes
// one.
//
// -mode blocked reads the server's RSS (/proc/PID/status) and used_memory (INFO memory), opens
// -n connections that each send BLPOP key:<i> 0 on its own key, waits until INFO clients says
// blocked_clients is -n, waits -settle and reads both again; it then checks that no connection
// was answered or closed, wakes every client with one pipelined LPUSH key:<i> per key and checks
// each reply ([key:<i>, v]). -mode idle does the same with a PING (its PONG read) in place of
// the BLPOP, for the same number of idle connections on another fresh server. One line of
// key=value figures; per_conn figures are the deltas over the first reading ÷ -n, in bytes:
//
//	blocked -mode blocked -addr 127.0.0.1:6379 -pid 1234 -n 10000
//	conns=10000 mode=blocked rss_before=... rss_after=... used_before=... used_after=...
//	  rss_per_conn=... used_per_conn=...
//
// -mode wake runs -rounds rounds on two connections: the waiter sends BLPOP wake:key 0, the
// client polls INFO clients on a third connection until blocked_clients is 1 (so the push
// cannot arrive before the client is parked), then the pusher sends LPUSH wake:key v; the
// latency is from that write to the moment the waiter has read its whole reply. Percentiles of
// the rounds, in µs; lpush_* is the same up to the pusher's own reply, read after the waiter's:
//
//	blocked -mode wake -addr 127.0.0.1:6379 -rounds 10000
//	rounds=10000 wake_p50_us=... wake_p99_us=... wake_p999_us=... wake_mean_us=... lpush_p50_us=...
//
// 10,000 connections need an open files limit above 10,000 on both sides; Go raises the
// client's soft limit to the hard one at start-up.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6379", "server address")
	mode := flag.String("mode", "blocked", "blocked: RSS and used_memory of -n clients in BLPOP; idle: of -n connections after a PING; wake: LPUSH to BLPOP reply latency")
	pid := flag.Int("pid", 0, "blocked and idle modes: server process id, for its RSS")
	n := flag.Int("n", 10000, "blocked and idle modes: connections (blocked: each on its own key)")
	settle := flag.Duration("settle", 5*time.Second, "blocked and idle modes: wait after the last client spoke before reading")
	dialers := flag.Int("dialers", 32, "blocked and idle modes: connections opened at once")
	rounds := flag.Int("rounds", 10000, "wake mode: rounds")
	flag.Parse()
	var err error
	switch *mode {
	case "blocked", "idle":
		err = memory(*addr, *pid, *n, *settle, *dialers, *mode == "blocked")
	case "wake":
		err = wake(*addr, *rounds)
	default:
		err = fmt.Errorf("unknown -mode %q", *mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "blocked:", err)
		os.Exit(1)
	}
}

// reading is the server's memory at one point.
type reading struct{ rss, used int64 }

// read takes a reading of the server: RSS from /proc, used_memory through ctl.
func read(ctl *conn, pid int) (reading, error) {
	r, err := rss(pid)
	if err != nil {
		return reading{}, err
	}
	u, err := ctl.infoField("memory", "used_memory")
	return reading{rss: r, used: u}, err
}

// memory measures once in blocked mode (block) or idle mode; see the package comment.
func memory(addr string, pid, n int, settle time.Duration, dialers int, block bool) error {
	if pid <= 0 {
		return errors.New("-pid is needed")
	}
	ctl, err := dial(addr)
	if err != nil {
		return err
	}
	defer ctl.Close()
	before, err := read(ctl, pid)
	if err != nil {
		return err
	}

	conns := make([]*conn, n)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	err = each(n, dialers, func(i int) error {
		c, err := dial(addr)
		if err != nil {
			return err
		}
		conns[i] = c
		if block {
			return c.send("BLPOP", key(i), "0")
		}
		return c.expect("PING", "+PONG\r\n", "PING")
	})
	if err != nil {
		return err
	}
	if block {
		// Every client is parked once the server says so; a server that answered some
		// instead (no blocking, or an error) is caught by countAnswered below.
		deadline := time.Now().Add(60 * time.Second)
		for {
			b, err := ctl.infoField("clients", "blocked_clients")
			if err != nil {
				return err
			}
			if b == int64(n) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("blocked_clients is %d after 60 s, want %d", b, n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	time.Sleep(settle)
	after, err := read(ctl, pid)
	if err != nil {
		return err
	}
	answered, err := countAnswered(conns)
	if err != nil {
		return err
	}
	if answered > 0 {
		return fmt.Errorf("the server answered or closed %d of %d connections", answered, n)
	}

	if block { // wake them all: a blocked client must get its own key's element
		var b []byte
		for i := range n {
			b = appendCommand(b, "LPUSH", key(i), "v")
		}
		if _, err := ctl.c.Write(b); err != nil {
			return err
		}
		for i := range n {
			if err := ctl.reply(":1\r\n", "LPUSH "+key(i)); err != nil {
				return err
			}
		}
		err = each(n, dialers, func(i int) error {
			k := key(i)
			return conns[i].reply(fmt.Sprintf("*2\r\n$%d\r\n%s\r\n$1\r\nv\r\n", len(k), k), "BLPOP "+k)
		})
		if err != nil {
			return err
		}
	}

	mode := map[bool]string{true: "blocked", false: "idle"}[block]
	fmt.Printf("conns=%d mode=%s rss_before=%d rss_after=%d used_before=%d used_after=%d rss_per_conn=%.0f used_per_conn=%.0f\n",
		n, mode, before.rss, after.rss, before.used, after.used,
		float64(after.rss-before.rss)/float64(n), float64(after.used-before.used)/float64(n))
	return nil
}

// wake measures in wake mode; see the package comment.
func wake(addr string, rounds int) error {
	if rounds < 1 {
		return errors.New("-rounds must be at least 1")
	}
	var cs [3]*conn
	for i := range cs {
		c, err := dial(addr)
		if err != nil {
			return err
		}
		defer c.Close()
		cs[i] = c
	}
	waiter, pusher, ctl := cs[0], cs[1], cs[2]
	const k = "wake:key"
	if err := ctl.integer("DEL", k); err != nil {
		return err
	}
	push := appendCommand(nil, "LPUSH", k, "v")
	wakeReply := fmt.Sprintf("*2\r\n$%d\r\n%s\r\n$1\r\nv\r\n", len(k), k)
	wakes := make([]time.Duration, rounds)
	acks := make([]time.Duration, rounds)
	for r := range rounds {
		if err := waiter.send("BLPOP", k, "0"); err != nil {
			return err
		}
		for polls := 0; ; polls++ {
			b, err := ctl.infoField("clients", "blocked_clients")
			if err != nil {
				return err
			}
			if b == 1 {
				break
			}
			if polls == 100000 {
				return fmt.Errorf("round %d: blocked_clients is %d, want 1", r, b)
			}
		}
		t0 := time.Now()
		if _, err := pusher.c.Write(push); err != nil {
			return err
		}
		if err := waiter.reply(wakeReply, "BLPOP"); err != nil {
			return err
		}
		wakes[r] = time.Since(t0)
		if err := pusher.reply(":1\r\n", "LPUSH"); err != nil {
			return err
		}
		acks[r] = time.Since(t0)
	}
	fmt.Printf("rounds=%d wake_p50_us=%.1f wake_p99_us=%.1f wake_p999_us=%.1f wake_mean_us=%.1f lpush_p50_us=%.1f lpush_p99_us=%.1f\n",
		rounds, pct(wakes, 50), pct(wakes, 99), pct(wakes, 99.9), mean(wakes), pct(acks, 50), pct(acks, 99))
	return nil
}

// pct returns the q-th percentile of ds in µs (nearest rank); it sorts ds.
func pct(ds []time.Duration, q float64) float64 {
	slices.Sort(ds)
	i := int(float64(len(ds))*q/100+0.999999) - 1
	return float64(ds[max(0, min(i, len(ds)-1))]) / 1e3
}

// mean returns the mean of ds in µs.
func mean(ds []time.Duration) float64 {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return float64(s) / float64(len(ds)) / 1e3
}

// key is the key connection i blocks on.
func key(i int) string { return "key:" + strconv.Itoa(i) }

// each runs fn(0) … fn(n-1) on workers goroutines and returns the first error of each worker.
func each(n, workers int, fn func(i int) error) error {
	next := make(chan int)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range next {
				if err := fn(i); err != nil && errs[w] == nil {
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
	return errors.Join(errs...)
}

// conn is a RESP2 connection with a small read buffer.
type conn struct {
	c net.Conn
	r *bufio.Reader
}

func dial(addr string) (*conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &conn{c: c, r: bufio.NewReaderSize(c, 4096)}, nil
}

func (c *conn) Close() error { return c.c.Close() }

// appendCommand appends args as a RESP array of bulk strings.
func appendCommand(b []byte, args ...string) []byte {
	b = fmt.Appendf(b, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	return b
}

// send writes one command.
func (c *conn) send(args ...string) error {
	_, err := c.c.Write(appendCommand(nil, args...))
	return err
}

// reply reads exactly len(want) bytes (within 60 s) and checks they are want.
func (c *conn) reply(want, what string) error {
	got := make([]byte, len(want))
	c.c.SetReadDeadline(time.Now().Add(60 * time.Second))
	if _, err := io.ReadFull(c.r, got); err != nil {
		return fmt.Errorf("%s: %w (read %q)", what, err, got)
	}
	if string(got) != want {
		return fmt.Errorf("%s: %q, want %q", what, got, want)
	}
	return nil
}

// expect sends a command of one word and checks its reply.
func (c *conn) expect(cmd, want, what string) error {
	if err := c.send(cmd); err != nil {
		return err
	}
	return c.reply(want, what)
}

// integer sends a command and accepts any integer reply.
func (c *conn) integer(args ...string) error {
	what := strings.Join(args, " ")
	if err := c.send(args...); err != nil {
		return err
	}
	c.c.SetReadDeadline(time.Now().Add(60 * time.Second))
	line, err := c.r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if !strings.HasPrefix(line, ":") {
		return fmt.Errorf("%s: %q", what, strings.TrimSpace(line))
	}
	return nil
}

// infoField sends INFO section and returns the integer field name, failing when it is missing.
func (c *conn) infoField(section, name string) (int64, error) {
	if err := c.send("INFO", section); err != nil {
		return 0, err
	}
	c.c.SetReadDeadline(time.Now().Add(60 * time.Second))
	head, err := c.r.ReadString('\n')
	if err != nil {
		return 0, err
	}
	size, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(head, "$")))
	if !strings.HasPrefix(head, "$") || err != nil {
		return 0, fmt.Errorf("INFO %s: %q", section, strings.TrimSpace(head))
	}
	body := make([]byte, size+2)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(body)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("INFO %s has no %s", section, name)
}

// countAnswered counts connections the server has closed or written to, peeking at each
// socket without waiting or consuming.
func countAnswered(conns []*conn) (int, error) {
	answered := 0
	var b [64]byte
	for _, c := range conns {
		if c.r.Buffered() > 0 {
			answered++
			continue
		}
		rc, err := c.c.(*net.TCPConn).SyscallConn()
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
			answered++ // end of file, bytes to read, or a reset
		}
	}
	return answered, nil
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
