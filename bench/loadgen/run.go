package main

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"runtime"
	"strconv"
	"sync"
	"time"
)

// config is what one run sends; see the flags in main.
type config struct {
	addr             string
	rate             float64
	conns            int
	duration, warmup time.Duration
	keys             int
	prefix           string
	width            int
	seed             uint64
}

// result holds what one run measured; only requests meant to be sent after the warmup count.
type result struct {
	latency *Histogram // reply time minus intended send time, ns
	sendLag *Histogram // actual minus intended send time, ns: how well the sender kept up
	misses  uint64     // null replies
	errors  uint64     // error replies
}

// maxOutstanding bounds the requests in flight on one connection; a server this far behind
// has failed the run anyway.
const maxOutstanding = 1 << 16

// conn is one connection: the sender writes requests and queues their intended send times
// (ns since the start) in pending, in order; the connection's reader pairs replies with them.
type conn struct {
	nc      net.Conn
	pending chan int64
}

// run connects, sends for cfg.duration, waits for the last replies and merges the figures.
func run(cfg config) (*result, error) {
	if cfg.rate <= 0 || cfg.conns <= 0 || cfg.keys <= 0 || cfg.duration <= cfg.warmup {
		return nil, errors.New("need rate, conns and keys > 0 and duration > warmup")
	}
	conns := make([]*conn, cfg.conns)
	for i := range conns {
		nc, err := net.Dial("tcp", cfg.addr)
		if err != nil {
			return nil, err
		}
		defer nc.Close()
		// Replies owed after the last send get this long to arrive.
		nc.SetDeadline(time.Now().Add(cfg.duration + 10*time.Second))
		conns[i] = &conn{nc: nc, pending: make(chan int64, maxOutstanding)}
	}

	start := time.Now()
	warm := cfg.warmup.Nanoseconds()
	results := make([]*result, len(conns))
	readErrs := make([]error, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		results[i] = &result{latency: NewHistogram()}
		wg.Go(func() { readErrs[i] = c.read(start, warm, results[i]) })
	}
	sendLag, sendErr := send(cfg, conns, start)
	for _, c := range conns {
		close(c.pending)
	}
	wg.Wait()

	res := &result{latency: NewHistogram(), sendLag: sendLag}
	for _, r := range results {
		res.latency.Merge(r.latency)
		res.misses += r.misses
		res.errors += r.errors
	}
	return res, errors.Join(append(readErrs, sendErr)...)
}

// send generates the arrivals of a Poisson process at cfg.rate and sends each as a GET of a
// random key on a random connection (which makes each connection's arrivals Poisson too). It
// runs on a locked OS thread so that sleepFor can sleep precisely.
func send(cfg config, conns []*conn, start time.Time) (*Histogram, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	preciseSleepSetup()

	rng := rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x9e3779b97f4a7c15))
	lag := NewHistogram()
	end, warm := cfg.duration.Nanoseconds(), cfg.warmup.Nanoseconds()
	meanGap := 1e9 / cfg.rate
	var buf []byte
	intended := int64(0)
	for {
		intended += int64(rng.ExpFloat64() * meanGap)
		if intended >= end {
			return lag, nil
		}
		now := time.Since(start).Nanoseconds()
		if now < intended {
			sleepFor(intended - now)
			now = time.Since(start).Nanoseconds()
		}
		if intended >= warm {
			lag.Record(now - intended)
		}
		c := conns[rng.IntN(len(conns))]
		c.pending <- intended
		buf = appendGet(buf[:0], cfg.prefix, cfg.width, rng.IntN(cfg.keys))
		if _, err := c.nc.Write(buf); err != nil {
			return lag, err
		}
	}
}

// read pairs each reply with its intended send time until pending is closed and drained.
func (c *conn) read(start time.Time, warm int64, res *result) error {
	br := bufio.NewReaderSize(c.nc, 64<<10)
	for intended := range c.pending {
		kind, err := readReply(br)
		if err != nil {
			for range c.pending { // let the sender finish
			}
			return err
		}
		now := time.Since(start).Nanoseconds()
		switch kind {
		case '_':
			res.misses++
		case '-':
			res.errors++
		}
		if intended >= warm {
			res.latency.Record(now - intended)
		}
	}
	return nil
}

// appendGet appends GET <prefix><n zero-padded to width digits> in RESP.
func appendGet(b []byte, prefix string, width, n int) []byte {
	b = append(b, "*2\r\n$3\r\nGET\r\n$"...)
	b = strconv.AppendInt(b, int64(len(prefix)+width), 10)
	b = append(b, "\r\n"...)
	b = append(b, prefix...)
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for range width - len(d) {
		b = append(b, '0')
	}
	b = append(b, d...)
	return append(b, "\r\n"...)
}

// readReply reads one RESP2 reply to a GET and returns its kind: '$' for a bulk string, '_' for
// a null bulk string, '-' for an error, or the type byte of any other simple reply.
func readReply(br *bufio.Reader) (byte, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return 0, fmt.Errorf("malformed reply %q", line)
	}
	switch line[0] {
	case '$':
		n, err := strconv.Atoi(string(line[1 : len(line)-2]))
		if err != nil {
			return 0, fmt.Errorf("malformed bulk length %q", line)
		}
		if n < 0 {
			return '_', nil
		}
		if _, err := br.Discard(n + 2); err != nil {
			return 0, err
		}
		return '$', nil
	case '+', '-', ':':
		return line[0], nil
	}
	return 0, fmt.Errorf("unexpected reply %q", line)
}
