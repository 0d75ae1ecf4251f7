// Command zset writes the sorted-set loads of measurement 10 in RESP to stdout, for
// `redis-cli --pipe` (as bench/respgen does for the other types):
//
//	zset -cmd zadd -key bigzset -prefix member: -width 10 -n 1000000 | redis-cli --pipe
//
// It writes -n commands, one per number i from -start, where name(i) is -prefix followed by i
// zero-padded to -width digits (-width 0 is no padding); with -shuffle the numbers come in a
// fixed pseudo-random order (the same on every run), as a set built by ZADDs over time is,
// rather than ascending. -cmd chooses the command:
//
//	zadd    ZADD -key i name(i): one member per command, all in one sorted set, score i
//	zaddn   ZADD name(i) 0 m0 1 m1 … M-1 m<M-1>, M = -members: a sorted set per command
//	geoadd  GEOADD -key lon lat name(i): one place per command, all in one key, at a position
//	        drawn from i (the same on every run) in a 10° × 10° square from 10°E 35°N, about
//	        one place per km² for 1,000,000 places
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
)

func main() {
	n := flag.Int("n", 1000, "number of commands")
	start := flag.Int("start", 0, "first number")
	prefix := flag.String("prefix", "member:", "member (or key) prefix")
	width := flag.Int("width", 10, "digits of the zero-padded number, 0 for none")
	cmd := flag.String("cmd", "zadd", "zadd, zaddn or geoadd")
	key := flag.String("key", "", "the one key of zadd and geoadd")
	members := flag.Int("members", 10, "members per sorted set of zaddn")
	shuffle := flag.Bool("shuffle", false, "write the numbers in a fixed pseudo-random order")
	flag.Parse()
	if last := len(strconv.Itoa(*start + *n - 1)); *width > 0 && last > *width {
		fmt.Fprintf(os.Stderr, "zset: numbers need %d digits, -width is %d\n", last, *width)
		os.Exit(2)
	}
	gen, err := generator(*cmd, *key, *prefix, *width, *members)
	if err != nil {
		fmt.Fprintf(os.Stderr, "zset: %v\n", err)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	order := numbers(*start, *n, *shuffle)
	if write(w, gen, order) != nil || w.Flush() != nil {
		os.Exit(1) // the reader went away
	}
}

// generator returns the function appending command i of -cmd.
func generator(cmd, key, prefix string, width, members int) (func(b []byte, i int) []byte, error) {
	switch cmd {
	case "zadd":
		if key == "" {
			return nil, fmt.Errorf("-cmd zadd needs -key")
		}
		return func(b []byte, i int) []byte {
			b = appendBulk(append(b, "*4\r\n$4\r\nZADD\r\n"...), key)
			b = appendBulk(b, strconv.Itoa(i))
			return appendName(b, prefix, i, width)
		}, nil
	case "zaddn":
		return func(b []byte, i int) []byte {
			b = fmt.Appendf(b, "*%d\r\n$4\r\nZADD\r\n", 2+2*members)
			b = appendName(b, prefix, i, width)
			for m := range members {
				b = appendBulk(appendBulk(b, strconv.Itoa(m)), "m"+strconv.Itoa(m))
			}
			return b
		}, nil
	case "geoadd":
		if key == "" {
			return nil, fmt.Errorf("-cmd geoadd needs -key")
		}
		return func(b []byte, i int) []byte {
			lon, lat := place(i)
			b = appendBulk(append(b, "*5\r\n$6\r\nGEOADD\r\n"...), key)
			b = appendBulk(b, strconv.FormatFloat(lon, 'f', 6, 64))
			b = appendBulk(b, strconv.FormatFloat(lat, 'f', 6, 64))
			return appendName(b, prefix, i, width)
		}, nil
	}
	return nil, fmt.Errorf("unknown -cmd %q", cmd)
}

// place is the position of place i: two numbers drawn from i by splitmix64 (the same on every
// run and machine), spread over longitudes 10 to 20 and latitudes 35 to 45.
func place(i int) (lon, lat float64) {
	x := splitmix64(uint64(i))
	return 10 + 10*float64(x>>40)/(1<<24), 35 + 10*float64(x&(1<<24-1))/(1<<24)
}

// splitmix64 is Steele, Lea and Flood's mixing function: a well-spread 64-bit value of x.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// numbers is start … start+n-1, ascending or (shuffle) in an order drawn by Fisher-Yates from
// splitmix64, the same on every run and machine.
func numbers(start, n int, shuffle bool) []int {
	order := make([]int, n)
	for k := range order {
		order[k] = start + k
	}
	if shuffle {
		for k := n - 1; k > 0; k-- {
			j := int(splitmix64(uint64(k)) % uint64(k+1))
			order[k], order[j] = order[j], order[k]
		}
	}
	return order
}

// write writes the commands of the given numbers to w, in that order.
func write(w io.Writer, gen func(b []byte, i int) []byte, order []int) error {
	var b []byte
	for _, i := range order {
		b = gen(b[:0], i)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// appendBulk appends s as a RESP bulk string.
func appendBulk(b []byte, s string) []byte {
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, "\r\n"...)
	b = append(b, s...)
	return append(b, "\r\n"...)
}

// appendName appends prefix and n, zero-padded to width digits, as a RESP bulk string.
func appendName(b []byte, prefix string, n, width int) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(len(prefix)+max(width, len(d))), 10)
	b = append(b, "\r\n"...)
	b = append(b, prefix...)
	for range width - len(d) {
		b = append(b, '0')
	}
	b = append(b, d...)
	return append(b, "\r\n"...)
}
