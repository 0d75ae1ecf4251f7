package resp

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/tidwall/redcon"
)

func TestScalars(t *testing.T) {
	runCases(t, []protoCase{
		same("Simple", func(w *Writer) { w.Simple("PONG") }, "+PONG\r\n"),
		same("Simple empty", func(w *Writer) { w.Simple("") }, "+\r\n"),
		same("Simple CRLF", func(w *Writer) { w.Simple("a\r\nb\nc\r") }, "+a  b c \r\n"),
		same("SimpleBytes", func(w *Writer) { w.SimpleBytes([]byte("QUEUED")) }, "+QUEUED\r\n"),
		same("SimpleBytes CRLF", func(w *Writer) { w.SimpleBytes([]byte("x\ny")) }, "+x y\r\n"),
		same("OK", func(w *Writer) { w.OK() }, "+OK\r\n"),

		same("Int 0", func(w *Writer) { w.Int(0) }, ":0\r\n"),
		same("Int 9", func(w *Writer) { w.Int(9) }, ":9\r\n"),
		same("Int 10", func(w *Writer) { w.Int(10) }, ":10\r\n"),
		same("Int -1", func(w *Writer) { w.Int(-1) }, ":-1\r\n"),
		same("Int max", func(w *Writer) { w.Int(math.MaxInt64) }, ":9223372036854775807\r\n"),
		same("Int min", func(w *Writer) { w.Int(math.MinInt64) }, ":-9223372036854775808\r\n"),

		same("Bulk", func(w *Writer) { w.Bulk([]byte("hello")) }, "$5\r\nhello\r\n"),
		same("Bulk empty", func(w *Writer) { w.Bulk([]byte{}) }, "$0\r\n\r\n"),
		same("Bulk nil", func(w *Writer) { w.Bulk(nil) }, "$0\r\n\r\n"),
		same("Bulk binary", func(w *Writer) { w.Bulk([]byte("a\r\n\x00b")) }, "$5\r\na\r\n\x00b\r\n"),
		same("Bulk 10 bytes", func(w *Writer) { w.Bulk([]byte("0123456789")) }, "$10\r\n0123456789\r\n"),
		same("BulkString", func(w *Writer) { w.BulkString("bar") }, "$3\r\nbar\r\n"),
		same("BulkString empty", func(w *Writer) { w.BulkString("") }, "$0\r\n\r\n"),
		same("BulkInt", func(w *Writer) { w.BulkInt(42) }, "$2\r\n42\r\n"),
		same("BulkInt 0", func(w *Writer) { w.BulkInt(0) }, "$1\r\n0\r\n"),
		same("BulkInt negative", func(w *Writer) { w.BulkInt(-7) }, "$2\r\n-7\r\n"),
		same("BulkInt min", func(w *Writer) { w.BulkInt(math.MinInt64) }, "$20\r\n-9223372036854775808\r\n"),

		{"Null", func(w *Writer) { w.Null() }, "$-1\r\n", "_\r\n"},
		{"Bool true", func(w *Writer) { w.Bool(true) }, ":1\r\n", "#t\r\n"},
		{"Bool false", func(w *Writer) { w.Bool(false) }, ":0\r\n", "#f\r\n"},

		{"BigNumber", func(w *Writer) { w.BigNumber("3492890328409238509324850943850943825024385") },
			"$43\r\n3492890328409238509324850943850943825024385\r\n",
			"(3492890328409238509324850943850943825024385\r\n"},
		{"BigNumber negative", func(w *Writer) { w.BigNumber("-12") }, "$3\r\n-12\r\n", "(-12\r\n"},
		{"BigNumber CRLF", func(w *Writer) { w.BigNumber("1\r\n2") }, "$4\r\n1\r\n2\r\n", "(1  2\r\n"},

		{"Verbatim txt", func(w *Writer) { w.Verbatim("txt", "Some string") },
			"$11\r\nSome string\r\n", "=15\r\ntxt:Some string\r\n"},
		{"Verbatim short format", func(w *Writer) { w.Verbatim("md", "# hi") },
			"$4\r\n# hi\r\n", "=8\r\nmd :# hi\r\n"},
		{"Verbatim long format", func(w *Writer) { w.Verbatim("markdown", "x") },
			"$1\r\nx\r\n", "=5\r\nmar:x\r\n"},
		{"Verbatim empty", func(w *Writer) { w.Verbatim("txt", "") }, "$0\r\n\r\n", "=4\r\ntxt:\r\n"},
		{"Verbatim multi-line", func(w *Writer) { w.Verbatim("txt", "a\r\nb\n") },
			"$5\r\na\r\nb\n\r\n", "=9\r\ntxt:a\r\nb\n\r\n"},
	})
}

func TestBulkLarge(t *testing.T) {
	s := strings.Repeat("v", 100000)
	runCases(t, []protoCase{
		same("Bulk 100000", func(w *Writer) { w.BulkString(s) }, "$100000\r\n"+s+"\r\n"),
	})
	var w Writer
	w.Bulk([]byte(s))
	if want := len("$100000\r\n") + len(s) + 2; w.Len() != want {
		t.Fatalf("Len after a 100,000-byte bulk: %d, want %d", w.Len(), want)
	}
}

// TestBulkHeaderMatchesRedcon: the digit-by-digit header gives redcon's bytes at every length
// up to 5,000 and at the powers of ten past it, for Bulk and BulkString.
func TestBulkHeaderMatchesRedcon(t *testing.T) {
	payload := bytes.Repeat([]byte{'x'}, 100_001)
	lengths := []int{9_999, 10_000, 99_999, 100_000, 100_001}
	for n := 0; n <= 5_000; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		want := redcon.AppendBulk(nil, payload[:n])
		var w Writer
		w.Bulk(payload[:n])
		w.BulkString(string(payload[:n]))
		if got := w.Bytes(); !bytes.Equal(got, append(append([]byte(nil), want...), want...)) {
			t.Fatalf("length %d: %q…, want %q…", n, got[:min(len(got), 12)], want[:min(len(want), 12)])
		}
	}
}
