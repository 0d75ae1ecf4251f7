package querybuf

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// The deliberate difference from Redis: with client-query-buffer-limit 1mb, 10,000,000 one-byte
// arguments sent in 64 KiB pieces close the client, before its memory passes ~1 MiB.
func TestQueryBufLimitManyArguments(t *testing.T) {
	const (
		limit = 1 << 20
		piece = 64 << 10
		nargs = 10_000_000
	)
	header := []byte("*10000000\r\n")
	unit := []byte("$1\r\na\r\n")
	pattern := bytes.Repeat(unit, piece/len(unit)+2)
	total := len(header) + nargs*len(unit)
	// stream returns bytes [off, off+piece) of header followed by nargs units.
	stream := func(off int) []byte {
		out := make([]byte, 0, piece)
		if off < len(header) {
			out = append(out, header[off:]...)
			off = len(header)
		}
		r := (off - len(header)) % len(unit)
		n := min(piece-len(out), total-off)
		return append(out, pattern[r:r+n]...)
	}

	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	p := NewParser(Limits{QueryBufLimit: limit})
	c := newConn(p, nil, false)
	var err error
	maxMem, sent := 0, 0
	for off := 0; off < total && err == nil; off += piece {
		err = c.feed(t, stream(off))
		sent += piece
		maxMem = max(maxMem, p.ArgvMem())
		if p.PendingBytes() > limit {
			t.Fatalf("PendingBytes %d over the limit", p.PendingBytes())
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if err != ErrQueryBufLimit {
		t.Fatalf("after %d bytes: %v", sent, err)
	}
	if len(c.cmds) != 0 {
		t.Fatal("a command completed")
	}
	if maxMem > limit+limit/4 {
		t.Fatalf("the arena reached %d bytes under a %d limit", maxMem, limit)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*limit {
		t.Fatalf("%d bytes allocated in all", alloc)
	}
	t.Logf("closed after %d KiB sent (%d arguments); arena peak %d bytes", sent>>10, sent/len(unit), maxMem)
}

// A big argument is counted in full when its header arrives, and refused before its buffer is
// allocated.
func TestQueryBufLimitBigArgument(t *testing.T) {
	p := NewParser(Limits{QueryBufLimit: 1 << 20})
	_, err := p.Parse([]byte("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2000000\r\n"))
	if err != ErrQueryBufLimit {
		t.Fatal(err)
	}
	if p.ArgvMem() > 4096 {
		t.Fatalf("ArgvMem %d: the buffer was allocated", p.ArgvMem())
	}
	p = NewParser(Limits{QueryBufLimit: 1 << 20})
	if _, err := p.Parse([]byte("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$900000\r\n")); err != nil {
		t.Fatal(err)
	}
	if pb := p.PendingBytes(); pb < 900002 {
		t.Fatalf("PendingBytes %d", pb)
	}
	// The bytes that fill the reservation are not counted a second time.
	if _, err := p.Parse(bytes.Repeat([]byte("v"), 150000)); err != nil {
		t.Fatal(err)
	}
	// But a second big argument of the same command does not fit any more.
	p = NewParser(Limits{QueryBufLimit: 1 << 20})
	in := appendCommand(nil, "MSET", "a", strings.Repeat("x", 600000), "b", strings.Repeat("y", 600000))
	if _, err := p.Parse(in); err != ErrQueryBufLimit {
		t.Fatal(err)
	}
}

// The unparsed bytes count too, as in Redis: more than the limit in one read closes the client
// even if it holds only complete commands.
func TestQueryBufLimitUnparsed(t *testing.T) {
	const limit = 1 << 20
	in := bytes.Repeat([]byte("PING\r\n"), limit/6)
	in = append(in, strings.Repeat("\n", limit-len(in))...)
	p := NewParser(Limits{QueryBufLimit: limit})
	if n, err := p.Parse(in); err != nil || n != limit {
		t.Fatal(n, err)
	}
	p = NewParser(Limits{QueryBufLimit: limit})
	if _, err := p.Parse(append(in, '\n')); err != ErrQueryBufLimit {
		t.Fatal(err)
	}
	// What the unfinished command holds (here a reserved big argument) plus the next read.
	p = NewParser(Limits{QueryBufLimit: limit})
	if _, err := p.Parse([]byte("*2\r\n$3\r\nGET\r\n$600000\r\n" + strings.Repeat("k", 500000))); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Parse(bytes.Repeat([]byte("k"), 600000)); err != ErrQueryBufLimit {
		t.Fatal(err)
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	set := []byte("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n")
	gets := bytes.Repeat([]byte("*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n"), 100)
	inline := []byte("SET key \"va lue\"\r\n")
	p := NewParser(DefaultLimits())
	for _, in := range [][]byte{set, gets, inline} {
		p.Parse(in)
		p.ResetCommands()
		if n := testing.AllocsPerRun(100, func() {
			p.Parse(in)
			p.ResetCommands()
		}); n != 0 {
			t.Errorf("%q…: %v allocations per batch", in[:12], n)
		}
	}
}

func TestTrim(t *testing.T) {
	p := NewParser(DefaultLimits())
	big := bytes.Repeat([]byte("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$20\r\n01234567890123456789\r\n"), 5000)
	small := []byte("*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n")

	p.Parse(big)
	p.ResetCommands()
	grown := p.ArgvMem()
	p.Trim() // active, and the peak is what it holds: kept
	if p.ArgvMem() != grown {
		t.Fatalf("ArgvMem %d after Trim right after use, was %d", p.ArgvMem(), grown)
	}
	p.Parse(small)
	p.ResetCommands()
	p.Trim() // active, but far above twice its recent peak: shrunk to the peak
	if m := p.ArgvMem(); m == 0 || m > grown/4 {
		t.Fatalf("ArgvMem %d after small batches, was %d", m, grown)
	}
	p.Trim() // idle for a whole period: released
	if m := p.ArgvMem(); m != 0 {
		t.Fatalf("ArgvMem %d for an idle client", m)
	}
	p.Parse(small) // and it grows back
	if p.NumCommands() != 1 || string(p.Command(0).Arg(1)) != "key" {
		t.Fatal("parse after release")
	}

	// The unfinished command's arguments survive every Trim.
	p = NewParser(DefaultLimits())
	p.Parse(big)
	p.ResetCommands()
	p.Parse([]byte("*3\r\n$3\r\nSET\r\n$5\r\nmykey\r\n$5\r\nva"))
	p.Trim()
	p.Trim()
	if m := p.ArgvMem(); m > 1024 {
		t.Fatalf("ArgvMem %d for an idle client with a partial command", m)
	}
	p.Parse([]byte("lue\r\n"))
	if a := p.Command(0); string(a.Arg(1)) != "mykey" || string(a.Arg(2)) != "value" {
		t.Fatalf("%q %q", a.Arg(1), a.Arg(2))
	}
}
