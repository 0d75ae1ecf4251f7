package resp

import (
	"bytes"
	"strconv"
	"testing"
)

// countingPool is a BufferPool that records what it hands out and takes back.
type countingPool struct {
	big        *BigBuffers
	gets, puts int
	putCaps    []int
}

func (p *countingPool) Get(n int) []byte { p.gets++; return p.big.Get(n) }
func (p *countingPool) Put(b []byte) {
	p.puts++
	p.putCaps = append(p.putCaps, cap(b))
	p.big.Put(b)
}

// TestWriterGrowsThroughPool: a reply that outgrows the Writer's buffer grows through the pool,
// which gets back every buffer grown out of; the encoding is the same as without a pool; and
// once the pool holds the grown buffer, the same replies again allocate nothing.
func TestWriterGrowsThroughPool(t *testing.T) {
	write := func(w *Writer) {
		w.Array(2000)
		for i := range 1000 {
			w.BulkString("field:" + strconv.Itoa(i))
			w.Bulk(bytes.Repeat([]byte{'v'}, 32))
		}
		w.Raw(bytes.Repeat([]byte{'r'}, 70000))
		w.Verbatim("txt", string(bytes.Repeat([]byte{'t'}, 100)))
	}
	var plain Writer
	write(&plain)

	p := &countingPool{big: NewBigBuffers(4 << 20)}
	var w Writer
	w.SetBuffer(make([]byte, 0, 16<<10))
	w.SetBufferPool(p)
	write(&w)
	if !bytes.Equal(w.Bytes(), plain.Bytes()) {
		t.Fatal("the pooled Writer encoded different bytes")
	}
	if p.gets == 0 || p.puts != p.gets || p.putCaps[0] != 16<<10 {
		t.Fatalf("gets %d puts %d (caps %v): want every grown-out buffer back, the 16 KiB one first", p.gets, p.puts, p.putCaps)
	}
	if cap(w.Bytes()) != bigClassSize(bigClass(w.Len())) {
		t.Fatalf("final capacity %d is not a class size for %d bytes", cap(w.Bytes()), w.Len())
	}

	// The flush gives the buffer back; the next batch of the same replies reuses it all.
	p.Put(w.Bytes()[:0])
	w.SetBuffer(nil)
	allocs := testing.AllocsPerRun(20, func() {
		w.SetBuffer(p.Get(bigClassMin))
		write(&w)
		p.Put(w.Bytes()[:0])
	})
	// The closure's own byte slices (bytes.Repeat, strconv, string concat) allocate; the
	// Writer's growth must not add to them.
	var own float64
	own = testing.AllocsPerRun(20, func() { write(&plain); plain.Reset() })
	if allocs > own {
		t.Fatalf("pooled batch: %v allocations, the replies' own arguments %v", allocs, own)
	}
}

// TestBigBuffersBounds: classes, the idle bound, and buffers that are not a class size.
func TestBigBuffersBounds(t *testing.T) {
	p := NewBigBuffers(330 << 10)
	for _, c := range []struct{ need, cap int }{{1, 64 << 10}, {64 << 10, 64 << 10}, {64<<10 + 1, 256 << 10}, {1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1}} {
		if b := p.Get(c.need); cap(b) != c.cap || len(b) != 0 {
			t.Errorf("Get(%d): len %d cap %d, want cap %d", c.need, len(b), cap(b), c.cap)
		}
	}
	p.Put(make([]byte, 0, 256<<10))
	p.Put(make([]byte, 0, 64<<10))
	p.Put(make([]byte, 0, 64<<10))  // over the 330 KiB bound: dropped
	p.Put(make([]byte, 0, 100<<10)) // not a class size: dropped
	p.Put(make([]byte, 0, 4<<20))   // above the classes: dropped
	if got := p.Idle(); got != 320<<10 {
		t.Fatalf("Idle = %d, want %d", got, 320<<10)
	}
	if b := p.Get(200 << 10); cap(b) != 256<<10 || p.Idle() != 64<<10 {
		t.Fatalf("Get reused cap %d, idle %d", cap(b), p.Idle())
	}
}
