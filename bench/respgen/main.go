// Command respgen writes commands in RESP to stdout, for `redis-cli --pipe`:
//
//	respgen -n 1000000 -prefix key: -width 14 -value 85 | redis-cli -p 6379 --pipe
//
// It writes -n commands, one per number i from -start, where name(i) is -prefix followed by i
// zero-padded to -width digits (redis-benchmark's keys are key:%012d; -width 0 is no padding)
// and every value is -value bytes of 'x', which no server stores as an integer. -cmd chooses
// the command:
//
//	set     SET name(i) value (the default)
//	hset    HSET -key name(i) value: one field per command, all in one hash
//	hsetn   HSET name(i) f0 value f1 value … f<F-1> value, F = -fields: a hash per command
//	sadd    SADD -key name(i): one member per command, all in one set
//	saddint SADD name(i) i i+S i+2S … (M integers, M = -members, S = -stride; -stride 0 is -n)
//	rpush   RPUSH -key name(i): one element per command, all in one list
//	rpushn  RPUSH name(i) value value … (E values, E = -elems): a list per command
//
// With the defaults of saddint, -n 2000 -members 500 makes 2,000 sets of 500 integers up to
// 999,999, each set holding one in every 2,000: all need 32-bit intset entries.
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
	n := flag.Int("n", 1000, "number of commands")
	start := flag.Int("start", 0, "first number")
	prefix := flag.String("prefix", "key:", "key (or field, or member) prefix")
	width := flag.Int("width", 12, "digits of the zero-padded number, 0 for none")
	size := flag.Int("value", 85, "value size in bytes")
	cmd := flag.String("cmd", "set", "set, hset, hsetn, sadd, saddint, rpush or rpushn")
	key := flag.String("key", "", "the one key of hset, sadd and rpush")
	fields := flag.Int("fields", 10, "fields per hash of hsetn")
	members := flag.Int("members", 500, "integers per set of saddint")
	stride := flag.Int("stride", 0, "step between a saddint set's integers (0: -n)")
	elems := flag.Int("elems", 10, "elements per list of rpushn")
	flag.Parse()
	if last := len(strconv.Itoa(*start + *n - 1)); *width > 0 && last > *width {
		fmt.Fprintf(os.Stderr, "respgen: numbers need %d digits, -width is %d\n", last, *width)
		os.Exit(2)
	}
	if (*cmd == "hset" || *cmd == "sadd" || *cmd == "rpush") && *key == "" {
		fmt.Fprintf(os.Stderr, "respgen: -cmd %s needs -key\n", *cmd)
		os.Exit(2)
	}
	if *stride == 0 {
		*stride = *n
	}
	value := strings.Repeat("x", *size)
	gen, ok := map[string]func(b []byte, i int) []byte{
		// The head of each command is the same for every i: only the number changes.
		"set": func(b []byte, i int) []byte {
			b = append(b, "*3\r\n$3\r\nSET\r\n"...)
			return appendBulk(appendName(b, *prefix, i, *width), value)
		},
		"hset": func(b []byte, i int) []byte {
			b = appendBulk(append(b, "*4\r\n$4\r\nHSET\r\n"...), *key)
			return appendBulk(appendName(b, *prefix, i, *width), value)
		},
		"hsetn": func(b []byte, i int) []byte {
			b = fmt.Appendf(b, "*%d\r\n$4\r\nHSET\r\n", 2+2**fields)
			b = appendName(b, *prefix, i, *width)
			for f := range *fields {
				b = appendBulk(appendBulk(b, "f"+strconv.Itoa(f)), value)
			}
			return b
		},
		"sadd": func(b []byte, i int) []byte {
			b = appendBulk(append(b, "*3\r\n$4\r\nSADD\r\n"...), *key)
			return appendName(b, *prefix, i, *width)
		},
		"saddint": func(b []byte, i int) []byte {
			b = fmt.Appendf(b, "*%d\r\n$4\r\nSADD\r\n", 2+*members)
			b = appendName(b, *prefix, i, *width)
			for m := range *members {
				b = appendBulk(b, strconv.Itoa(i+m**stride))
			}
			return b
		},
		"rpush": func(b []byte, i int) []byte {
			b = appendBulk(append(b, "*3\r\n$5\r\nRPUSH\r\n"...), *key)
			return appendName(b, *prefix, i, *width)
		},
		"rpushn": func(b []byte, i int) []byte {
			b = fmt.Appendf(b, "*%d\r\n$5\r\nRPUSH\r\n", 2+*elems)
			b = appendName(b, *prefix, i, *width)
			for range *elems {
				b = appendBulk(b, value)
			}
			return b
		},
	}[*cmd]
	if !ok {
		fmt.Fprintf(os.Stderr, "respgen: unknown -cmd %q\n", *cmd)
		os.Exit(2)
	}

	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	var b []byte
	for i := *start; i < *start+*n; i++ {
		b = gen(b[:0], i)
		if _, err := w.Write(b); err != nil {
			os.Exit(1) // the reader went away
		}
	}
	if err := w.Flush(); err != nil {
		os.Exit(1)
	}
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
