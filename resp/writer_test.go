package resp

import (
	"strings"
	"testing"
)

// protoCase is one reply written by write, with its exact bytes in RESP2 and in RESP3.
type protoCase struct {
	name         string
	write        func(w *Writer)
	resp2, resp3 string
}

// same is a protoCase whose bytes do not depend on the protocol.
func same(name string, write func(w *Writer), want string) protoCase {
	return protoCase{name, write, want, want}
}

// runCases writes every case on a fresh Writer of each protocol and compares the bytes.
func runCases(t *testing.T, cases []protoCase) {
	t.Helper()
	for _, c := range cases {
		for _, p := range []int{2, 3} {
			var w Writer
			w.SetProto(p)
			c.write(&w)
			want := c.resp2
			if p == 3 {
				want = c.resp3
			}
			if got := string(w.Bytes()); got != want {
				t.Errorf("%s, RESP%d:\n got %q\nwant %q", c.name, p, got, want)
			}
			if w.Len() != len(want) {
				t.Errorf("%s, RESP%d: Len() = %d, want %d", c.name, p, w.Len(), len(want))
			}
		}
	}
}

func TestProto(t *testing.T) {
	var w Writer
	if w.Proto() != 2 {
		t.Fatalf("zero Writer: Proto() = %d, want 2", w.Proto())
	}
	w.SetProto(3)
	if w.Proto() != 3 {
		t.Fatalf("after SetProto(3): Proto() = %d", w.Proto())
	}
	w.SetProto(2)
	if w.Proto() != 2 {
		t.Fatalf("after SetProto(2): Proto() = %d", w.Proto())
	}
	for _, v := range []int{0, 1, 4, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SetProto(%d) did not panic", v)
				}
			}()
			w.SetProto(v)
		}()
	}
	w.SetProto(3)
	w.Reset()
	if w.Proto() != 3 {
		t.Errorf("Reset changed the protocol to %d", w.Proto())
	}
}

func TestResetKeepsCapacity(t *testing.T) {
	var w Writer
	w.BulkString(strings.Repeat("x", 1000))
	c := w.Cap()
	w.Reset()
	if w.Len() != 0 || len(w.Bytes()) != 0 {
		t.Fatalf("after Reset: Len() = %d", w.Len())
	}
	if w.Cap() != c {
		t.Fatalf("Reset changed the capacity from %d to %d", c, w.Cap())
	}
	w.OK()
	if got := string(w.Bytes()); got != "+OK\r\n" {
		t.Fatalf("after Reset: %q", got)
	}
}

func TestTruncate(t *testing.T) {
	var w Writer
	w.OK()
	mark := w.Len()
	w.Array(3)
	w.Int(1)
	w.Truncate(mark) // the array is abandoned half-written
	w.Error("oops")
	if got, want := string(w.Bytes()), "+OK\r\n-ERR oops\r\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	w.Truncate(w.Len()) // a no-op
	w.Truncate(0)
	if w.Len() != 0 {
		t.Fatalf("Truncate(0): Len() = %d", w.Len())
	}
	for _, n := range []int{-1, 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Truncate(%d) on an empty Writer did not panic", n)
				}
			}()
			w.Truncate(n)
		}()
	}
}

func TestGrowAndSetBuffer(t *testing.T) {
	var w Writer
	w.Grow(100)
	if w.Cap() < 100 {
		t.Fatalf("Grow(100): Cap() = %d", w.Cap())
	}
	w.OK()
	w.SetBuffer(make([]byte, 7, 16))
	if w.Len() != 0 || w.Cap() != 16 {
		t.Fatalf("SetBuffer: Len() = %d, Cap() = %d, want 0 and 16", w.Len(), w.Cap())
	}
	w.Int(5)
	if got := string(w.Bytes()); got != ":5\r\n" {
		t.Fatalf("after SetBuffer: %q", got)
	}
	w.SetBuffer(nil)
	if w.Cap() != 0 {
		t.Fatalf("SetBuffer(nil): Cap() = %d", w.Cap())
	}
	w.OK()
	if got := string(w.Bytes()); got != "+OK\r\n" {
		t.Fatalf("after SetBuffer(nil): %q", got)
	}
}

// TestRepliesAccumulate checks that replies follow each other in one buffer, as a pipeline's
// do, and that the protocol may change between them (HELLO 3).
func TestRepliesAccumulate(t *testing.T) {
	var w Writer
	w.Null()
	w.SetProto(3)
	w.Null()
	w.Map(1)
	w.BulkString("k")
	w.Bool(true)
	want := "$-1\r\n_\r\n%1\r\n$1\r\nk\r\n#t\r\n"
	if got := string(w.Bytes()); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
