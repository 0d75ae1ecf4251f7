package main

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
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
	setPct           int             // percent of requests that are SETs of value bytes; the rest GET
	value            int             // SET value size
	window           bool            // count only between SIGUSR1 and SIGUSR2, stop at SIGUSR2
	windowSignals    <-chan struct{} // with window: receives once at SIGUSR1, once at SIGUSR2
}

// result holds what one run measured; only requests meant to be sent after the warmup count.
type result struct {
	latency *Histogram    // reply time minus intended send time, ns
	get     *Histogram    // … of the GETs
	set     *Histogram    // … of the SETs
	sendLag *Histogram    // actual minus intended send time, ns: how well the sender kept up
	misses  uint64        // null replies
	errors  uint64        // error replies
	counted time.Duration // the span of intended send times that counted
}

func newResult() *result {
	return &result{latency: NewHistogram(), get: NewHistogram(), set: NewHistogram()}
}

// request is one request in flight: its intended send time (ns since the start) and kind.
type request struct {
	intended int64
	set      bool
}

// span is the part of the run whose requests count, in ns since the start: from is set at the
// warmup's end, or at SIGUSR1 in window mode (until then nothing counts); to is set when the
// sender stops.
type span struct {
	from, to atomic.Int64
}

// maxOutstanding bounds the requests in flight on one connection; a server this far behind
// has failed the run anyway.
const maxOutstanding = 1 << 16

// conn is one connection: the sender writes requests and queues their intended send times
// (ns since the start) in pending, in order; the connection's reader pairs replies with them.
type conn struct {
	nc      net.Conn
	pending chan request
}

// run connects, sends for cfg.duration, waits for the last replies and merges the figures.
func run(cfg config) (*result, error) {
	if cfg.rate <= 0 || cfg.conns <= 0 || cfg.keys <= 0 || cfg.duration <= cfg.warmup {
		return nil, errors.New("need rate, conns and keys > 0 and duration > warmup")
	}
	if cfg.setPct < 0 || cfg.setPct > 100 || cfg.value < 0 {
		return nil, errors.New("need 0 <= set-pct <= 100 and value >= 0")
	}
	if cfg.window && cfg.windowSignals == nil {
		return nil, errors.New("window mode needs its signals")
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
		conns[i] = &conn{nc: nc, pending: make(chan request, maxOutstanding)}
	}

	start := time.Now()
	var counted span
	counted.from.Store(cfg.warmup.Nanoseconds())
	counted.to.Store(cfg.duration.Nanoseconds())
	if cfg.window {
		counted.from.Store(math.MaxInt64)
		counted.to.Store(math.MaxInt64)
		go func() {
			for i := range 2 {
				if _, ok := <-cfg.windowSignals; !ok {
					return
				}
				now := time.Since(start).Nanoseconds()
				if i == 0 {
					counted.from.Store(now)
				} else {
					counted.to.Store(now)
				}
			}
		}()
	}
	results := make([]*result, len(conns))
	readErrs := make([]error, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		results[i] = newResult()
		wg.Go(func() { readErrs[i] = c.read(start, &counted, results[i]) })
	}
	sendLag, sendErr := send(cfg, conns, start, &counted)
	for _, c := range conns {
		close(c.pending)
	}
	wg.Wait()

	res := newResult()
	res.sendLag = sendLag
	for _, r := range results {
		res.latency.Merge(r.latency)
		res.get.Merge(r.get)
		res.set.Merge(r.set)
		res.misses += r.misses
		res.errors += r.errors
	}
	if from, to := counted.from.Load(), counted.to.Load(); to > from {
		res.counted = time.Duration(to - from)
	}
	if cfg.window && sendErr == nil && counted.to.Load() == math.MaxInt64 {
		sendErr = fmt.Errorf("window mode: no SIGUSR2 within -duration %v", cfg.duration)
	}
	return res, errors.Join(append(readErrs, sendErr)...)
}

// send generates the arrivals of a Poisson process at cfg.rate and sends each as a GET (or, for
// cfg.setPct percent of them, a SET) of a random key on a random connection (which makes each
// connection's arrivals Poisson too). It stops at cfg.duration or, in window mode, at the end of
// the counted span, whichever is first. It runs on a locked OS thread so that sleepFor can sleep
// precisely.
func send(cfg config, conns []*conn, start time.Time, counted *span) (*Histogram, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	preciseSleepSetup()

	rng := rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x9e3779b97f4a7c15))
	lag := NewHistogram()
	end := cfg.duration.Nanoseconds()
	meanGap := 1e9 / cfg.rate
	value := make([]byte, cfg.value)
	for i := range value {
		value[i] = 'x'
	}
	var buf []byte
	intended := int64(0)
	for {
		intended += int64(rng.ExpFloat64() * meanGap)
		if intended >= end || intended >= counted.to.Load() {
			return lag, nil
		}
		now := time.Since(start).Nanoseconds()
		if now < intended {
			sleepFor(intended - now)
			now = time.Since(start).Nanoseconds()
		}
		if intended >= counted.from.Load() {
			lag.Record(now - intended)
		}
		c := conns[rng.IntN(len(conns))]
		req := request{intended: intended, set: rng.IntN(100) < cfg.setPct}
		c.pending <- req
		key := rng.IntN(cfg.keys)
		if req.set {
			buf = appendSet(buf[:0], cfg.prefix, cfg.width, key, value)
		} else {
			buf = appendGet(buf[:0], cfg.prefix, cfg.width, key)
		}
		if _, err := c.nc.Write(buf); err != nil {
			return lag, err
		}
	}
}

// read pairs each reply with its intended send time until pending is closed and drained.
// A request counts if it was meant to be sent inside the counted span; the span's start is
// known before any request meant after it is sent, so reading it late is safe.
func (c *conn) read(start time.Time, counted *span, res *result) error {
	br := bufio.NewReaderSize(c.nc, 64<<10)
	for req := range c.pending {
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
		if req.intended >= counted.from.Load() && req.intended < counted.to.Load() {
			d := now - req.intended
			res.latency.Record(d)
			if req.set {
				res.set.Record(d)
			} else {
				res.get.Record(d)
			}
		}
	}
	return nil
}

// appendGet appends GET <prefix><n zero-padded to width digits> in RESP.
func appendGet(b []byte, prefix string, width, n int) []byte {
	b = append(b, "*2\r\n$3\r\nGET\r\n$"...)
	b = strconv.AppendInt(b, int64(len(prefix)+width), 10)
	b = append(b, "\r\n"...)
	b = appendKey(b, prefix, width, n)
	return append(b, "\r\n"...)
}

// appendSet appends SET <prefix><n zero-padded to width digits> <value> in RESP.
func appendSet(b []byte, prefix string, width, n int, value []byte) []byte {
	b = append(b, "*3\r\n$3\r\nSET\r\n$"...)
	b = strconv.AppendInt(b, int64(len(prefix)+width), 10)
	b = append(b, "\r\n"...)
	b = appendKey(b, prefix, width, n)
	b = append(b, "\r\n$"...)
	b = strconv.AppendInt(b, int64(len(value)), 10)
	b = append(b, "\r\n"...)
	b = append(b, value...)
	return append(b, "\r\n"...)
}

// appendKey appends prefix and n zero-padded to width digits.
func appendKey(b []byte, prefix string, width, n int) []byte {
	b = append(b, prefix...)
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for range width - len(d) {
		b = append(b, '0')
	}
	return append(b, d...)
}

// readReply reads one RESP2 reply to a GET or SET and returns its kind: '$' for a bulk string, '_' for
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
