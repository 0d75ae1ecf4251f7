package resp

import (
	"math"
	"testing"
)

// allocCases is one call of every method that writes; each must allocate nothing once the
// buffer has grown.
var allocCases = []struct {
	name  string
	write func(w *Writer)
}{
	{"Simple", func(w *Writer) { w.Simple("PONG") }},
	{"Simple CRLF", func(w *Writer) { w.Simple("a\r\nb") }},
	{"SimpleBytes", func(w *Writer) { w.SimpleBytes(allocBytes) }},
	{"OK", func(w *Writer) { w.OK() }},
	{"Error", func(w *Writer) { w.Error("syntax error") }},
	{"Error code", func(w *Writer) { w.Error("WRONGTYPE Operation against a key holding the wrong kind of value") }},
	{"Error CRLF", func(w *Writer) { w.Error("\r\n-NOGROUP a\nb\r\n") }},
	{"ErrorPrefix", func(w *Writer) { w.ErrorPrefix("NOGROUP", "No such key") }},
	{"Int", func(w *Writer) { w.Int(math.MinInt64) }},
	{"Bulk", func(w *Writer) { w.Bulk(allocBytes) }},
	{"BulkString", func(w *Writer) { w.BulkString("hello") }},
	{"BulkInt", func(w *Writer) { w.BulkInt(-1234567890123) }},
	{"Null", func(w *Writer) { w.Null() }},
	{"NullArray", func(w *Writer) { w.NullArray() }},
	{"Bool", func(w *Writer) { w.Bool(true) }},
	{"Double", func(w *Writer) { w.Double(1234567.1234567) }},
	{"Double integral", func(w *Writer) { w.Double(42) }},
	{"Double nan", func(w *Writer) { w.Double(math.NaN()) }},
	{"Double max", func(w *Writer) { w.Double(-2.3473596764891067e+23) }},
	{"BigNumber", func(w *Writer) { w.BigNumber("123456789012345678901234567890") }},
	{"Verbatim", func(w *Writer) { w.Verbatim("txt", "some text") }},
	{"Array", func(w *Writer) { w.Array(12) }},
	{"Map", func(w *Writer) { w.Map(12) }},
	{"Set", func(w *Writer) { w.Set(12) }},
	{"Push", func(w *Writer) { w.Push(3) }},
	{"Attribute", func(w *Writer) { w.Attribute(1) }},
	{"deferred array", func(w *Writer) {
		d := w.ArrayDeferred()
		w.Int(1)
		w.SetArrayLen(d, 1)
	}},
	{"deferred nested", func(w *Writer) {
		outer := w.MapDeferred()
		w.BulkString("k")
		inner := w.SetDeferred()
		w.BulkString("m")
		w.SetSetLen(inner, 1)
		w.SetMapLen(outer, 1)
	}},
	{"Truncate", func(w *Writer) {
		n := w.Len()
		w.Array(2)
		w.Truncate(n)
	}},
}

var allocBytes = []byte("some bytes")

func TestZeroAllocs(t *testing.T) {
	for _, c := range allocCases {
		for _, p := range []int{2, 3} {
			var w Writer
			w.SetProto(p)
			w.Grow(1 << 16)
			w.OK() // something before, so that deferred lengths move bytes
			allocs := testing.AllocsPerRun(1000, func() {
				c.write(&w)
				if w.Len() > 1<<15 {
					w.Reset()
					w.OK()
				}
			})
			if allocs != 0 {
				t.Errorf("%s, RESP%d: %v allocations per call, want 0", c.name, p, allocs)
			}
		}
	}
	buf := make([]byte, 0, 64)
	if allocs := testing.AllocsPerRun(1000, func() { buf = AppendDouble(buf[:0], 3.0000000000000004e-10) }); allocs != 0 {
		t.Errorf("AppendDouble: %v allocations per call, want 0", allocs)
	}
	if allocs := testing.AllocsPerRun(1000, func() { _ = ErrorCode("-NOGROUP x") }); allocs != 0 {
		t.Errorf("ErrorCode: %v allocations per call, want 0", allocs)
	}
}
