package resp

import (
	"strconv"
	"testing"
)

// benchWrite runs write b.N times on a warmed Writer of each protocol, resetting it when it
// has grown past 64 KiB as a client's reply buffer is once flushed.
func benchWrite(b *testing.B, write func(w *Writer)) {
	for _, p := range []int{2, 3} {
		b.Run("RESP"+strconv.Itoa(p), func(b *testing.B) {
			var w Writer
			w.SetProto(p)
			w.Grow(1 << 17)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				write(&w)
				if w.Len() > 1<<16 {
					w.Reset()
				}
			}
		})
	}
}

var (
	benchValue = []byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcd") // 85 bytes
	benchKB    = make([]byte, 1024)
)

func BenchmarkOK(b *testing.B)     { benchWrite(b, func(w *Writer) { w.OK() }) }
func BenchmarkSimple(b *testing.B) { benchWrite(b, func(w *Writer) { w.Simple("PONG") }) }
func BenchmarkError(b *testing.B) {
	benchWrite(b, func(w *Writer) { w.Error("WRONGTYPE Operation against a key holding the wrong kind of value") })
}
func BenchmarkErrorNoCode(b *testing.B) {
	benchWrite(b, func(w *Writer) { w.Error("wrong number of arguments for 'get' command") })
}
func BenchmarkInt(b *testing.B)       { benchWrite(b, func(w *Writer) { w.Int(1234567) }) }
func BenchmarkBulk85(b *testing.B)    { benchWrite(b, func(w *Writer) { w.Bulk(benchValue) }) }
func BenchmarkBulk1KiB(b *testing.B)  { benchWrite(b, func(w *Writer) { w.Bulk(benchKB) }) }
func BenchmarkBulkInt(b *testing.B)   { benchWrite(b, func(w *Writer) { w.BulkInt(-1234567890) }) }
func BenchmarkNull(b *testing.B)      { benchWrite(b, func(w *Writer) { w.Null() }) }
func BenchmarkBool(b *testing.B)      { benchWrite(b, func(w *Writer) { w.Bool(true) }) }
func BenchmarkMapHeader(b *testing.B) { benchWrite(b, func(w *Writer) { w.Map(16) }) }
func BenchmarkVerbatim(b *testing.B) {
	benchWrite(b, func(w *Writer) { w.Verbatim("txt", "# Server\r\nredis_version:7.2.4\r\n") })
}

func BenchmarkDouble(b *testing.B) {
	for _, c := range []struct {
		name string
		f    float64
	}{{"integral", 42}, {"0.1", 0.1}, {"pi", 3.141592653589793}, {"1e+21", 1e21}, {"1.2345671234567e+6", 1234567.1234567}} {
		b.Run(c.name, func(b *testing.B) { benchWrite(b, func(w *Writer) { w.Double(c.f) }) })
	}
}

// BenchmarkAppendDouble compares AppendDouble with strconv's shortest 'g' form, its core.
func BenchmarkAppendDouble(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.Run("AppendDouble", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf = AppendDouble(buf[:0], 3.141592653589793)
		}
	})
	b.Run("strconv.AppendFloat", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf = strconv.AppendFloat(buf[:0], 3.141592653589793, 'g', -1, 64)
		}
	})
}

// BenchmarkDeferred10 is a SCAN-sized reply: a deferred array of ten keys after an earlier
// reply in the same buffer.
func BenchmarkDeferred10(b *testing.B) {
	benchWrite(b, func(w *Writer) {
		w.OK()
		outer := w.ArrayDeferred()
		w.BulkString("0")
		inner := w.ArrayDeferred()
		for i := 0; i < 10; i++ {
			w.Bulk(benchValue[:18])
		}
		w.SetArrayLen(inner, 10)
		w.SetArrayLen(outer, 2)
	})
}

// BenchmarkDeferred1000 is a KEYS-sized reply of 1,000 keys; compare with BenchmarkArray1000.
func BenchmarkDeferred1000(b *testing.B) {
	benchWrite(b, func(w *Writer) {
		w.Reset()
		w.OK()
		d := w.ArrayDeferred()
		for i := 0; i < 1000; i++ {
			w.Bulk(benchValue[:18])
		}
		w.SetArrayLen(d, 1000)
	})
}

// BenchmarkArray1000 is BenchmarkDeferred1000 with the length known in advance.
func BenchmarkArray1000(b *testing.B) {
	benchWrite(b, func(w *Writer) {
		w.Reset()
		w.OK()
		w.Array(1000)
		for i := 0; i < 1000; i++ {
			w.Bulk(benchValue[:18])
		}
	})
}
