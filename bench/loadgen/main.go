// Command loadgen is the benchmark's open-loop load generator: GETs of keys that exist, sent at
// Poisson arrival times at a fixed total rate over several connections. Each request's latency
// is measured from the time it was meant to be sent, not from when it was written, so a server
// that stalls is charged for every request it delayed (no coordinated omission), and the sender
// never waits for replies. It prints one line of key=value figures in microseconds.
//
//	loadgen -addr 127.0.0.1:6379 -keys 1000 -rate 20000 -conns 8 -duration 10s -warmup 1s
//
// Keys are -prefix followed by a zero-padded number below -keys (key:%012d, as redis-benchmark
// and respgen write them); a GET that misses or fails makes the run fail.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	var cfg config
	flag.StringVar(&cfg.addr, "addr", "127.0.0.1:6379", "server address")
	flag.Float64Var(&cfg.rate, "rate", 20000, "requests per second, all connections together")
	flag.IntVar(&cfg.conns, "conns", 8, "connections")
	flag.DurationVar(&cfg.duration, "duration", 10*time.Second, "how long to send, warmup included")
	flag.DurationVar(&cfg.warmup, "warmup", time.Second, "requests meant to be sent before this are not counted")
	flag.IntVar(&cfg.keys, "keys", 1000, "number of loaded keys to GET from")
	flag.StringVar(&cfg.prefix, "prefix", "key:", "key prefix")
	flag.IntVar(&cfg.width, "width", 12, "digits of the zero-padded key number")
	flag.Uint64Var(&cfg.seed, "seed", uint64(time.Now().UnixNano()), "random seed")
	flag.Parse()

	res, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	l := res.latency
	fmt.Printf("requests=%d rate=%.0f p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f mean_us=%.1f sendlag_p99_us=%.1f\n",
		l.Count(), float64(l.Count())/(cfg.duration-cfg.warmup).Seconds(),
		us(l.Percentile(50)), us(l.Percentile(90)), us(l.Percentile(99)), us(l.Percentile(99.9)),
		us(l.Max()), l.Mean()/1e3, us(res.sendLag.Percentile(99)))
	if res.misses > 0 || res.errors > 0 {
		fmt.Fprintf(os.Stderr, "loadgen: %d GETs missed and %d failed: load the keys first\n", res.misses, res.errors)
		os.Exit(1)
	}
}
