package resp

import (
	"math/rand"
	"strings"
	"testing"
)

func TestDeferred(t *testing.T) {
	long := strings.Repeat("x", 100)
	runCases(t, []protoCase{
		same("array alone in the buffer", func(w *Writer) {
			d := w.ArrayDeferred()
			w.Int(1)
			w.Int(2)
			w.Int(3)
			w.SetArrayLen(d, 3)
		}, "*3\r\n:1\r\n:2\r\n:3\r\n"),
		same("empty array", func(w *Writer) {
			d := w.ArrayDeferred()
			w.SetArrayLen(d, 0)
		}, "*0\r\n"),
		same("after a longer reply: the elements move", func(w *Writer) {
			w.BulkString(long)
			d := w.ArrayDeferred()
			w.Int(1)
			w.SetArrayLen(d, 1)
		}, "$100\r\n"+long+"\r\n*1\r\n:1\r\n"),
		same("after a shorter reply: the reply moves", func(w *Writer) {
			w.OK()
			d := w.ArrayDeferred()
			w.BulkString(long)
			w.SetArrayLen(d, 1)
			w.Int(5)
		}, "+OK\r\n*1\r\n$100\r\n"+long+"\r\n:5\r\n"),
		{"map", func(w *Writer) {
			d := w.MapDeferred()
			w.BulkString("a")
			w.Int(1)
			w.BulkString("b")
			w.Int(2)
			w.SetMapLen(d, 2)
		}, "*4\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n:2\r\n", "%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n:2\r\n"},
		{"set", func(w *Writer) {
			d := w.SetDeferred()
			w.BulkString("m")
			w.SetSetLen(d, 1)
		}, "*1\r\n$1\r\nm\r\n", "~1\r\n$1\r\nm\r\n"},
		same("nested, inner first (SCAN's shape)", func(w *Writer) {
			outer := w.ArrayDeferred()
			w.BulkString("0")
			inner := w.ArrayDeferred()
			w.BulkString("k1")
			w.BulkString("k2")
			w.SetArrayLen(inner, 2)
			w.SetArrayLen(outer, 2)
		}, "*2\r\n$1\r\n0\r\n*2\r\n$2\r\nk1\r\n$2\r\nk2\r\n"),
		same("siblings set in reverse order", func(w *Writer) {
			w.Array(2)
			a := w.ArrayDeferred()
			w.Int(1)
			w.Int(2)
			b := w.ArrayDeferred()
			w.BulkString(long)
			w.SetArrayLen(b, 1)
			w.SetArrayLen(a, 2)
		}, "*2\r\n*2\r\n:1\r\n:2\r\n*1\r\n$100\r\n"+long+"\r\n"),
		same("siblings set in order", func(w *Writer) {
			w.BulkString(long)
			a := w.ArrayDeferred()
			w.Int(1)
			b := w.ArrayDeferred()
			w.Int(2)
			w.Int(3)
			w.SetArrayLen(a, 1)
			w.SetArrayLen(b, 2)
		}, "$100\r\n"+long+"\r\n*1\r\n:1\r\n*2\r\n:2\r\n:3\r\n"),
	})
}

func TestDeferredLarge(t *testing.T) {
	var w, ref Writer
	w.OK()
	ref.OK()
	d := w.ArrayDeferred()
	ref.Array(123456)
	for i := 0; i < 123456; i++ {
		w.BulkInt(int64(i))
		ref.BulkInt(int64(i))
	}
	w.SetArrayLen(d, 123456)
	if string(w.Bytes()) != string(ref.Bytes()) {
		t.Fatal("deferred array of 123456 elements differs from the direct one")
	}
}

func TestDeferredTruncateAndMarks(t *testing.T) {
	var w Writer
	w.OK()
	mark := w.Len()
	d := w.ArrayDeferred()
	w.BulkString(strings.Repeat("y", 50))
	w.SetArrayLen(d, 1) // moves "+OK\r\n" right: Bytes starts later in the buffer
	if got := w.Bytes()[:mark]; string(got) != "+OK\r\n" {
		t.Fatalf("prefix %q", got)
	}
	w.Truncate(mark) // a mark taken before the reservation is still good
	w.Int(1)
	if got, want := string(w.Bytes()), "+OK\r\n:1\r\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}

	// Truncating before an open reservation drops it.
	mark = w.Len()
	d = w.ArrayDeferred()
	w.Int(2)
	if w.Pending() != 1 {
		t.Fatalf("Pending() = %d, want 1", w.Pending())
	}
	w.Truncate(mark)
	if w.Pending() != 0 {
		t.Fatalf("after Truncate: Pending() = %d, want 0", w.Pending())
	}
	mustPanic(t, "SetArrayLen after Truncate", func() { w.SetArrayLen(d, 1) })
	if got, want := string(w.Bytes()), "+OK\r\n:1\r\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}

	// Truncating inside the reservation's room drops it too.
	mark = w.Len()
	w.ArrayDeferred()
	w.Truncate(mark + 3)
	if w.Pending() != 0 {
		t.Fatalf("after Truncate into the room: Pending() = %d", w.Pending())
	}

	// Reset drops open reservations.
	d = w.ArrayDeferred()
	w.Reset()
	if w.Pending() != 0 {
		t.Fatalf("after Reset: Pending() = %d", w.Pending())
	}
	mustPanic(t, "SetArrayLen after Reset", func() { w.SetArrayLen(d, 1) })
}

func TestDeferredMisuse(t *testing.T) {
	var w Writer
	d := w.ArrayDeferred()
	mustPanic(t, "SetMapLen on an array", func() { w.SetMapLen(d, 1) })
	mustPanic(t, "SetSetLen on an array", func() { w.SetSetLen(d, 1) })
	mustPanic(t, "negative length", func() { w.SetArrayLen(d, -1) })
	w.SetArrayLen(d, 0)
	mustPanic(t, "set twice", func() { w.SetArrayLen(d, 0) })
	mustPanic(t, "zero Deferred", func() { w.SetArrayLen(Deferred{}, 0) })
	m := w.MapDeferred()
	mustPanic(t, "SetArrayLen on a map", func() { w.SetArrayLen(m, 0) })
}

// TestDeferredRandom writes random nested replies twice, once with every length known and once
// with random lengths deferred and set in a random order, after random earlier replies, and
// compares the bytes.
func TestDeferredRandom(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for iter := 0; iter < 2000; iter++ {
		for _, p := range []int{2, 3} {
			var direct, deferred Writer
			direct.SetProto(p)
			deferred.SetProto(p)
			for k := r.Intn(3); k > 0; k-- { // earlier replies
				s := strings.Repeat("p", r.Intn(40))
				direct.BulkString(s)
				deferred.BulkString(s)
			}
			tree := randomTree(r, 0)
			writeDirect(&direct, tree)
			var open []openLen
			writeDeferred(&deferred, tree, r, &open)
			r.Shuffle(len(open), func(i, j int) { open[i], open[j] = open[j], open[i] })
			for _, o := range open {
				o.set()
			}
			if deferred.Pending() != 0 {
				t.Fatalf("Pending() = %d after setting every length", deferred.Pending())
			}
			if got, want := string(deferred.Bytes()), string(direct.Bytes()); got != want {
				t.Fatalf("iteration %d, RESP%d:\n got %q\nwant %q", iter, p, got, want)
			}
		}
	}
}

// node is a reply in TestDeferredRandom: an aggregate ('*', '%', '~') or a bulk string.
type node struct {
	kind     byte
	str      string
	children []*node // for '%': key, value, key, value…
}

func randomTree(r *rand.Rand, depth int) *node {
	if depth > 3 || r.Intn(3) == 0 {
		return &node{kind: '$', str: strings.Repeat("e", r.Intn(30))}
	}
	n := &node{kind: "*%~"[r.Intn(3)]}
	count := r.Intn(6)
	if n.kind == '%' {
		count *= 2
	}
	for i := 0; i < count; i++ {
		n.children = append(n.children, randomTree(r, depth+1))
	}
	return n
}

func writeDirect(w *Writer, n *node) {
	switch n.kind {
	case '$':
		w.BulkString(n.str)
		return
	case '*':
		w.Array(len(n.children))
	case '%':
		w.Map(len(n.children) / 2)
	case '~':
		w.Set(len(n.children))
	}
	for _, c := range n.children {
		writeDirect(w, c)
	}
}

// openLen is a deferred length waiting to be set.
type openLen struct{ set func() }

func writeDeferred(w *Writer, n *node, r *rand.Rand, open *[]openLen) {
	if n.kind == '$' || r.Intn(2) == 0 {
		if n.kind == '$' {
			writeDirect(w, n)
			return
		}
		switch n.kind {
		case '*':
			w.Array(len(n.children))
		case '%':
			w.Map(len(n.children) / 2)
		case '~':
			w.Set(len(n.children))
		}
		for _, c := range n.children {
			writeDeferred(w, c, r, open)
		}
		return
	}
	var set func()
	switch n.kind {
	case '*':
		d := w.ArrayDeferred()
		set = func() { w.SetArrayLen(d, len(n.children)) }
	case '%':
		d := w.MapDeferred()
		set = func() { w.SetMapLen(d, len(n.children)/2) }
	case '~':
		d := w.SetDeferred()
		set = func() { w.SetSetLen(d, len(n.children)) }
	}
	for _, c := range n.children {
		writeDeferred(w, c, r, open)
	}
	if r.Intn(2) == 0 {
		set() // set at once, as a handler usually does
	} else {
		*open = append(*open, openLen{set})
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", name)
		}
	}()
	f()
}

func TestReservedFill(t *testing.T) {
	if len(reservedFill) != reservedLen {
		t.Fatalf("len(reservedFill) = %d, want reservedLen = %d", len(reservedFill), reservedLen)
	}
	var tmp [32]byte
	if h := appendHeader(tmp[:0], '*', 1<<63-1); len(h) != reservedLen {
		t.Fatalf("the longest header is %d bytes, reservedLen is %d", len(h), reservedLen)
	}
}
