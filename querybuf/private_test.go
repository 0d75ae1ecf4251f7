package querybuf

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// newTestBuffers returns Buffers on an arena of their own, closed when the test ends.
func newTestBuffers(t *testing.T) Buffers {
	t.Helper()
	a := alloc.MustNewArena(0)
	t.Cleanup(a.Close)
	return NewBuffers(a, new(sync.Mutex))
}

// exactMem is what a private buffer holding n bytes, grown exactly, is charged: the size class
// of its 8-byte header plus n.
func exactMem(n int) int { return alloc.UsableSize(8 + n) }

// TestPrivateGrowsExactly: below 16 KiB each growth is to exactly what is held (as the
// allocator rounds it), never greedy, and the peak follows what was held or reserved.
func TestPrivateGrowsExactly(t *testing.T) {
	b := newTestBuffers(t)
	var q Private
	if !q.IsNil() || q.Len(b) != 0 || q.Use(b, nil) != (Use{}) {
		t.Fatal("the zero Private holds something")
	}
	held := 0
	for _, n := range []int{3, 1, 60, 500, 3000, 9000} {
		if !q.Keep(b, bytes.Repeat([]byte("x"), n)) {
			t.Fatal("Keep: out of memory")
		}
		held += n
		u := q.Use(b, nil)
		if q.Len(b) != held || u.Qbuf != held || u.Mem != exactMem(held) || u.QbufFree != u.Mem-8-held {
			t.Fatalf("after %d bytes: len %d, use %+v; want memory %d", held, q.Len(b), u, exactMem(held))
		}
		if q.Peak() != held {
			t.Fatalf("peak %d, want %d", q.Peak(), held)
		}
	}
	// Room for a read is reserved exactly, and counts in the peak before it is used.
	room := q.ReadSpace(b, SharedBufferSize)
	if len(room) < SharedBufferSize || q.Peak() != held+SharedBufferSize {
		t.Fatalf("ReadSpace: %d bytes of room, peak %d", len(room), q.Peak())
	}
	if m := q.Use(b, nil).Mem; m != exactMem(held+SharedBufferSize) {
		t.Fatalf("after ReadSpace: memory %d, want %d", m, exactMem(held+SharedBufferSize))
	}
	q.Release(b)
	if !q.IsNil() || q.Peak() != 0 || b.arena.Used() != 0 {
		t.Fatalf("after Release: nil %v, peak %d, arena %d", q.IsNil(), q.Peak(), b.arena.Used())
	}
}

// TestPrivateTrim: the cron's rules, DESIGN §5, one case per line.
func TestPrivateTrim(t *testing.T) {
	const idle, active = qbufIdleMs + 1, 0
	for _, tc := range []struct {
		name       string
		held, room int   // bytes held, and room reserved after them (ReadSpace)
		peak       int   // the peak to set before Trim (0: what Keep and ReadSpace left)
		idleMs     int64 // how long the client has been idle
		want       int   // bytes of room after Trim, -1 for no buffer
	}{
		{"under 4 KiB free: kept even idle and empty", 0, 4000, 0, idle, 4000},
		{"idle exactly 2 s is not idle", 0, 20000, 0, qbufIdleMs, 20000},
		{"idle and empty: freed", 0, 20000, 0, idle, -1},
		{"idle and holding a line: trimmed to it", 100, 20000, 0, idle, 100},
		{"active, 32 KiB or less: kept", 10, 30000, 10, active, 30000},
		{"active, big, peak over half: kept", 10, 60000, 40000, active, 60000},
		{"active, big, peak under half: trimmed to the peak", 10, 60000, 5000, active, 5000},
		{"active, big, contents over the peak: trimmed to them", 9000, 60000, 100, active, 9000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBuffers(t)
			var q Private
			q.Keep(b, bytes.Repeat([]byte("l"), tc.held))
			q.ReadSpace(b, tc.room)
			if tc.peak > 0 {
				q.qbPeak = int32(tc.peak)
			}
			before := q.Use(b, nil).Mem
			q.Trim(b, tc.idleMs)
			u := q.Use(b, nil)
			switch {
			case tc.want < 0:
				if !q.IsNil() || u.Mem != 0 {
					t.Fatalf("buffer kept: %+v", u)
				}
			case tc.want == tc.held+tc.room:
				if u.Mem != before {
					t.Fatalf("memory %d, want it unchanged at %d", u.Mem, before)
				}
			default:
				if u.Mem != exactMem(tc.want) {
					t.Fatalf("memory %d, want %d (room for %d bytes)", u.Mem, exactMem(tc.want), tc.want)
				}
			}
			if q.Len(b) != tc.held || q.Peak() != tc.held {
				t.Fatalf("after Trim: %d bytes held, peak %d; want %d and %d", q.Len(b), q.Peak(), tc.held, tc.held)
			}
		})
	}
}

// TestPrivateNoShrinkGrowLoop: a client whose reads keep reserving a read's room is not
// trimmed under them by an active cron visit, so the buffer is not reallocated visit after visit.
func TestPrivateNoShrinkGrowLoop(t *testing.T) {
	b := newTestBuffers(t)
	var q Private
	q.Keep(b, bytes.Repeat([]byte("i"), MaxReadPrefix+1)) // a long inline line: read into directly
	q.ReadSpace(b, SharedBufferSize)
	reallocs := b.arena.Stats().Reallocs
	for range 50 {
		q.Trim(b, 0)
		q.ReadSpace(b, SharedBufferSize)
	}
	if n := b.arena.Stats().Reallocs - reallocs; n != 0 {
		t.Fatalf("%d reallocations in 50 visits of an active client", n)
	}
}

// TestPrivateParse: an unfinished line stays in the private buffer across reads into a shared
// buffer (copied in front) and reads into the private buffer itself; the staged start of a big
// argument leaves it once the argument's own buffer takes over.
func TestPrivateParse(t *testing.T) {
	b := newTestBuffers(t)
	var q Private
	p := NewParser(DefaultLimits())
	p.SetBigBuffers(&b)
	shared := make([]byte, SharedBufferSize)
	read := func(s string) {
		t.Helper()
		prefix := q.Len(b)
		if prefix > MaxReadPrefix {
			room := q.ReadSpace(b, len(s))
			if err := q.ParseRead(b, p, copy(room, s)); err != nil {
				t.Fatal(err)
			}
			return
		}
		n := copy(shared[prefix:], s)
		if err := q.ParseShared(b, p, shared, prefix, n); err != nil {
			t.Fatal(err)
		}
	}
	read("*2\r\n$3\r\nGET\r\n$")
	if q.Len(b) != 1 || p.NumCommands() != 0 {
		t.Fatalf("held %d, %d commands", q.Len(b), p.NumCommands())
	}
	read("1\r\nk\r\nSET k ")
	if p.NumCommands() != 1 || string(p.Command(0).Arg(1)) != "k" || q.Len(b) != 6 {
		t.Fatalf("%d commands, held %d", p.NumCommands(), q.Len(b))
	}
	p.ResetCommands()
	long := strings.Repeat("v", MaxReadPrefix)
	read(long) // now over MaxReadPrefix: the next read goes into the private buffer
	read("\r\n")
	if p.NumCommands() != 1 || len(p.Command(0).Arg(2)) != len(long) || q.Len(b) != 0 {
		t.Fatalf("%d commands, held %d", p.NumCommands(), q.Len(b))
	}
	p.ResetCommands()
	// A big argument's first bytes are staged here, then go to its own buffer.
	read(fmt.Sprintf("*2\r\n$3\r\nGET\r\n$%d\r\n", 100000) + strings.Repeat("a", 5000))
	if q.Len(b) != 5000 || p.BigArgGot() != 0 {
		t.Fatalf("staging: held %d, big got %d", q.Len(b), p.BigArgGot())
	}
	u := q.Use(b, p)
	// qbuf-free: the private buffer's spare room, and the big buffer's less the staged bytes.
	if u.Qbuf != 5000 || u.ArgvMem != 3 || u.QbufFree != q.qb.Avail(b.arena)+100002-5000 {
		t.Fatalf("use while staging: %+v", u)
	}
	read(strings.Repeat("a", 5000))
	if !q.IsNil() || p.BigArgGot() != 10000 {
		t.Fatalf("after the stage: private buffer nil %v, big got %d", q.IsNil(), p.BigArgGot())
	}
}

// TestUse: CLIENT LIST's numbers, as Redis reports them for the same bytes sent.
func TestUse(t *testing.T) {
	for _, tc := range []struct {
		sent                    string
		qbuf, qbufFree, argvMem int
	}{
		{"", 0, 0, 0},
		{"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$5\r\n", 0, 0, 4},
		{"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$5\r\nhel", 3, 0, 4},     // Redis: qbuf=3 argv-mem=4
		{"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$5\r\nhello\r", 6, 0, 4}, // the bytes after the data count
		{"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$5", 2, exactMem(2) - 10, 4},
		{"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$5\r\nhello\r\n", 0, 0, 0}, // complete: not pending
		{"PING\r\nSET k", 5, exactMem(5) - 13, 0},
	} {
		b := newTestBuffers(t)
		var q Private
		p := NewParser(DefaultLimits())
		data := []byte(tc.sent)
		consumed, err := p.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if rest := data[consumed:]; len(rest) > 0 {
			q.Keep(b, rest)
		}
		u := q.Use(b, p)
		if u.Qbuf != tc.qbuf || u.QbufFree != tc.qbufFree || u.ArgvMem != tc.argvMem {
			t.Errorf("%q: qbuf=%d qbuf-free=%d argv-mem=%d, want %d %d %d", tc.sent, u.Qbuf, u.QbufFree, u.ArgvMem, tc.qbuf, tc.qbufFree, tc.argvMem)
		}
		if want := q.Use(b, nil).Mem + p.ArgvMem(); u.Mem != want {
			t.Errorf("%q: memory %d, want %d", tc.sent, u.Mem, want)
		}
	}
}
