// Command pubsub measures PUBLISH fan-out: it opens -subs subscriber connections to one channel
// (raw RESP2, each reading and counting its messages), checks PUBSUB NUMSUB, reads the server's
// CPU time from /proc, publishes -msgs messages of -size bytes from -publishers connections
// (pipelined -pipeline deep, each reply checked to be the subscriber count), waits until every
// subscriber has received every message, reads the CPU time again and prints one line of
// key=value figures:
//
//	pubsub -addr 127.0.0.1:6379 -pid 1234 -subs 1000 -msgs 10000
//	subs=1000 msgs=10000 delivered=10000000 secs=... server_cpu_ticks=... delivered_per_s=...
//
// server_cpu_ticks is utime+stime of /proc/PID/stat over the publishing, in clock ticks
// (getconf CLK_TCK); bench/run.sh turns it into messages delivered per server CPU-second.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6379", "server address")
	pid := flag.Int("pid", 0, "server process id, for its CPU time")
	subs := flag.Int("subs", 1000, "subscriber connections, all on one channel")
	msgs := flag.Int("msgs", 10000, "messages published")
	publishers := flag.Int("publishers", 4, "publisher connections; the messages are split among them")
	pipeline := flag.Int("pipeline", 32, "PUBLISH commands each publisher sends before reading their replies")
	size := flag.Int("size", 16, "message size, bytes")
	channel := flag.String("channel", "bench:fanout", "the channel")
	timeout := flag.Duration("timeout", 10*time.Minute, "give up when the deliveries take longer")
	flag.Parse()
	cfg := config{*addr, *pid, *subs, *msgs, *publishers, *pipeline, *size, *channel, *timeout}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "pubsub:", err)
		os.Exit(1)
	}
}

// config holds the flags.
type config struct {
	addr                             string
	pid                              int
	subs, msgs, publishers, pipeline int
	size                             int
	channel                          string
	timeout                          time.Duration
}

// run measures once; see the package comment.
func run(cfg config) error {
	if cfg.subs < 1 || cfg.msgs < 1 || cfg.publishers < 1 || cfg.pipeline < 1 || cfg.size < 0 {
		return errors.New("-subs, -msgs, -publishers and -pipeline must be at least 1, -size at least 0")
	}
	subs, err := openSubscribers(cfg)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range subs {
			s.conn.Close()
		}
	}()
	if n, err := numsub(cfg.addr, cfg.channel); err != nil {
		return err
	} else if n != cfg.subs {
		return fmt.Errorf("PUBSUB NUMSUB %s: %d, want %d", cfg.channel, n, cfg.subs)
	}

	// Every subscriber counts its messages; done closes when all have them all.
	var complete atomic.Int64
	done := make(chan struct{})
	failed := make(chan error, len(subs))
	for _, s := range subs {
		go func() {
			if err := s.receive(cfg.msgs, cfg.channel); err != nil {
				failed <- err
				return
			}
			if complete.Add(1) == int64(len(subs)) {
				close(done)
			}
		}()
	}

	cpu0, err := cpuTicks(cfg.pid)
	if err != nil {
		return err
	}
	start := time.Now()
	if err := publish(cfg); err != nil {
		return err
	}
	select {
	case <-done:
	case err := <-failed:
		return err
	case <-time.After(cfg.timeout):
		return fmt.Errorf("after %v, %d of %d subscribers have every message", cfg.timeout, complete.Load(), len(subs))
	}
	secs := time.Since(start).Seconds()
	cpu1, err := cpuTicks(cfg.pid)
	if err != nil {
		return err
	}
	delivered := int64(0)
	for _, s := range subs {
		delivered += s.count
	}
	fmt.Printf("subs=%d msgs=%d delivered=%d secs=%.3f server_cpu_ticks=%d delivered_per_s=%.0f\n",
		cfg.subs, cfg.msgs, delivered, secs, cpu1-cpu0, float64(delivered)/secs)
	return nil
}

// subscriber is one subscribed connection.
type subscriber struct {
	conn  net.Conn
	r     *bufio.Reader
	count int64 // messages received; read by run once receive has returned
}

// openSubscribers opens cfg.subs connections, 32 at a time, each subscribed to cfg.channel.
func openSubscribers(cfg config) ([]*subscriber, error) {
	subs := make([]*subscriber, cfg.subs)
	next := make(chan int)
	errs := make([]error, 32)
	var wg sync.WaitGroup
	for w := range errs {
		wg.Go(func() {
			for i := range next {
				s, err := subscribe(cfg.addr, cfg.channel)
				if err != nil && errs[w] == nil {
					errs[w] = fmt.Errorf("subscriber %d: %w", i, err)
				}
				subs[i] = s
			}
		})
	}
	for i := range subs {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, s := range subs {
			if s != nil {
				s.conn.Close()
			}
		}
		return nil, err
	}
	return subs, nil
}

// subscribe opens a connection, sends SUBSCRIBE channel and reads the confirmation.
func subscribe(addr, channel string) (*subscriber, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	if _, err := c.Write(command("SUBSCRIBE", channel)); err != nil {
		c.Close()
		return nil, err
	}
	s := &subscriber{conn: c, r: bufio.NewReaderSize(c, 64<<10)}
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	kind, err := s.readPush(channel)
	if err == nil && kind != "subscribe" {
		err = fmt.Errorf("SUBSCRIBE answered %q", kind)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	c.SetReadDeadline(time.Time{})
	return s, nil
}

// receive reads n messages on channel.
func (s *subscriber) receive(n int, channel string) error {
	for s.count < int64(n) {
		kind, err := s.readPush(channel)
		if err != nil {
			return fmt.Errorf("after %d messages: %w", s.count, err)
		}
		if kind != "message" {
			return fmt.Errorf("after %d messages: a %q", s.count, kind)
		}
		s.count++
	}
	return nil
}

// readPush reads one three-element pub/sub reply, [kind, channel, data or count], checks the
// channel and returns the kind. The data is skipped.
func (s *subscriber) readPush(channel string) (string, error) {
	line, err := s.r.ReadSlice('\n')
	if err != nil {
		return "", err
	}
	if string(line) != "*3\r\n" && string(line) != ">3\r\n" {
		return "", fmt.Errorf("got %q, want a three-element array", line)
	}
	kind, err := s.readBulk(true)
	if err != nil {
		return "", err
	}
	ch, err := s.readBulk(true)
	if err != nil {
		return "", err
	}
	if ch != channel {
		return "", fmt.Errorf("a %s on channel %q, want %q", kind, ch, channel)
	}
	if kind == "message" {
		_, err = s.readBulk(false)
	} else {
		_, err = s.r.ReadSlice('\n') // the subscription count, an integer
	}
	return kind, err
}

// readBulk reads a bulk string, returning its text when keep is set and skipping it otherwise.
func (s *subscriber) readBulk(keep bool) (string, error) {
	line, err := s.r.ReadSlice('\n')
	if err != nil {
		return "", err
	}
	if len(line) < 4 || line[0] != '$' {
		return "", fmt.Errorf("got %q, want a bulk string", line)
	}
	n, err := strconv.Atoi(string(line[1 : len(line)-2]))
	if err != nil || n < 0 {
		return "", fmt.Errorf("bulk length %q", line)
	}
	if !keep {
		_, err := s.r.Discard(n + 2)
		return "", err
	}
	b := make([]byte, n+2)
	if _, err := io.ReadFull(s.r, b); err != nil {
		return "", err
	}
	return string(b[:n]), nil
}

// publish sends cfg.msgs PUBLISH commands split among cfg.publishers connections, each
// pipelined cfg.pipeline deep, and checks every reply is the subscriber count.
func publish(cfg config) error {
	errs := make([]error, cfg.publishers)
	var wg sync.WaitGroup
	for p := range cfg.publishers {
		n := cfg.msgs / cfg.publishers
		if p < cfg.msgs%cfg.publishers {
			n++
		}
		wg.Go(func() { errs[p] = publishOne(cfg, n) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// publishOne publishes n messages on one connection.
func publishOne(cfg config, n int) error {
	c, err := net.Dial("tcp", cfg.addr)
	if err != nil {
		return err
	}
	defer c.Close()
	r := bufio.NewReader(c)
	msg := command("PUBLISH", cfg.channel, strings.Repeat("m", cfg.size))
	want := ":" + strconv.Itoa(cfg.subs) + "\r\n"
	var batch bytes.Buffer
	for sent := 0; sent < n; {
		k := min(cfg.pipeline, n-sent)
		batch.Reset()
		for range k {
			batch.Write(msg)
		}
		if _, err := c.Write(batch.Bytes()); err != nil {
			return err
		}
		for range k {
			line, err := r.ReadString('\n')
			if err != nil {
				return err
			}
			if line != want {
				return fmt.Errorf("PUBLISH answered %q, want %q", line, want)
			}
		}
		sent += k
	}
	return nil
}

// numsub returns PUBSUB NUMSUB channel's count.
func numsub(addr, channel string) (int, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.Write(command("PUBSUB", "NUMSUB", channel)); err != nil {
		return 0, err
	}
	// *2 $len channel :count
	r := bufio.NewReader(c)
	var lines []string
	for range 4 {
		line, err := r.ReadString('\n')
		if err != nil {
			return 0, err
		}
		lines = append(lines, strings.TrimSuffix(line, "\r\n"))
	}
	if lines[0] != "*2" || lines[2] != channel || !strings.HasPrefix(lines[3], ":") {
		return 0, fmt.Errorf("PUBSUB NUMSUB answered %q", lines)
	}
	return strconv.Atoi(lines[3][1:])
}

// command encodes args as a RESP multibulk request.
func command(args ...string) []byte {
	b := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	return b
}

// cpuTicks returns process pid's utime+stime in clock ticks (/proc/PID/stat fields 14 and 15,
// counted after the parenthesised command name, which may hold spaces).
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return u + s, nil
}
