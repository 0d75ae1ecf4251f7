package querybuf

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func appendCommand(b []byte, args ...string) []byte {
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, "\r\n"...)
	for _, a := range args {
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(len(a)), 10)
		b = append(b, "\r\n"...)
		b = append(b, a...)
		b = append(b, "\r\n"...)
	}
	return b
}

// pipeline is a batch that touches every path: multibulk with binary, empty and big arguments
// (BigArgThreshold 16 in the tests below), inline with quotes, ignored lines and counts.
func pipeline() ([]byte, cmds) {
	var b []byte
	var want cmds
	add := func(args ...string) {
		b = appendCommand(b, args...)
		want = append(want, args)
	}
	add("SET", "key", "value")
	add("SET", "k\r\n", "a value longer than sixteen bytes\r\n with CRLF inside")
	b = append(b, "*0\r\n\r\n\n*-1\r\n"...)
	b = append(b, "SET k \"a \\x41\\\"\" 'b\\'c'\r\n"...)
	want = append(want, []string{"SET", "k", "a A\"", "b'c"})
	add("MSET", "a", "", "b", strings.Repeat("x", 100), "c", "3")
	b = append(b, "PING\n"...)
	want = append(want, []string{"PING"})
	add(strings.Repeat("y", 40), "0123456789abcdef", "")
	add("GET", "key")
	return b, want
}

// A command split at every byte position, in two and three pieces and into random pieces (with
// and without reading big arguments straight into their buffers) gives the same commands.
func TestSplitEveryPosition(t *testing.T) {
	in, want := pipeline()
	check := func(ps [][]byte, direct bool, rng *rand.Rand) {
		t.Helper()
		p := NewParser(DefaultLimits())
		p.bigThreshold = 16
		c := newConn(p, rng, direct)
		for _, piece := range ps {
			if err := c.feed(t, piece); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.EqualFunc(c.cmds, want, slices.Equal) || len(c.tail) != 0 {
			t.Fatalf("pieces %q:\ngot  %q\nwant %q\ntail %q", ps, c.cmds, want, c.tail)
		}
	}
	check([][]byte{in}, false, nil)
	for i := 1; i < len(in); i++ {
		check([][]byte{in[:i], in[i:]}, false, nil)
		check([][]byte{in[:i], in[i:]}, true, nil)
		for j := i + 1; j < len(in); j += 7 {
			check([][]byte{in[:i], in[i:j], in[j:]}, true, nil)
		}
	}
	for s := range uint64(2000) {
		rng := rand.New(rand.NewPCG(s, 1))
		check(pieces(in, rng), s%2 == 0, rng)
	}
}

// A big argument at the real threshold (32 KiB) arriving in 1 KiB reads, read straight into
// its buffer, or both mixed.
func TestBigArgument(t *testing.T) {
	val := bytes.Repeat([]byte("0123456789"), 4000) // 40,000 bytes
	in := appendCommand(nil, "SET", "k", string(val))
	hdr := len(in) - len(val) - 2 // "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$40000\r\n"
	in = appendCommand(in, "GET", "k")
	for _, direct := range []bool{false, true} {
		p := NewParser(DefaultLimits())
		c := newConn(p, nil, direct)
		for off := 0; off < len(in); off += 1024 {
			if err := c.feed(t, in[off:min(off+1024, len(in))]); err != nil {
				t.Fatal(err)
			}
			if off == 2048 {
				if got := len(p.BigArgTail()); got != len(val)+2-(3*1024-hdr) {
					t.Fatalf("direct %v: BigArgTail has %d bytes", direct, got)
				}
				if p.PendingBytes() < len(val)+2 {
					t.Fatalf("PendingBytes %d does not count the reserved buffer", p.PendingBytes())
				}
			}
		}
		if len(c.cmds) != 2 || c.cmds[0][2] != string(val) || c.cmds[1][1] != "k" {
			t.Fatalf("direct %v: %d commands", direct, len(c.cmds))
		}
	}

	// The buffer: exactly the argument and the two bytes after it, the view exactly the value,
	// its bytes not in the flat arena.
	p := NewParser(DefaultLimits())
	if _, err := p.Parse(in); err != nil || p.NumCommands() != 2 {
		t.Fatal(err)
	}
	arg := p.Command(0).Arg(2)
	if !bytes.Equal(arg, val) || cap(arg) != len(val) {
		t.Fatalf("view len %d cap %d", len(arg), cap(arg))
	}
	if len(p.bigs) != 1 || len(p.bigs[0].b) != len(val)+2 || cap(p.bigs[0].b) != len(val)+2 {
		t.Fatalf("big buffers %d", len(p.bigs))
	}
	if len(p.buf) > 100 {
		t.Fatalf("flat arena holds %d bytes", len(p.buf))
	}
	if m := p.ArgvMem(); m < len(val)+2 || m > len(val)+2+4096 {
		t.Fatalf("ArgvMem %d", m)
	}
	p.ResetCommands()
	if len(p.bigs) != 0 || p.ArgvMem() > 4096 {
		t.Fatalf("after ResetCommands: %d big buffers, ArgvMem %d", len(p.bigs), p.ArgvMem())
	}
}

func TestBigArgAdvance(t *testing.T) {
	p := NewParser(DefaultLimits())
	p.bigThreshold = 4
	if p.BigArgTail() != nil {
		t.Fatal("BigArgTail without a big argument")
	}
	if err := p.BigArgAdvance(1); err == nil {
		t.Fatal("BigArgAdvance without a big argument")
	}
	if n, err := p.Parse([]byte("*2\r\n$4\r\nECHO\r\n$6\r\nhe")); n != 20 || err != nil {
		t.Fatal(n, err)
	}
	tail := p.BigArgTail()
	if len(tail) != 6 {
		t.Fatalf("tail %d bytes, want 6 (4 of data, 2 after)", len(tail))
	}
	if err := p.BigArgAdvance(7); err == nil {
		t.Fatal("BigArgAdvance past the tail")
	}
	copy(tail, "llo\r")
	if err := p.BigArgAdvance(4); err != nil || p.NumCommands() != 0 {
		t.Fatal(err, p.NumCommands())
	}
	copy(p.BigArgTail(), "?!") // the two bytes after the data are not checked, as in Redis
	if err := p.BigArgAdvance(1); err != nil || p.NumCommands() != 0 {
		t.Fatal(err, p.NumCommands())
	}
	if err := p.BigArgAdvance(1); err != nil || p.NumCommands() != 1 {
		t.Fatal(err, p.NumCommands())
	}
	if a := p.Command(0); a.Len() != 2 || string(a.Arg(0)) != "ECHO" || string(a.Arg(1)) != "hello\r" {
		t.Fatalf("%q %q", a.Arg(0), a.Arg(1))
	}
	if p.BigArgTail() != nil {
		t.Fatal("tail after the argument completed")
	}
	if n, err := p.Parse([]byte("PING\r\n")); n != 6 || err != nil || p.NumCommands() != 2 {
		t.Fatal(n, err, p.NumCommands())
	}
}

// ResetCommands drops the run commands and keeps the unfinished one's arguments, big or not.
func TestResetCommandsKeepsUnfinished(t *testing.T) {
	p := NewParser(DefaultLimits())
	p.bigThreshold = 8
	in := appendCommand(nil, "SET", "k1", "a big value 1")
	in = appendCommand(in, "MSET", "k2", "big value number 2", "k3", "v3")
	cut := len(in) - 4
	if _, err := p.Parse(in[:cut]); err != nil || p.NumCommands() != 1 {
		t.Fatal(err)
	}
	if got := string(p.Command(0).Arg(2)); got != "a big value 1" {
		t.Fatal(got)
	}
	p.ResetCommands()
	if p.NumCommands() != 0 || len(p.bigs) != 1 || p.bigs[0].idx != 2 {
		t.Fatalf("after reset: %d commands, bigs %+v", p.NumCommands(), p.bigs)
	}
	if _, err := p.Parse(in[cut:]); err != nil || p.NumCommands() != 1 {
		t.Fatal(err)
	}
	a := p.Command(0)
	var got []string
	for i := range a.Len() {
		got = append(got, string(a.Arg(i)))
	}
	if !slices.Equal(got, []string{"MSET", "k2", "big value number 2", "k3", "v3"}) {
		t.Fatalf("%q", got)
	}
	p.ResetCommands()
	if len(p.buf) != 0 || len(p.argEnd) != 0 || len(p.bigs) != 0 || p.PendingBytes() != 0 {
		t.Fatal("arena not empty after the last command")
	}
}

// A count never preallocates more than 1,024 argument slots.
func TestCountDoesNotPreallocate(t *testing.T) {
	p := NewParser(DefaultLimits())
	if _, err := p.Parse([]byte("*2147483647\r\n")); err != nil {
		t.Fatal(err)
	}
	if c := cap(p.argEnd); c > maxArgvPrealloc {
		t.Fatalf("%d slots reserved", c)
	}
	if m := p.ArgvMem(); m > 8*1024 {
		t.Fatalf("ArgvMem %d after a count line", m)
	}
	// They grow as arguments arrive, by doubling.
	var b []byte
	for range 5000 {
		b = append(b, "$1\r\na\r\n"...)
	}
	if _, err := p.Parse(b); err != nil {
		t.Fatal(err)
	}
	if c := cap(p.argEnd); c < 5000 || c > 2*5000 {
		t.Fatalf("%d slots for 5000 arguments", c)
	}
}

func TestArgsViews(t *testing.T) {
	p := NewParser(DefaultLimits())
	p.Parse([]byte("*2\r\n$3\r\nGET\r\n$1\r\nk\r\nSET a b\r\n"))
	a := p.Command(0)
	k := a.Arg(1)
	if cap(k) != 1 {
		t.Fatalf("cap %d: appending to a view would overwrite the next argument", cap(k))
	}
	_ = append(k, 'X')
	if string(p.Command(1).Arg(0)) != "SET" {
		t.Fatal("append to a view changed the arena")
	}
	// Parse only appends: views taken before it stay right.
	p.Parse(bytes.Repeat([]byte("PING\r\n"), 1000))
	if string(k) != "k" || string(a.Arg(0)) != "GET" {
		t.Fatal("a view changed across Parse")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Arg out of range did not panic")
		}
	}()
	a.Arg(2)
}
