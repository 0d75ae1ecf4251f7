package main

import (
	"bufio"
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

// fakeServer answers every GET with a 3-byte value after delay; it returns its address.
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
					// Each GET is 5 lines: *2, $3, GET, $len, key.
					for range 5 {
						if _, err := br.ReadSlice('\n'); err != nil {
							return
						}
					}
					time.Sleep(delay)
					if _, err := c.Write([]byte("$3\r\nbar\r\n")); err != nil {
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
	if p50 := res.latency.Percentile(50); p50 <= 0 || p50 > int64(50*time.Millisecond) {
		t.Errorf("p50 = %v on loopback", time.Duration(p50))
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
