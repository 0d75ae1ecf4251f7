// Command loadgen is the benchmark's open-loop load generator: GETs of keys that exist (and with
// -set-pct, SETs of them mixed in), sent at Poisson arrival times at a fixed total rate over
// several connections. Each request's latency
// is measured from the time it was meant to be sent, not from when it was written, so a server
// that stalls is charged for every request it delayed (no coordinated omission), and the sender
// never waits for replies. It prints one line of key=value figures in microseconds.
//
//	loadgen -addr 127.0.0.1:6379 -keys 1000 -rate 20000 -conns 8 -duration 10s -warmup 1s
//
// Keys are -prefix followed by a zero-padded number below -keys (key:%012d, as redis-benchmark
// and respgen write them); a GET that misses or a request that fails makes the run fail.
//
// With -window, only requests meant to be sent between the first SIGUSR1 and the first SIGUSR2
// the process receives count, and sending stops at SIGUSR2 (-duration becomes a time limit, and
// -warmup is unused): bench/persist signals it around a BGSAVE, so that the figures are those of
// requests sent while the save ran.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	var cfg config
	// Before anything else: SIGUSR1's default action would end the process.
	usr := make(chan os.Signal, 2)
	signal.Notify(usr, syscall.SIGUSR1, syscall.SIGUSR2)
	flag.StringVar(&cfg.addr, "addr", "127.0.0.1:6379", "server address")
	flag.Float64Var(&cfg.rate, "rate", 20000, "requests per second, all connections together")
	flag.IntVar(&cfg.conns, "conns", 8, "connections")
	flag.DurationVar(&cfg.duration, "duration", 10*time.Second, "how long to send, warmup included")
	flag.DurationVar(&cfg.warmup, "warmup", time.Second, "requests meant to be sent before this are not counted")
	flag.IntVar(&cfg.keys, "keys", 1000, "number of loaded keys to GET from")
	flag.StringVar(&cfg.prefix, "prefix", "key:", "key prefix")
	flag.IntVar(&cfg.width, "width", 12, "digits of the zero-padded key number")
	flag.Uint64Var(&cfg.seed, "seed", uint64(time.Now().UnixNano()), "random seed")
	flag.IntVar(&cfg.setPct, "set-pct", 0, "percent of requests that are SETs (of -value bytes); the rest are GETs")
	flag.IntVar(&cfg.value, "value", 85, "SET value size in bytes")
	flag.BoolVar(&cfg.window, "window", false, "count only requests meant to be sent between SIGUSR1 and SIGUSR2; stop at SIGUSR2")
	flag.Parse()
	if cfg.window {
		// The first SIGUSR1 opens the window, the first SIGUSR2 after it closes it.
		ch := make(chan struct{}, 2)
		cfg.windowSignals = ch
		go func() {
			opened := false
			for s := range usr {
				if !opened && s == syscall.SIGUSR1 {
					opened = true
					ch <- struct{}{}
				} else if opened && s == syscall.SIGUSR2 {
					ch <- struct{}{}
					return
				}
			}
		}()
	}

	res, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	l := res.latency
	rate := 0.0
	if res.counted > 0 {
		rate = float64(l.Count()) / res.counted.Seconds()
	}
	fmt.Printf("requests=%d rate=%.0f p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f mean_us=%.1f sendlag_p99_us=%.1f",
		l.Count(), rate,
		us(l.Percentile(50)), us(l.Percentile(90)), us(l.Percentile(99)), us(l.Percentile(99.9)),
		us(l.Max()), l.Mean()/1e3, us(res.sendLag.Percentile(99)))
	if cfg.setPct > 0 {
		fmt.Printf(" gets=%d get_p50_us=%.1f get_p99_us=%.1f sets=%d set_p50_us=%.1f set_p99_us=%.1f",
			res.get.Count(), us(res.get.Percentile(50)), us(res.get.Percentile(99)),
			res.set.Count(), us(res.set.Percentile(50)), us(res.set.Percentile(99)))
	}
	fmt.Printf(" counted_s=%.3f\n", res.counted.Seconds())
	if res.misses > 0 || res.errors > 0 {
		fmt.Fprintf(os.Stderr, "loadgen: %d GETs missed and %d requests failed: load the keys first\n", res.misses, res.errors)
		os.Exit(1)
	}
}
