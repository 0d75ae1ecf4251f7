package main

import (
	"bufio"
	"math"
	"net"
	"strings"
	"testing"
	"time"
)

func TestAppendGet(t *testing.T) {
	got := string(appendGet(nil, "key:", 12, 42))
	if want := "*2\r\n$3\r\nGET\r\n$16\r\nkey:000000000042\r\n"; got != want {
		t.Errorf("appendGet = %q, want %q", got, want)
	}
}

func TestAppendSet(t *testing.T) {
	got := string(appendSet(nil, "key:", 12, 42, []byte("xyz")))
	if want := "*3\r\n$3\r\nSET\r\n$16\r\nkey:000000000042\r\n$3\r\nxyz\r\n"; got != want {
		t.Errorf("appendSet = %q, want %q", got, want)
	}
}

func TestReadReply(t *testing.T) {
	br := bufio.NewReader(strings.NewReader("$3\r\nabc\r\n$-1\r\n-ERR x\r\n+OK\r\n$0\r\n\r\n*1\r\n"))
	for _, want := range []byte{'$', '_', '-', '+', '$'} {
		if got, err := readReply(br); got != want || err != nil {
			t.Fatalf("readReply = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := readReply(br); err == nil {
		t.Error("an array reply to GET should be an error")
	}
}

// fakeServer answers every GET with a 3-byte value, and every SET with +OK, after delay; it returns its address.
func fakeServer(t *testing.T, delay time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					// A GET is 5 lines: *2, $3, GET, $len, key; a SET 7, the value's two more.
					head, err := br.ReadSlice('\n')
					if err != nil {
						return
					}
					set := string(head) == "*3\r\n"
					lines := 4
					if set {
						lines = 6
					}
					for range lines {
						if _, err := br.ReadSlice('\n'); err != nil {
							return
						}
					}
					time.Sleep(delay)
					reply := "$3\r\nbar\r\n"
					if set {
						reply = "+OK\r\n"
					}
					if _, err := c.Write([]byte(reply)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

func TestOpenLoopRateAndLatency(t *testing.T) {
	cfg := config{addr: fakeServer(t, 0), rate: 5000, conns: 4, duration: 600 * time.Millisecond,
		warmup: 100 * time.Millisecond, keys: 10, prefix: "key:", width: 12, seed: 1}
	res, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Poisson arrivals at 5000/s over 0.5 s: 2500 expected, standard deviation 50.
	if n := res.latency.Count(); n < 2200 || n > 2800 {
		t.Errorf("counted %d requests, want about 2500", n)
	}
	if res.misses != 0 || res.errors != 0 {
		t.Errorf("misses %d errors %d", res.misses, res.errors)
	}
	// Latency itself is the machine's (no bound: timings are not pass/fail); it must be measured.
	if p50 := res.latency.Percentile(50); p50 <= 0 {
		t.Errorf("p50 = %v: no latency recorded", time.Duration(p50))
	}
}

// A server that stalls each reply must show the stall in every percentile even though a
// closed-loop client would see few slow requests: latency runs from the intended send time.
func TestNoCoordinatedOmission(t *testing.T) {
	delay := 2 * time.Millisecond
	// One connection served one request at a time at 2 ms each can do 500/s; offer 1000/s.
	cfg := config{addr: fakeServer(t, delay), rate: 1000, conns: 1, duration: 150 * time.Millisecond,
		keys: 10, prefix: "key:", width: 12, seed: 2}
	res, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The queue grows all run long: the median request waits behind dozens of others.
	if p50 := time.Duration(res.latency.Percentile(50)); p50 < 20*delay {
		t.Errorf("p50 = %v: queueing behind the stalled server is not counted", p50)
	}
}

// A SET/GET mix is split as asked, each kind in its own histogram, and -warmup's requests are
// left out of both.
func TestSetGetMix(t *testing.T) {
	cfg := config{addr: fakeServer(t, 0), rate: 5000, conns: 4, duration: 600 * time.Millisecond,
		warmup: 100 * time.Millisecond, keys: 10, prefix: "key:", width: 12, seed: 3, setPct: 30, value: 85}
	res, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gets, sets := res.get.Count(), res.set.Count()
	if gets+sets != res.latency.Count() {
		t.Errorf("%d GETs + %d SETs != %d requests", gets, sets, res.latency.Count())
	}
	// About 2500 requests, 30% SETs: 750, standard deviation about 25.
	if sets < 600 || sets > 900 {
		t.Errorf("%d SETs of %d requests, want about 30%%", sets, gets+sets)
	}
	if d := res.counted; d != 500*time.Millisecond {
		t.Errorf("counted span %v, want 500ms", d)
	}
}

// In window mode only the requests meant to be sent between the two signals count, and sending
// stops at the second one, long before -duration. The signals' times are the scheduler's, so the
// test checks no wall-clock figure: the count must match the span the window actually had (the
// arrivals are Poisson at the rate, by intended send time, so a loaded machine changes neither).
func TestWindow(t *testing.T) {
	sig := make(chan struct{}, 2)
	const rate = 5000
	cfg := config{addr: fakeServer(t, 0), rate: rate, conns: 2, duration: 10 * time.Second,
		keys: 10, prefix: "key:", width: 12, seed: 4, window: true, windowSignals: sig}
	go func() {
		time.Sleep(200 * time.Millisecond)
		sig <- struct{}{}
		time.Sleep(300 * time.Millisecond)
		sig <- struct{}{}
	}()
	began := time.Now()
	res, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took >= cfg.duration {
		t.Errorf("run took %v: sending did not stop at the second signal", took)
	}
	if res.counted <= 0 {
		t.Fatalf("counted span %v: the window never opened", res.counted)
	}
	// Poisson: the count is within 5 standard deviations of rate × span (plus one request for
	// the span's rounding).
	want := rate * res.counted.Seconds()
	if n := float64(res.latency.Count()); math.Abs(n-want) > 5*math.Sqrt(want)+1 {
		t.Errorf("counted %v requests in a window of %v at %d/s, want about %.0f", n, res.counted, rate, want)
	}
}

// A window that never closes is an error, not a run that silently counted nothing.
func TestWindowNeverClosed(t *testing.T) {
	cfg := config{addr: fakeServer(t, 0), rate: 1000, conns: 1, duration: 200 * time.Millisecond,
		keys: 10, prefix: "key:", width: 12, seed: 5, window: true, windowSignals: make(chan struct{})}
	if _, err := run(cfg); err == nil {
		t.Error("no error without the closing signal")
	}
}
