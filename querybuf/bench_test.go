package querybuf

import (
	"fmt"
	"testing"
)

// BenchmarkParseSET: one 3-argument SET per batch, as a client without pipelining sends it.
// In steady state it allocates nothing.
func BenchmarkParseSET(b *testing.B) {
	in := []byte("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n")
	benchBatches(b, in)
}

// BenchmarkParseInlineSET: the same as an inline command.
func BenchmarkParseInlineSET(b *testing.B) {
	benchBatches(b, []byte("SET key value\r\n"))
}

// BenchmarkPipelinedGET: 100 GETs in one read.
func BenchmarkPipelinedGET(b *testing.B) {
	var in []byte
	for i := range 100 {
		in = appendCommand(in, "GET", fmt.Sprintf("key:%04d", i))
	}
	benchBatches(b, in)
}

func benchBatches(b *testing.B, in []byte) {
	p := NewParser(DefaultLimits())
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if n, err := p.Parse(in); n != len(in) || err != nil {
			b.Fatal(n, err)
		}
		p.ResetCommands()
	}
}

// BenchmarkMSET100k parses an MSET of 100,001 arguments (2.1 MB) arriving whole, and in
// 1 KiB reads where the connection keeps each unconsumed tail and presents it again. The time
// per byte is about the same: no byte is scanned twice, however the command is cut.
func BenchmarkMSET100k(b *testing.B) {
	args := []string{"MSET"}
	for i := range 50_000 {
		args = append(args, fmt.Sprintf("key:%06d", i), fmt.Sprintf("value-%06d", i))
	}
	in := appendCommand(nil, args...)
	for _, size := range []int{len(in), 16 << 10, 1 << 10} {
		name := fmt.Sprintf("pieces=%dB", size)
		if size == len(in) {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			p := NewParser(DefaultLimits())
			private := make([]byte, 0, 64<<10) // the client's private buffer for tails
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				tail := 0
				for off := 0; off < len(in); off += size {
					data := in[off:min(off+size, len(in))] // the shared read buffer
					if tail > 0 {
						private = append(private[:tail], data...)
						data = private
					}
					n, err := p.Parse(data)
					if err != nil {
						b.Fatal(err)
					}
					tail = copy(private[:cap(private)], data[n:])
				}
				if p.NumCommands() != 1 || p.Command(0).Len() != len(args) {
					b.Fatal("MSET not parsed")
				}
				p.ResetCommands()
			}
		})
	}
}
