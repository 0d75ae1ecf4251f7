// Command respgen writes SET commands in RESP to stdout, for `redis-cli --pipe`:
//
//	respgen -n 1000000 -prefix key: -width 14 -value 85 | redis-cli -p 6379 --pipe
//
// Key i (from -start) is -prefix followed by i zero-padded to -width digits (redis-benchmark's
// keys are key:%012d); every value is -value bytes of 'x', which no server stores as an integer.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	n := flag.Int("n", 1000, "number of keys")
	start := flag.Int("start", 0, "first key number")
	prefix := flag.String("prefix", "key:", "key prefix")
	width := flag.Int("width", 12, "digits of the zero-padded key number")
	size := flag.Int("value", 85, "value size in bytes")
	flag.Parse()
	if last := len(strconv.Itoa(*start + *n - 1)); last > *width {
		fmt.Fprintf(os.Stderr, "respgen: key numbers need %d digits, -width is %d\n", last, *width)
		os.Exit(2)
	}

	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	// Everything but the key's digits is the same for every command.
	head := fmt.Sprintf("*3\r\n$3\r\nSET\r\n$%d\r\n%s", len(*prefix)+*width, *prefix)
	tail := fmt.Sprintf("\r\n$%d\r\n%s\r\n", *size, strings.Repeat("x", *size))
	var b []byte
	for i := *start; i < *start+*n; i++ {
		b = append(b[:0], head...)
		b = appendPadded(b, i, *width)
		b = append(b, tail...)
		if _, err := w.Write(b); err != nil {
			os.Exit(1) // the reader went away
		}
	}
	if err := w.Flush(); err != nil {
		os.Exit(1)
	}
}

// appendPadded appends n in decimal, zero-padded to width digits.
func appendPadded(b []byte, n, width int) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for range width - len(d) {
		b = append(b, '0')
	}
	return append(b, d...)
}
